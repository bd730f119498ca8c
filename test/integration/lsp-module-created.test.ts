import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startServer, until, type Session } from './lsp-client';

/**
 * A handler imports its key from a module that does not exist yet (written first, as one
 * does), then the module is created: the language server must judge the handler again with
 * the module's constant, as a server started afresh would; and again when it is deleted, or
 * when a module created beside a folder takes the import over from the folder's index.
 */

const sessions: Session[] = [];
const dirs: string[] = [];
after(() => {
  for (const s of sessions) s.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const HANDLER = [
  `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';`,
  `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';`,
  `import { FEED_KEY } from './feed-keys';`,
  ``,
  `const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));`,
  ``,
  `export const handler = async (event: { body: string }) => {`,
  `  const { text } = JSON.parse(event.body) as { text: string };`,
  `  await db.send(new PutCommand({ TableName: process.env.FEED_TABLE, Item: { pk: FEED_KEY, at: Date.now(), text } }));`,
  `};`,
  ``,
].join('\n');

test('a module created after the import naming it re-judges the importer', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-created-'));
  dirs.push(folder);
  fs.mkdirSync(path.join(folder, 'src'));
  fs.writeFileSync(path.join(folder, 'package.json'), '{ "name": "feed", "private": true }\n');
  fs.writeFileSync(path.join(folder, 'src', 'post.ts'), HANDLER);
  const s = startServer(folder);
  sessions.push(s);
  await s.initialize();
  await until('the index done', () => s.statuses.some((x) => !x.indexing) && s.logs.some((l) => /indexed/.test(l)));
  const uri = pathToFileURL(path.join(folder, 'src', 'post.ts')).toString();
  const hot = () => (s.diagnostics.get(uri) ?? []).filter((d) => String(d.message).includes('FEED#all'));
  assert.equal(hot().length, 0);

  const module = path.join(folder, 'src', 'feed-keys.ts');
  fs.writeFileSync(module, `export const FEED_KEY = 'FEED#all';\n`);
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: pathToFileURL(module).toString(), type: 1 }],
  });
  await until(
    'the importer judged with the new module',
    () => hot().length > 0,
    () => s.diagnostics.get(uri),
  );

  // Deleted again: the import names nothing, and the key is unknown as before.
  fs.rmSync(module);
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: pathToFileURL(module).toString(), type: 3 }],
  });
  await until(
    'the importer judged without the module',
    () => hot().length === 0,
    () => s.diagnostics.get(uri),
  );
  assert.deepEqual(s.errors, []);
});

test('a module created beside the folder an import named re-judges the importer', async () => {
  // `./feed-keys` names feed-keys/index.ts until feed-keys.ts is created beside the folder.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-shadowed-'));
  dirs.push(folder);
  fs.mkdirSync(path.join(folder, 'src', 'feed-keys'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'package.json'), '{ "name": "feed", "private": true }\n');
  fs.writeFileSync(path.join(folder, 'src', 'post.ts'), HANDLER);
  fs.writeFileSync(path.join(folder, 'src', 'feed-keys', 'index.ts'), `export const FEED_KEY = 'FEED#all';\n`);
  const s = startServer(folder);
  sessions.push(s);
  await s.initialize();
  const uri = pathToFileURL(path.join(folder, 'src', 'post.ts')).toString();
  const keys = () => (s.diagnostics.get(uri) ?? []).map((d) => /Partition key "([^"]+)"/.exec(String(d.message))?.[1]);
  await until(
    'the folder index module read',
    () => keys().includes('FEED#all'),
    () => s.diagnostics.get(uri),
  );

  const module = path.join(folder, 'src', 'feed-keys.ts');
  fs.writeFileSync(module, `export const FEED_KEY = 'FEED#today';\n`);
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: pathToFileURL(module).toString(), type: 1 }],
  });
  await until(
    'the module beside the folder read',
    () => keys().includes('FEED#today'),
    () => s.diagnostics.get(uri),
  );
  assert.ok(!keys().includes('FEED#all'));
  assert.deepEqual(s.errors, []);
});
