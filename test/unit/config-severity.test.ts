// A rule's configured severity replaces its default, but what ShardLens judged a note
// stays one: a write of a read-hot key, a read the cache serves, code that runs once.
// Real parser and workspace over small files in the shapes handlers and scripts take.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Finding } from '../../server/src/engine';
import { judgeFinding } from '../../server/src/config/apply';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';

const HANDLERS = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const getFlags = async () =>
  ddb.send(new GetCommand({ TableName: 'settings', Key: { pk: 'global-config', sk: 'flags' } }));
export const getLimits = async () =>
  ddb.send(new GetCommand({ TableName: 'settings', Key: { pk: 'global-config', sk: 'limits' } }));
export const getBanner = async () =>
  ddb.send(new GetCommand({ TableName: 'settings', Key: { pk: 'global-config', sk: 'banner' } }));
export const saveFlags = async (value: string) =>
  ddb.send(new PutCommand({ TableName: 'settings', Item: { pk: 'global-config', sk: 'flags', value } }));
`;

const SEED = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

async function main() {
  await ddb.send(new PutCommand({ TableName: 'settings', Item: { pk: 'FEED#all', sk: 'seed' } }));
}
main();
`;

let dir: string;
let findings: Finding[];

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-severity-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.writeFileSync(path.join(dir, 'src', 'config.ts'), HANDLERS);
  fs.writeFileSync(path.join(dir, 'scripts', 'seed.ts'), SEED);
  await initParsers();
  const index = new WorkspaceIndex({ root: dir, maxBytes: 2 * 1024 * 1024 });
  for (const f of collectFiles([dir]).files) index.analyzeFile(f, false);
  findings = index.results().flatMap((r) => r.findings);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const judged = (f: Finding, level: 'error' | 'warning' | 'info' | 'off') => judgeFinding(f, { SL001: level }, {});

test('a write of a read-hot key stays a note under any configured SL001 level; off removes it', () => {
  const write = findings.find((f) => f.messageId === 'rarelyWritten')!;
  assert.ok(write, 'the admin write of a key read from three handlers is rarelyWritten');
  assert.equal(write.severity, 'info');
  const reads = findings.filter((f) => f.messageId === 'readHot');
  assert.equal(reads.length, 3);
  for (const level of ['error', 'warning', 'info'] as const) {
    assert.equal(judged(write, level)!.severity, 'info', level);
    for (const r of reads) assert.equal(judged(r, level)!.severity, level, `the reads follow ${level}`);
  }
  assert.equal(judged(write, 'off'), null);
});

test('a finding in code that runs once stays info when SL001 is configured higher', () => {
  const seed = findings.find((f) => f.file.endsWith('seed.ts'))!;
  assert.equal(seed.context, 'script');
  assert.equal(seed.severity, 'info');
  assert.equal(judged(seed, 'error')!.severity, 'info');
  assert.equal(judged(seed, 'warning')!.severity, 'info');
});
