import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startServer, until, type Session } from './lsp-client';

/**
 * The status the server sends while it is still indexing: a document opened at once is
 * published on its own before the workspace is indexed, and its status must say
 * "indexing" rather than count the workspace as that one file (the status bar read
 * "ShardLens: 0" then). The first status that is not indexing carries the whole count.
 */

// Three modules of a small service: each writes a constant key (one SL001 apiece).
const module = (
  name: string,
  key: string,
) => `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from({} as never);

export async function save${name}(id: string): Promise<void> {
  await ddb.send(new PutCommand({ TableName: '${name.toLowerCase()}s', Item: { pk: '${key}', sk: id } }));
}
`;

let session: Session | undefined;
let folder: string | undefined;
after(() => {
  session?.stop();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

test('statuses sent before the first index is done say indexing; the first count is the whole workspace', async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-status-'));
  fs.mkdirSync(path.join(folder, 'src'));
  for (const [name, key] of [
    ['Order', 'ORDERS'],
    ['Invoice', 'INVOICES'],
    ['Payment', 'PAYMENTS'],
  ])
    fs.writeFileSync(path.join(folder, 'src', `${name.toLowerCase()}s.ts`), module(name, key));
  // A buffer not on disk, opened at once: published on its own, before the index.
  const uri = pathToFileURL(path.join(folder, 'src', 'draft.ts')).toString();
  const s = startServer(folder);
  session = s;
  // An editor answering settings requests slowly: the open buffer is analysed before the index starts.
  s.configurationDelayMs = 1500;
  await s.initialize();
  void s.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'typescript', version: 1, text: module('Draft', 'DRAFTS') },
  });
  const first = await until(
    'a status that is not indexing',
    () => s.statuses.find((x) => !x.indexing),
    () => s.statuses,
  );
  assert.ok(s.statuses.length >= 2, `the indexing state was sent first: ${JSON.stringify(s.statuses)}`);
  // Three files on disk and the open buffer: four errors, counted together.
  assert.equal(first.errors, 4, JSON.stringify(s.statuses));
  assert.ok(s.diagnostics.get(uri)?.length, 'the open buffer is published');
});
