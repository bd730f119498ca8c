// A write that sets a global index's key to a constant (`SET #league = :league` with
// `':league': 'Chess'`, in a `params` object built before the call): the index key is
// the hot one, and the item is found by the table's key, so a random shard of the index
// key loses nothing. The fix is offered, the fixed code type-checks, and run with SDK v2
// against dynalite the same players come back from the generated reader, spread over
// the shards.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { CreateTableCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { allFixes, writeFixes } from '../../server/src/features/fixes/index';
import { applyAction, cleanup, copyFixture, indexWorkspace, startDynalite, typeErrors } from './helpers-write';
import { table, withIndex } from './helpers-programs';

const FIXTURES = path.join(__dirname, 'fixtures');
const RANDOM = /^Add a random write-shard suffix \(10 shards, 1 read of every shard\)$/;
const PLAYERS = 40;
const run = promisify(execFile);

/** The league fixture read from its code alone: without its template the index key is SL001's. */
function leagueWithoutTemplate(): string {
  const copy = copyFixture('league', FIXTURES);
  fs.rmSync(path.join(copy, 'template.yaml'));
  return copy;
}

let dir = '';
before(() => {
  dir = leagueWithoutTemplate();
});
after(() => cleanup(dir));

/** Runs the fixture's handler for every win, then its standings(), with SDK v2 against `endpoint`. */
async function drive(endpoint: string): Promise<string[]> {
  const source = `const AWS = require('aws-sdk');
AWS.config.update({ endpoint: ${JSON.stringify(endpoint)}, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
const league = require(${JSON.stringify(path.join(dir, 'league.js'))});
(async () => {
  const wins = [];
  for (let i = 0; i < ${PLAYERS}; i++) wins.push('p' + i, ...(i % 2 === 0 ? ['p' + i] : []));
  for (const w of wins) await league.handler({ Records: [{ dynamodb: { NewImage: { winner: { S: w } } } }] });
  const out = await league.standings();
  const items = Array.isArray(out) ? out : out.Items;
  console.log(JSON.stringify(items.map((x) => x.playerId + ':' + x.wins).sort()));
})();
`;
  const { stdout } = await run(process.execPath, ['-e', source], { cwd: path.resolve(__dirname, '..', '..') });
  return JSON.parse(stdout);
}

async function withTable<T>(fn: (endpoint: string, scan: () => Promise<Record<string, string>[]>) => Promise<T>) {
  const db = await startDynalite();
  try {
    await db.client.send(
      new CreateTableCommand(withIndex(table('players', 'playerId', null), 'byLeague', ['league', 'S'], ['wins', 'N'])),
    );
    const scan = async () =>
      ((await db.client.send(new ScanCommand({ TableName: 'players' }))).Items ?? []).map((i) => ({
        playerId: i.playerId.S!,
        league: i.league.S!,
        wins: i.wins.N!,
      }));
    return await fn(db.endpoint, scan);
  } finally {
    await db.close();
  }
}

test('a constant index key set by an update gets the random shard fix, and the same players come back', async () => {
  const before = await withTable(async (endpoint, scan) => ({ read: await drive(endpoint), stored: await scan() }));
  assert.equal(before.stored.length, PLAYERS);
  assert.deepEqual(new Set(before.stored.map((i) => i.league)), new Set(['Chess']));

  const ws = await indexWorkspace(dir);
  const finding = ws.findings.find((f) => f.rule === 'SL001' && f.access.operation === 'UpdateItem');
  assert.ok(finding, 'SL001 on the update that sets the index key');
  const actions = writeFixes.flatMap((p) => p(finding, ws.ctx));
  const random = actions.find((a) => RANDOM.test(a.title));
  assert.ok(random, `the random fix is offered: ${JSON.stringify(actions.map((a) => a.title))}`);
  applyAction(ws.ctx, random);
  assert.deepEqual(typeErrors(dir), []);
  const fixed = await indexWorkspace(dir);
  assert.deepEqual(
    fixed.findings.filter((f) => f.rule === 'SL001').map((f) => f.access.operation),
    [],
    'the update and the read are both sharded',
  );

  const after = await withTable(async (endpoint, scan) => ({ read: await drive(endpoint), stored: await scan() }));
  assert.equal(after.stored.length, PLAYERS, 'one item per player, as before');
  assert.ok(after.stored.every((i) => /^Chess#\d$/.test(i.league)));
  assert.ok(new Set(after.stored.map((i) => i.league)).size > 1, 'the players spread over several index keys');
  assert.deepEqual(after.read, before.read, 'the reader returns every player with the same wins');
});

/** The league's standings Query with `option` added, indexed: the copy and the SL001 on the update. */
async function readVariant(option: string) {
  const copy = leagueWithoutTemplate();
  try {
    const file = path.join(copy, 'league.js');
    const text = fs.readFileSync(file, 'utf8');
    const edited = text.replace(
      "ExpressionAttributeValues: { ':league': 'Chess' },\n    })",
      `ExpressionAttributeValues: { ':league': 'Chess' },\n      ${option},\n    })`,
    );
    assert.notEqual(edited, text, 'the variant changes the read');
    fs.writeFileSync(file, edited);
    const ws = await indexWorkspace(copy);
    const finding = ws.findings.find((f) => f.rule === 'SL001' && f.access.operation === 'UpdateItem');
    assert.ok(finding);
    return { copy, file, ws, finding };
  } catch (e) {
    cleanup(copy);
    throw e;
  }
}

test('a read that asks for descending order by a sort key the code never names gets no reader', async () => {
  const { copy, ws, finding } = await readVariant('ScanIndexForward: false');
  try {
    const actions = allFixes(finding, ws.ctx);
    assert.deepEqual(
      actions.filter((a) => a.id === 'add-random-shard').map((a) => a.title),
      [],
      'a reader could not merge the shards in that order',
    );
    const blocked = actions.find((a) => a.id === 'shard-fix-blocked');
    assert.match(blocked?.title ?? '', /the Query at league\.js:\d+ cannot be replaced by a reader of every shard/);
  } finally {
    cleanup(copy);
  }
});

test('a read that projects gets a reader that sends its projection to every shard', async () => {
  const { copy, file, ws, finding } = await readVariant("ProjectionExpression: 'playerId, wins'");
  try {
    const random = allFixes(finding, ws.ctx).find((a) => RANDOM.test(a.title));
    assert.ok(random, 'the random fix is offered');
    applyAction(ws.ctx, random);
    const fixed = fs.readFileSync(file, 'utf8');
    assert.match(
      fixed,
      /WithOptions\(\{ ProjectionExpression: 'playerId, wins' \}\)/,
      'the call passes the projection',
    );
    assert.match(fixed, /\.\.\.options,/, 'the reader sends it to every shard');
    assert.deepEqual(typeErrors(copy), []);
  } finally {
    cleanup(copy);
  }
});
