// Generated code in the names and layout the file's author already uses, on fixtures shaped
// like public code (test/fixes/fixtures/author-style; OneTable's in
// test/libraries/onetable-4space.test.ts):
// - a reader loops over the writers' own shard-count constant, also when the writers pick
//   the shard with `random.randint(0, SHARDS - 1)` or `random.randrange(1, SHARDS + 1)`;
// - a reader names the table by the module's constant (`TABLE_NAME = process.env.TABLE_NAME`)
//   where the read's parameters object is built apart from the call;
// - a Query on an index a table created in code declares (`createTable` with
//   `GlobalSecondaryIndexes`) is merged by that index's sort key;
// Each fixed program still runs against dynalite and returns every item.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes/index';
import type { FixAction } from '../../server/src/features/fixes/fix-model';
import { runDriver, table, withIndex } from './helpers-programs';
import { applyAction, fixtureCopier, indexWorkspace, pythonErrors, typeErrors, type Workspace } from './helpers-write';

const copy = fixtureCopier(path.join(__dirname, 'fixtures', 'author-style'));

/** The one fix `id` offered on the first finding of `rule`, applied to disk; the texts it changed. */
async function applied(
  dir: string,
  rule: string,
  id: string,
): Promise<{ ws: Workspace; action: FixAction; texts: Map<string, string> }> {
  const ws = await indexWorkspace(dir);
  const finding = ws.findings.find((f) => f.rule === rule);
  assert.ok(finding, `${rule} in ${path.basename(dir)}: ${ws.findings.map((f) => f.rule).join(', ')}`);
  const action = allFixes(finding, ws.ctx).find((a) => a.id === id);
  assert.ok(action, `${id} offered: ${allFixes(finding, ws.ctx).map((a) => a.id)}`);
  const files = applyAction(ws.ctx, action);
  return { ws, action, texts: new Map(files.map((f) => [path.basename(f), fs.readFileSync(f, 'utf8')])) };
}

const VOTES = table('votes', 'pk', ['sk', 'S']);

/** `p00`, `p01`, ...: the sort keys a driver writes, in the order a read of every shard returns them. */
const ids = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);

/** What a driver printed (a JSON list) after running against a fresh votes table. */
const listed = async (language: 'node' | 'python', drive: string, dir: string) =>
  JSON.parse((await runDriver(VOTES, language, drive, dir)).stdout) as string[];

test('Python: the reader loops over SHARDS, which randint(0, SHARDS - 1) counts, and reads every vote', async () => {
  const dir = copy('votes-py');
  const drive = `import json, votes
for i in range(40):
    votes.record_vote("alice", f"v{i:02}")
print(json.dumps([v["sk"] for v in votes.list_votes("alice")]))`;
  const before = await listed('python', drive, dir);
  assert.ok(before.length < 40, 'one shard of the votes before');
  const { texts } = await applied(dir, 'SL006', 'use-reader');
  const fixed = texts.get('votes.py')!;
  assert.match(fixed, /pool\.map\(read_shard, range\(SHARDS\)\)/);
  assert.match(fixed, /max_workers=min\(SHARDS, 8\)/);
  assert.doesNotMatch(fixed, /range\(8\)|min\(8, 8\)/);
  assert.deepEqual(pythonErrors(dir), []);
  assert.deepEqual(await listed('python', drive, dir), ids('v', 40));
});

test('Python client: shards 1..SHARDS (randrange(1, SHARDS + 1)) read by range(1, SHARDS + 1) on the module table', async () => {
  const dir = copy('clicks-py');
  const { texts } = await applied(dir, 'SL006', 'use-reader');
  const fixed = texts.get('clicks.py')!;
  assert.match(fixed, /range\(1, SHARDS \+ 1\)/);
  assert.doesNotMatch(fixed, /os\.environ\["TABLE_NAME"\][\s\S]*os\.environ\["TABLE_NAME"\]/, 'the table read once');
  assert.deepEqual(pythonErrors(dir), []);
  const drive = `import json, clicks
for i in range(30):
    clicks.record_click("home", f"c{i:02}")
print(json.dumps([c["sk"]["S"] for c in clicks.list_clicks("home")]))`;
  assert.deepEqual(await listed('python', drive, dir), ids('c', 30));
});

test("JavaScript: the reader names the module's TABLE_NAME constant and SHARDS, and reads every vote", async () => {
  const dir = copy('votes-js');
  const { texts } = await applied(dir, 'SL006', 'use-reader');
  const fixed = texts.get('votes.js')!;
  assert.equal(fixed.match(/process\.env/g)?.length, 1, 'the environment read once, by the constant');
  assert.match(fixed, /TableName: TABLE_NAME,\n\s+KeyConditionExpression/);
  assert.match(fixed, /for \(let shard = 0; shard < SHARDS; shard\+\+\)/);
  assert.deepEqual(typeErrors(dir), []);
  const drive = `const votes = require(${JSON.stringify(path.join(dir, 'votes.js'))});
(async () => {
  for (let i = 0; i < 30; i++) await votes.recordVote('bob', 'v' + String(i).padStart(2, '0'));
  console.log(JSON.stringify((await votes.listVotes('bob')).map((v) => v.sk)));
})();`;
  assert.deepEqual(await listed('node', drive, dir), ids('v', 30));
});

test('an index a table created in code declares orders the merged ranking by its sort key', async () => {
  const readerOf = async (withDefinition: boolean) => {
    const dir = copy('ladder-js');
    if (!withDefinition) fs.rmSync(path.join(dir, 'create-tables.js'));
    const { texts } = await applied(dir, 'SL001', 'add-hash-shard');
    return { dir, text: texts.get('ladder.js')! };
  };
  const { dir, text } = await readerOf(true);
  assert.match(text, /const sortKey = \(item\) => item\['rating'\];/);
  assert.doesNotMatch((await readerOf(false)).text, /sortKey/, 'without the definition the shards are only joined');
  const ladder = withIndex(table('ladder', 'memberId', null), 'byDivision', ['division', 'S'], ['rating', 'N']);
  const drive = `const AWS = require('aws-sdk');
AWS.config.update({ endpoint: process.env.AWS_ENDPOINT_URL, region: 'us-east-1' });
const ladder = require(${JSON.stringify(path.join(dir, 'ladder.js'))});
(async () => {
  for (let i = 0; i < 24; i++) await ladder.recordResult('m' + ((i * 7) % 24), 1000 + ((i * 7) % 24));
  console.log(JSON.stringify((await ladder.ranking()).map((m) => m.rating)));
})();`;
  const ratings = JSON.parse((await runDriver(ladder, 'node', drive, dir)).stdout) as number[];
  assert.deepEqual(
    ratings,
    Array.from({ length: 24 }, (_, i) => 1000 + i),
    'every member, by rating',
  );
});
