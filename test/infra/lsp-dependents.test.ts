import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { startServer, until, type Session } from '../integration/lsp-client';

/**
 * Files an infrastructure file is read from beside its own text, over LSP stdio against
 * the built server: a function module a `serverless.ts` imports (its events decide how
 * the handler is reached), edited in the editor or changed on disk, and a resources file
 * a `serverless.yml` includes with `${file(...)}`, edited in the editor. Each change
 * re-reads the service and moves the findings it decides.
 */

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-infra-deps-')));
const sessions: Session[] = [];
after(() => {
  for (const s of sessions) s.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function serve(fixture: string): Promise<{ s: Session; dir: string; uri: (rel: string) => string }> {
  const dir = path.join(tmp, path.basename(fixture));
  fs.cpSync(path.join(__dirname, '..', 'fixtures', fixture), dir, { recursive: true });
  const s = startServer(dir);
  sessions.push(s);
  await s.initialize();
  return { s, dir, uri: (rel) => pathToFileURL(path.join(dir, rel)).toString() };
}

const shown = (ds: Diagnostic[] | undefined) =>
  (ds ?? []).map((d) => `${d.code} ${['', 'error', 'warning', 'info'][d.severity ?? 0]}`);

test('serverless.ts: a function module whose http event becomes a schedule makes its handler a cold path, in the editor and on disk', async () => {
  const { s, dir, uri } = await serve('entry/serverless-ts-polls');
  const handler = uri('src/functions/cast-vote/handler.ts');
  const module = uri('src/functions/cast-vote/index.ts');
  const diags = () => s.diagnostics.get(handler);
  await until('SL004 as a warning (POST polls/{pollId}/votes)', () => shown(diags()).includes('SL004 warning'), diags);

  const file = path.join(dir, 'src/functions/cast-vote/index.ts');
  const text = fs.readFileSync(file, 'utf8');
  const scheduled = text.replace(/events: \[[\s\S]*\],\n\};/, "events: [{ schedule: 'rate(1 hour)' }],\n};");
  assert.notEqual(scheduled, text);

  // Edited in the editor, unsaved.
  await s.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: module, languageId: 'typescript', version: 1, text },
  });
  await s.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: module, version: 2 },
    contentChanges: [{ text: scheduled }],
  });
  const cold = await until(
    'SL004 as info on the schedule',
    () => diags()?.find((d) => d.code === 'SL004' && d.severity === 3),
    diags,
  );
  assert.match(cold.message, /Cold path: runs on rate\(1 hour\)/);

  // Closed unsaved: the module on disk declares the API again.
  await s.conn.sendNotification('textDocument/didClose', { textDocument: { uri: module } });
  await until('SL004 a warning again', () => shown(diags()).includes('SL004 warning'), diags);

  // Saved on disk, as another tool would write it.
  fs.writeFileSync(file, scheduled);
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: module, type: 2 }] });
  await until('SL004 as info from the disk', () => shown(diags()).includes('SL004 info'), diags);
  assert.deepEqual(s.errors, []);
});

test('serverless.yml: the included resources file, edited in the editor, is read again with the service', async () => {
  const { s, dir, uri } = await serve('infra/orders-included');
  const resources = uri('resources/orders-table.yml');
  const place = uri('src/place.ts');
  await until(
    'SL013 on the included file',
    () => shown(s.diagnostics.get(resources)).includes('SL013 info'),
    () => s.diagnostics.get(resources),
  );
  await until(
    'SL001 on the writer',
    () => shown(s.diagnostics.get(place)).includes('SL001 error'),
    () => s.diagnostics.get(place),
  );
  const text = fs.readFileSync(path.join(dir, 'resources/orders-table.yml'), 'utf8');
  await s.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: resources, languageId: 'yaml', version: 1, text },
  });

  // Contributor Insights on: the finding on the definition goes.
  const insights = text.replace(
    '    BillingMode: PAY_PER_REQUEST\n',
    '    BillingMode: PAY_PER_REQUEST\n    ContributorInsightsSpecification:\n      Enabled: true\n',
  );
  assert.notEqual(insights, text);
  await s.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: resources, version: 2 },
    contentChanges: [{ text: insights }],
  });
  await until(
    'SL013 cleared',
    () => (s.diagnostics.get(resources) ?? []).length === 0,
    () => s.diagnostics.get(resources),
  );

  // The partition key becomes `sk`: the constant `pk` is no longer the table's partition key.
  const swapped = insights.replace(
    /- AttributeName: pk\n(\s+)KeyType: HASH\n(\s+)- AttributeName: sk\n(\s+)KeyType: RANGE/,
    '- AttributeName: sk\n$1KeyType: HASH\n$2- AttributeName: pk\n$3KeyType: RANGE',
  );
  assert.notEqual(swapped, insights);
  await s.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: resources, version: 3 },
    contentChanges: [{ text: swapped }],
  });
  await until(
    'SL001 gone from the writer',
    () => !shown(s.diagnostics.get(place)).includes('SL001 error'),
    () => s.diagnostics.get(place),
  );
  assert.deepEqual(s.errors, []);
});
