import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { startServer, until, type Session } from '../integration/lsp-client';

/**
 * A CDK app edited in the editor, over LSP stdio against the built server: the app's
 * files are read again after each edit's pause, as source files are analysed, so a
 * table's definition edited without a save moves the findings it decides. The app is
 * the cdk-subclass fixture: the stack constructs `ShopTable`, a subclass of `Table`
 * declared in another file, whose `super(...)` sets the key schema and billing.
 */

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-cdk-')));
const sessions: Session[] = [];
after(() => {
  for (const s of sessions) s.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const codes = (ds: Diagnostic[] | undefined) => (ds ?? []).map((d) => d.code);

test('an unsaved edit of a CDK stack, and of the construct class it uses, re-reads the app', async () => {
  const dir = path.join(tmp, 'cdk-subclass');
  fs.cpSync(path.join(__dirname, '..', 'fixtures', 'infra', 'cdk-subclass'), dir, { recursive: true });
  const s = startServer(dir);
  sessions.push(s);
  await s.initialize();
  const uri = (rel: string) => pathToFileURL(path.join(dir, rel)).toString();
  const stack = uri('lib/shop-stack.ts');
  const table = uri('lib/constructs/shop-table.ts');
  const stackDiags = () => s.diagnostics.get(stack);
  // Contributor Insights is off on the table the hot counter is on: SL013 at its definition in the stack.
  await until('SL013 on the stack', () => codes(stackDiags()).includes('SL013'), stackDiags);

  // The stack turns Contributor Insights on for the orders table, unsaved.
  const stackText = fs.readFileSync(path.join(dir, 'lib/shop-stack.ts'), 'utf8');
  const insights = stackText.replace(
    "{ tableName: 'shop-orders' }",
    "{ tableName: 'shop-orders', contributorInsightsEnabled: true }",
  );
  assert.notEqual(insights, stackText);
  await s.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: stack, languageId: 'typescript', version: 1, text: stackText },
  });
  await s.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: stack, version: 2 },
    contentChanges: [{ text: insights }],
  });
  await until('SL013 gone after the stack edit', () => !codes(stackDiags()).includes('SL013'), stackDiags);
  await s.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: stack, version: 3 },
    contentChanges: [{ text: stackText }],
  });
  await until('SL013 back when the edit is undone', () => codes(stackDiags()).includes('SL013'), stackDiags);

  // The construct class, in its own file, turns it on for every table it makes: the stack is read again.
  const tableText = fs.readFileSync(path.join(dir, 'lib/constructs/shop-table.ts'), 'utf8');
  const inClass = tableText.replace('removalPolicy:', 'contributorInsightsEnabled: true,\n      removalPolicy:');
  assert.notEqual(inClass, tableText);
  await s.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: table, languageId: 'typescript', version: 1, text: tableText },
  });
  await s.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: table, version: 2 },
    contentChanges: [{ text: inClass }],
  });
  await until('SL013 gone after the class edit', () => !codes(stackDiags()).includes('SL013'), stackDiags);

  // Closed unsaved: the class on disk leaves it off again.
  await s.conn.sendNotification('textDocument/didClose', { textDocument: { uri: table } });
  await until('SL013 back from the disk', () => codes(stackDiags()).includes('SL013'), stackDiags);
  assert.deepEqual(s.errors, []);
});
