import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { scratch, until, type Session } from './lsp-client';

/**
 * A handler imports its key from a module that does not exist yet (written first, as one
 * does), then the module is created: the language server must judge the handler again with
 * the module's constant, as a server started afresh would; and again when it is deleted, or
 * when a module created beside a folder takes the import over from the folder's index.
 */

const { started, tmp } = scratch('shardlens-lsp-created');

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

/** A service whose handler is post.ts, with `files` beside it (path under src/ → text); the server indexed. */
async function served(name: string, files: Record<string, string>) {
  const folder = tmp(name);
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), text);
  };
  put('package.json', '{ "name": "feed", "private": true }\n');
  put('src/post.ts', HANDLER);
  for (const [rel, text] of Object.entries(files)) put(path.join('src', rel), text);
  const s = started(folder);
  await s.initialize();
  await until('the index done', () => s.statuses.some((x) => !x.indexing) && s.logs.some((l) => /indexed/.test(l)));
  const uri = pathToFileURL(path.join(folder, 'src', 'post.ts')).toString();
  const keys = () => (s.diagnostics.get(uri) ?? []).map((d) => /Partition key "([^"]+)"/.exec(String(d.message))?.[1]);
  return { s, module: path.join(folder, 'src', 'feed-keys.ts'), keys, seen: () => s.diagnostics.get(uri) };
}

/** Tells the server a file was created (1) or deleted (3), as the editor's watcher does. */
async function changed(s: Session, file: string, type: 1 | 3) {
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [{ uri: pathToFileURL(file).toString(), type }],
  });
}

test('a module created after the import naming it re-judges the importer', async () => {
  const { s, module, keys, seen } = await served('created', {});
  assert.ok(!keys().includes('FEED#all'));

  fs.writeFileSync(module, `export const FEED_KEY = 'FEED#all';\n`);
  await changed(s, module, 1);
  await until('the importer judged with the new module', () => keys().includes('FEED#all'), seen);

  // Deleted again: the import names nothing, and the key is unknown as before.
  fs.rmSync(module);
  await changed(s, module, 3);
  await until('the importer judged without the module', () => !keys().includes('FEED#all'), seen);
  assert.deepEqual(s.errors, []);
});

test('a module created beside the folder an import named re-judges the importer', async () => {
  // `./feed-keys` names feed-keys/index.ts until feed-keys.ts is created beside the folder.
  const { s, module, keys, seen } = await served('shadowed', {
    'feed-keys/index.ts': `export const FEED_KEY = 'FEED#all';\n`,
  });
  await until('the folder index module read', () => keys().includes('FEED#all'), seen);

  fs.writeFileSync(module, `export const FEED_KEY = 'FEED#today';\n`);
  await changed(s, module, 1);
  await until('the module beside the folder read', () => keys().includes('FEED#today'), seen);
  assert.ok(!keys().includes('FEED#all'));
  assert.deepEqual(s.errors, []);
});
