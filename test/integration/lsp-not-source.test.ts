import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { scratch, until } from './lsp-client';

/**
 * Files the editor reports changed on disk that the walk never lists: `tsc` rewriting
 * `dist/`, `pip install -t layer/python` rewriting a Lambda layer's packages. The server
 * must not start judging them as the project's code; a file of the project changed in the
 * same batch is judged as usual.
 */

const { started, tmp } = scratch('shardlens-lsp-not-source');

const HOT_TS = (name: string) =>
  [
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';`,
    `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';`,
    ``,
    `const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));`,
    ``,
    `export const ${name} = async (event: { body: string }) => {`,
    `  await db.send(new PutCommand({ TableName: 'feed', Item: { pk: 'FEED#all', at: Date.now(), body: event.body } }));`,
    `};`,
    ``,
  ].join('\n');

/** A bundle's CommonJS, as a build writes it next to the sources. */
const HOT_JS = [
  `const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');`,
  `const { DynamoDBDocumentClient, PutCommand } = require('@aws-sdk/lib-dynamodb');`,
  ``,
  `const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));`,
  ``,
  `exports.handler = async (event) => {`,
  `  await db.send(new PutCommand({ TableName: 'feed', Item: { pk: 'FEED#all', at: Date.now(), body: event.body } }));`,
  `};`,
  ``,
].join('\n');

const HOT_PY = `import boto3


def touch(table_name):
    boto3.resource("dynamodb").Table(table_name).put_item(Item={"pk": "HEARTBEAT", "at": 0})
`;

test('build output and pip-installed packages changed on disk stay unjudged; the project’s file is judged', async () => {
  const folder = tmp('service');
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), text);
    return path.join(folder, rel);
  };
  put('package.json', '{ "name": "feed", "private": true }\n');
  put('src/health.ts', `export const health = () => ({ ok: true });\n`);
  put('layer/python/ddb_heartbeat-1.2.0.dist-info/RECORD', 'ddb_heartbeat/__init__.py,sha256=aaaa,120\n');
  const s = started(folder);
  await s.initialize();
  await until('the index done', () => s.statuses.some((x) => !x.indexing) && s.logs.some((l) => /indexed/.test(l)));

  // Written after the index, as a build or an install does, and told in one batch with a source file.
  const built = put('dist/post.js', HOT_JS);
  const installed = put('layer/python/ddb_heartbeat/__init__.py', HOT_PY);
  const own = put('src/post.ts', HOT_TS('handler'));
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [built, installed, own].map((f) => ({ uri: pathToFileURL(f).toString(), type: 1 })),
  });
  const uri = (f: string) => pathToFileURL(f).toString();
  await until('the project’s file judged', () => (s.diagnostics.get(uri(own)) ?? []).length > 0);
  assert.match(String(s.diagnostics.get(uri(own))![0].message), /Partition key "FEED#all"/);
  assert.deepEqual(s.diagnostics.get(uri(built)) ?? [], []);
  assert.deepEqual(s.diagnostics.get(uri(installed)) ?? [], []);

  // The same text is judged where it is the project's: the build output copied to src/.
  const moved = put('src/built.js', HOT_JS);
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri(moved), type: 1 }] });
  await until('a source file of the same text judged', () => (s.diagnostics.get(uri(moved)) ?? []).length > 0);

  // Its TypeScript written beside it (the project moved to TypeScript, tsc without outDir):
  // the JavaScript is tsc's output from then on, and only the TypeScript is judged.
  const source = put('src/built.ts', HOT_TS('handler'));
  await s.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri(source), type: 1 }] });
  await until('the TypeScript judged', () => (s.diagnostics.get(uri(source)) ?? []).length > 0);
  await until('the compiled JavaScript no longer', () => (s.diagnostics.get(uri(moved)) ?? []).length === 0);
  assert.deepEqual(s.errors, []);
});
