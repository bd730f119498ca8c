// A SAM project of two Lambda folders, each with its own index.js: update-score sets the
// leaderboard index's partition key (`gameTitle`) to the game's one title, get-leaderboard
// queries the index best score first (`ScanIndexForward: false`) without naming the
// index's sort key, which only template.yaml declares (`scoreIndex: gameTitle HASH, score RANGE`).
// With the template, the random shard fix is offered and its reader merges the shards by
// score, descending: run with SDK v2 against dynalite, the leaderboard is the same players
// in the same order. Without it the fix is refused, naming the Query's file unambiguously.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { CreateTableCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { allFixes, writeFixes } from '../../server/src/features/fixes/index';
import { applyAction, cleanup, copyFixture, startDynalite, typeErrors } from './helpers-write';
import { SCORES_TABLE } from '../lab/helpers';

const FIXTURES = path.join(__dirname, 'fixtures');
const HANDLERS = ['update-score/index.js', 'get-leaderboard/index.js'];
const run = promisify(execFile);
const PLAYERS = 60;
const UPDATES = 150;

let dir = '';
before(() => {
  dir = copyFixture('sam-leaderboard', FIXTURES);
});
after(() => cleanup(dir));

async function indexed(root: string) {
  await initParsers();
  const index = new WorkspaceIndex({ root });
  const template = path.join(root, 'template.yaml');
  if (fs.existsSync(template)) index.readInfrastructure([template]);
  index.analyzeAll(HANDLERS.map((f) => path.join(root, f)));
  const findings = index.results().flatMap((r) => r.findings);
  const writer = findings.find(
    (f) => (f.rule === 'SL001' || f.rule === 'SL012') && f.access.operation === 'UpdateItem',
  );
  assert.ok(writer, 'SL001 on the update that sets the index key');
  return { ctx: fixContextOf(index), writer, findings };
}

/** Every score update through update-score, then the leaderboard: `playerId:score` in the order returned. */
async function leaderboard(root: string, endpoint: string): Promise<string[]> {
  const [update, board] = HANDLERS.map((f) => path.join(root, f));
  const source = `process.env.SCORE_TABLE = 'scores';
const AWS = require('aws-sdk');
AWS.config.update({ endpoint: ${JSON.stringify(endpoint)}, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
const update = require(${JSON.stringify(update)});
const board = require(${JSON.stringify(board)});
(async () => {
  // Each update is a new best score of one player; every final score is distinct.
  for (let i = 0; i < ${UPDATES}; i++) await update.handler({ playerId: 'p' + (i * 7) % ${PLAYERS}, score: 1000 + i });
  const items = await board.handler();
  console.log(JSON.stringify(items.map((x) => x.playerId + ':' + x.score)));
})();
`;
  const { stdout } = await run(process.execPath, ['-e', source], { cwd: path.resolve(__dirname, '..', '..') });
  return JSON.parse(stdout);
}

async function withTable<T>(fn: (endpoint: string, stored: () => Promise<string[]>) => Promise<T>): Promise<T> {
  const db = await startDynalite();
  try {
    // The table as template.yaml declares it.
    await db.client.send(new CreateTableCommand(SCORES_TABLE));
    const stored = async () =>
      ((await db.client.send(new ScanCommand({ TableName: 'scores' }))).Items ?? []).map((i) => i.gameTitle.S!);
    return await fn(db.endpoint, stored);
  } finally {
    await db.close();
  }
}

test('without the template the reader is refused, and the refusal names get-leaderboard/index.js, not index.js', async () => {
  const copy = copyFixture('sam-leaderboard', FIXTURES);
  try {
    fs.rmSync(path.join(copy, 'template.yaml'));
    const { ctx, writer } = await indexed(copy);
    const actions = allFixes(writer, ctx);
    assert.deepEqual(
      actions.filter((a) => a.id === 'add-random-shard').map((a) => a.title),
      [],
    );
    const blocked = actions.find((a) => a.id === 'shard-fix-blocked');
    assert.ok(blocked, JSON.stringify(actions.map((a) => a.title)));
    assert.match(blocked.title, /the Query at get-leaderboard\/index\.js:7 cannot be replaced/);
    assert.doesNotMatch(blocked.title, /(^|[^/\w-])index\.js/, 'no place named by its ambiguous base name');
  } finally {
    cleanup(copy);
  }
});

test('with the template the reader merges the shards by the index sort key, descending: same leaderboard', async () => {
  const before = await withTable(async (endpoint, stored) => ({
    board: await leaderboard(dir, endpoint),
    keys: new Set(await stored()),
  }));
  assert.equal(before.board.length, PLAYERS);
  assert.deepEqual([...before.keys], ['Rock Paper Scissors']);
  const scores = before.board.map((x) => Number(x.split(':')[1]));
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
    'best score first',
  );

  const { ctx, writer } = await indexed(dir);
  const actions = writeFixes.flatMap((p) => p(writer, ctx));
  const random = actions.find((a) => a.id === 'add-random-shard');
  assert.ok(random, `the random fix is offered: ${JSON.stringify(actions.map((a) => a.title))}`);
  const folders = ['update-score', 'get-leaderboard'].map((d) => path.join(dir, d));
  // `process.env.SCORE_TABLE` is a `string | undefined` to the SDK's types before the fix too.
  const typesBefore = folders.map(typeErrors);
  applyAction(ctx, random);
  const reader = fs.readFileSync(path.join(dir, HANDLERS[1]), 'utf8');
  assert.match(reader, /ScanIndexForward: false/, 'each shard is read best score first');
  assert.match(reader, /const sortKey = \(item\) => item\['score'\];/, 'the shards are merged by score');
  assert.match(
    reader,
    /const head = \(s\) => sortKey\(perShard\[s\]\[heads\[s\]\]\);/,
    'a shard is compared by its next item',
  );
  assert.match(reader, /head\(s\) > head\(next\)/, 'highest first');
  assert.deepEqual(folders.map(typeErrors), typesBefore, 'the fix adds no type error');
  const again = await indexed(dir).catch(() => null);
  assert.equal(again, null, 'no constant index key left on the update');

  const after = await withTable(async (endpoint, stored) => ({
    board: await leaderboard(dir, endpoint),
    keys: new Set(await stored()),
  }));
  assert.ok(after.keys.size > 1, `the players spread over the index shards: ${[...after.keys].join(', ')}`);
  assert.ok(
    [...after.keys].every((k) => /^Rock Paper Scissors#\d$/.test(k)),
    [...after.keys].join(', '),
  );
  assert.deepEqual(after.board, before.board, 'the same players with the same scores, in the same order');
});
