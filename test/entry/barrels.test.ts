/**
 * A barrel (`db/index.ts`: `export * from './feed'`, `export { countVisit as recordVisit } from
 * './stats'`) imported whole (`import * as db`) or by name: the route reaches the functions of
 * the modules it re-exports, under the names it gives them, through barrels of barrels.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findingsOf } from './helpers';

const module = (command: string, fn: string, input: string) =>
  [
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
    `import { DynamoDBDocumentClient, ${command} } from '@aws-sdk/lib-dynamodb';`,
    '',
    'const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
    '',
    `export async function ${fn}() {`,
    `  return doc.send(new ${command}(${input}));`,
    '}',
    '',
  ].join('\n');

const FILES: Record<string, string> = {
  'package.json':
    '{ "name": "feed-api", "dependencies": { "express": "^4.19.2", "@aws-sdk/lib-dynamodb": "^3.600.0" } }',
  'src/db/feed.ts': module(
    'QueryCommand',
    'latest',
    "{ TableName: 'feed', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'FEED#all' } }",
  ),
  'src/db/stats.ts': module(
    'UpdateCommand',
    'countVisit',
    "{ TableName: 'feed', Key: { pk: 'STATS#visits' }, UpdateExpression: 'ADD v :one', ExpressionAttributeValues: { ':one': 1 } }",
  ),
  'src/db/index.ts': "export * from './feed';\nexport { countVisit as recordVisit } from './stats';\n",
  'src/app.ts': [
    "import express from 'express';",
    "import * as db from './db';",
    '',
    'const app = express();',
    '',
    "app.get('/feed', async (_req, res) => {",
    '  await db.recordVisit();',
    '  res.json(await db.latest());',
    '});',
    '',
    'app.listen(3000);',
    '',
  ].join('\n'),
};

const reached = (fs: Awaited<ReturnType<typeof findingsOf>>, file: string) => {
  const here = fs.filter((f) => f.at.startsWith(`${file}:`));
  assert.ok(here.length > 0, `no finding in ${file}: ${fs.map((f) => f.at).join(', ')}`);
  return here.every((f) => /Reached from GET \/feed/.test(f.message));
};

test('a barrel imported whole: the route reaches what it re-exports, under the name it gives', async () => {
  const fs = await findingsOf(FILES);
  assert.ok(reached(fs, 'src/db/feed.ts'));
  assert.ok(reached(fs, 'src/db/stats.ts'));
});

test('names imported from a barrel of barrels', async () => {
  const fs = await findingsOf({
    ...FILES,
    'src/data/index.ts': "export * from '../db';\n",
    'src/app.ts': FILES['src/app.ts']
      .replace("import * as db from './db';", "import { latest, recordVisit } from './data';")
      .replace('db.recordVisit()', 'recordVisit()')
      .replace('db.latest()', 'latest()'),
  });
  assert.ok(reached(fs, 'src/db/feed.ts'));
  assert.ok(reached(fs, 'src/db/stats.ts'));
});

test('a name the barrel does not re-export is not reached through it', async () => {
  const fs = await findingsOf({ ...FILES, 'src/db/index.ts': "export * from './feed';\n" });
  assert.ok(reached(fs, 'src/db/feed.ts'));
  assert.ok(!reached(fs, 'src/db/stats.ts'));
});
