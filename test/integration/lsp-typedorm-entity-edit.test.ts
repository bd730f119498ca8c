/**
 * A TypeDORM entity edited in the editor re-judges the files that use it: queue.ts queries
 * the `billing` queue through the `GSI1` index that ticket.entity.ts declares in its
 * `@Entity({...})` decorator. When the index's key template is changed in the editor (not
 * saved), the diagnostics of the open queue.ts must follow the new template, and follow it
 * back when the edit is undone.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver';
import { openDocument, serveFixture } from './lsp-actions';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'lsp');
const lsp = serveFixture('typedorm-entity-edit', FIXTURES, { waitForIndex: true });

/** The partition keys of queue.ts's SL001 diagnostics, once they satisfy `done` (or after 20 s). */
async function hotKeysOfQueue(done: (keys: string[]) => boolean): Promise<string[]> {
  const uri = pathToFileURL(path.join(lsp.dir, 'src', 'queue.ts')).toString();
  const keys = () =>
    (lsp.session.diagnostics.get(uri) ?? ([] as Diagnostic[]))
      .filter((d) => d.code === 'SL001')
      .map((d) => /Partition key "([^"]+)"/.exec(String(d.message))?.[1] ?? '?');
  for (const end = Date.now() + 20_000; !done(keys()) && Date.now() < end;)
    await new Promise((r) => setTimeout(r, 100));
  return keys();
}

test("an edit to an @Entity decorator re-judges the open file that queries the entity's index", async () => {
  const queue = path.join(lsp.dir, 'src', 'queue.ts');
  await openDocument(lsp.session, queue);
  assert.deepEqual(await hotKeysOfQueue((k) => k.length > 0), ['QUEUE#billing']);

  const file = path.join(lsp.dir, 'src', 'ticket.entity.ts');
  const uri = pathToFileURL(file).toString();
  const text = fs.readFileSync(file, 'utf8');
  await lsp.session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'typescript', version: 1, text },
  });
  const renamed = text.replace("partitionKey: 'QUEUE#{{queue}}'", "partitionKey: 'DESK#{{queue}}'");
  assert.notEqual(renamed, text);
  await lsp.session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: renamed }],
  });
  assert.deepEqual(await hotKeysOfQueue((k) => k.includes('DESK#billing')), ['DESK#billing']);

  // Undone: the open file is judged on the entity's text as it was.
  await lsp.session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 3 },
    contentChanges: [{ text }],
  });
  assert.deepEqual(await hotKeysOfQueue((k) => k.includes('QUEUE#billing')), ['QUEUE#billing']);
});

test('an edit that makes the index key constant is reported where the connection lists the entity', async () => {
  const db = path.join(lsp.dir, 'src', 'db.ts');
  const dbUri = pathToFileURL(db).toString();
  await lsp.session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: dbUri, languageId: 'typescript', version: 1, text: fs.readFileSync(db, 'utf8') },
  });
  const file = path.join(lsp.dir, 'src', 'ticket.entity.ts');
  const uri = pathToFileURL(file).toString();
  const text = fs.readFileSync(file, 'utf8');
  const constant = text.replace("partitionKey: 'QUEUE#{{queue}}'", "partitionKey: 'TICKETS'");
  await lsp.session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 4 },
    contentChanges: [{ text: constant }],
  });
  const hot = () =>
    (lsp.session.diagnostics.get(dbUri) ?? ([] as Diagnostic[]))
      .filter((d) => d.code === 'SL001')
      .map((d) => String(d.message));
  for (const end = Date.now() + 20_000; hot().length === 0 && Date.now() < end;)
    await new Promise((r) => setTimeout(r, 100));
  assert.equal(hot().length, 1, JSON.stringify(hot()));
  assert.match(hot()[0], /"TICKETS"/);
  await lsp.session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 5 },
    contentChanges: [{ text }],
  });
  for (const end = Date.now() + 20_000; hot().length > 0 && Date.now() < end;)
    await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(hot(), []);
});
