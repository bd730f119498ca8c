import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { startServer, until, type Session } from '../integration/lsp-client';

/**
 * An SST app edited in the editor, over LSP stdio against the built server: its `infra/*.ts`
 * files are read again after each edit's pause, as a CDK app's are, so moving a handler
 * from an API route to a daily cron, unsaved, moves the severity of the hot counter the
 * handler's package writes (the sst-v3 fixture: `infra/api.ts` routes `POST
 * /polls/{pollId}/votes` to a handler that adds to one site-wide item).
 */

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-sst-')));
const sessions: Session[] = [];
after(() => {
  for (const s of sessions) s.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const counterOf = (ds: Diagnostic[] | undefined) => (ds ?? []).find((d) => d.code === 'SL004');

test('an unsaved edit of an SST component file moves the findings of the code its handlers run', async () => {
  const dir = path.join(tmp, 'sst-v3');
  fs.cpSync(path.join(__dirname, '..', 'fixtures', 'infra', 'sst-v3'), dir, { recursive: true });
  const s = startServer(dir);
  sessions.push(s);
  await s.initialize();
  const uri = (rel: string) => pathToFileURL(path.join(dir, rel)).toString();
  const api = uri('infra/api.ts');
  const poll = uri('packages/core/src/poll/index.ts');
  const pollDiags = () => s.diagnostics.get(poll);
  await until('the counter a warning, reached from the route', () => counterOf(pollDiags())?.severity === 2, pollDiags);
  assert.match(counterOf(pollDiags())!.message, /Reached from POST \/polls\/\{pollId\}\/votes/);
  // The hover names the table as the code reads it, and the SST table it is.
  await s.conn.sendNotification('textDocument/didOpen', {
    textDocument: {
      uri: poll,
      languageId: 'typescript',
      version: 1,
      text: fs.readFileSync(path.join(dir, 'packages/core/src/poll/index.ts'), 'utf8'),
    },
  });
  const hover = (await s.conn.sendRequest('textDocument/hover', {
    textDocument: { uri: poll },
    position: { line: 18, character: 21 },
  })) as { contents: { value: string } } | null;
  assert.match(hover?.contents.value ?? '', /on table `Resource\.Polls\.name`/);
  assert.match(hover?.contents.value ?? '', /`Resource\.Polls\.name` names the table `Polls` of/);

  // The vote handler no longer answers a route: it runs once a day.
  const apiText = fs.readFileSync(path.join(dir, 'infra/api.ts'), 'utf8');
  const daily = apiText.replace(
    'api.route("POST /polls/{pollId}/votes", {',
    'new sst.aws.Cron("Recount", { schedule: "rate(1 day)", function: {',
  );
  const edited = daily.replace('  link: [table],\n});', '  link: [table],\n} });');
  assert.notEqual(edited, apiText);
  await s.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: api, languageId: 'typescript', version: 1, text: apiText },
  });
  await s.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: api, version: 2 },
    contentChanges: [{ text: edited }],
  });
  await until('the counter info, on the cold path', () => counterOf(pollDiags())?.severity === 3, pollDiags);
  assert.match(counterOf(pollDiags())!.message, /Cold path: runs on rate\(1 day\)/);

  // Closed unsaved: the route on disk makes it hot again.
  await s.conn.sendNotification('textDocument/didClose', { textDocument: { uri: api } });
  await until('the counter a warning again', () => counterOf(pollDiags())?.severity === 2, pollDiags);
  assert.deepEqual(s.errors, []);
});
