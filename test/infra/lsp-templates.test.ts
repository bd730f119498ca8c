import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { startServer, until, type Session } from '../integration/lsp-client';

/**
 * Templates in the editor, over LSP stdio against the built server: the finding on a
 * table's definition (SL013) is published on the template itself, at the definition, with
 * a hover; an edit of the open template (didChange) that turns Contributor Insights on, or
 * a `shardlens-ignore` comment, clears it, and closing the template goes back to the disk;
 * a template changed on disk (didChangeWatchedFiles) does the same. Terraform alike.
 */

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'infra');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-infra-lsp-templates-')));
const sessions: Session[] = [];
after(() => {
  for (const s of sessions) s.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function serve(fixture: string): Promise<{ s: Session; dir: string; uri: (rel: string) => string }> {
  const dir = path.join(tmp, fixture);
  fs.cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
  const s = startServer(dir);
  sessions.push(s);
  await s.initialize();
  return { s, dir, uri: (rel) => pathToFileURL(path.join(dir, rel)).toString() };
}

const codes = (ds: Diagnostic[] | undefined) => (ds ?? []).map((d) => `${d.code}@${d.range.start.line}`);

/** Replaces the document's whole text, as an editor sends a full-text change. */
async function replaceText(s: Session, uri: string, version: number, text: string): Promise<void> {
  await s.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version },
    contentChanges: [{ text }],
  });
}

test('SAM template: SL013 on the definition, its hover, cleared by an edit or a comment, back on close', async () => {
  const { s, dir, uri } = await serve('sam-app');
  const template = uri('template.yaml');
  const shown = () => s.diagnostics.get(template);
  const diag = await until('SL013 on template.yaml', () => shown()?.find((d) => d.code === 'SL013'), shown);
  // The definition of TalliesTable: its value starts on line 50 (1-based), under `TalliesTable:`.
  const text = fs.readFileSync(path.join(dir, 'template.yaml'), 'utf8');
  const lines = text.split('\n');
  assert.equal(lines[diag.range.start.line - 1], '  TalliesTable:');
  assert.deepEqual(diag.range.start, { line: lines.indexOf('  TalliesTable:') + 1, character: 4 });
  assert.equal(diag.severity, 3);
  assert.match(diag.message, /Table TalliesTable has 1 hot-key finding \(SL004 at src\/handlers\/tally\.js:10\)/);
  assert.deepEqual(codes(s.diagnostics.get(uri('src/handlers/tally.js'))), ['SL004@9']);

  await s.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: template, languageId: 'yaml', version: 1, text },
  });
  const hover = (await s.conn.sendRequest('textDocument/hover', {
    textDocument: { uri: template },
    position: { line: diag.range.start.line + 2, character: 8 },
  })) as { contents: { value: string } } | null;
  const md = hover?.contents.value ?? '';
  assert.match(md, /\*\*Table `TalliesTable`\*\*: its name chosen at deploy time/);
  assert.match(md, /Key schema: partition key `pk` \(S\)/);
  assert.match(md, /Billing: provisioned, 5 RCU, 25 WCU · Contributor Insights: off \(not set\)/);
  assert.match(md, /\*\*SL013\*\* \[contributor-insights-off\]\(.*SL013\.md\)/);
  // Away from any table: no hover.
  assert.equal(
    await s.conn.sendRequest('textDocument/hover', {
      textDocument: { uri: template },
      position: { line: 0, character: 0 },
    }),
    null,
  );

  // Contributor Insights turned on in the buffer: the finding goes.
  const head = '\n  TalliesTable:\n    Type: AWS::DynamoDB::Table\n    Properties:\n';
  const on = text.replace(
    head,
    `${head}      ContributorInsightsSpecification:\n        Enabled: true\n        Mode: THROTTLED_KEYS\n`,
  );
  assert.notEqual(on, text);
  await replaceText(s, template, 2, on);
  await until(
    'SL013 to clear',
    () => !codes(shown()).includes(`SL013@${diag.range.start.line}`) && shown()?.length === 0,
    shown,
  );

  // Back off, then a comment above the resource silences it.
  await replaceText(s, template, 3, text);
  await until('SL013 back', () => shown()?.some((d) => d.code === 'SL013'), shown);
  await replaceText(
    s,
    template,
    4,
    text.replace('\n  TalliesTable:\n', '\n  # shardlens-ignore SL013\n  TalliesTable:\n'),
  );
  await until('SL013 silenced', () => shown()?.length === 0, shown);

  // Closed unsaved: the disk's text stands again.
  await s.conn.sendNotification('textDocument/didClose', { textDocument: { uri: template } });
  await until('SL013 from the disk', () => shown()?.some((d) => d.code === 'SL013'), shown);

  // Changed on disk: the watcher's notification re-reads it.
  fs.writeFileSync(path.join(dir, 'template.yaml'), on);
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: template, type: 2 }] });
  await until('SL013 cleared from the disk', () => shown()?.length === 0, shown);
  assert.deepEqual(codes(s.diagnostics.get(uri('src/handlers/tally.js'))), ['SL004@9']);
  assert.deepEqual(s.errors, []);
});

test('Terraform: SL013 on the aws_dynamodb_table resource, silenced by a // comment typed in the editor', async () => {
  const { s, dir, uri } = await serve('terraform-ignore');
  const tf = uri('infra/dynamodb.tf');
  const shown = () => s.diagnostics.get(tf);
  await until('SL013 on dynamodb.tf', () => codes(shown()).includes('SL013@0'), shown);
  const text = fs.readFileSync(path.join(dir, 'infra/dynamodb.tf'), 'utf8');
  await s.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: tf, languageId: 'terraform', version: 1, text },
  });
  // An incremental edit, as an editor sends one keystroke's worth: a comment line inserted at the top.
  await s.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: tf, version: 2 },
    contentChanges: [
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        text: '// shardlens-ignore SL013\n',
      },
    ],
  });
  await until('SL013 silenced', () => shown()?.length === 0, shown);
  assert.deepEqual(codes(s.diagnostics.get(uri('src/counter/app.py'))), ['SL004@9']);
  assert.deepEqual(s.errors, []);
});
