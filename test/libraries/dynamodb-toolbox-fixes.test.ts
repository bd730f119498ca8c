/**
 * The shard fixes of a dynamodb-toolbox (v1/v2) entity whose key attribute's default is
 * one constant, on fixtures written in the library's documented style
 * (test/fixtures/libraries/dynamodb-toolbox-fixes): which fix each finding gets and why
 * not; the fixed code type-checks against the pinned typings, runs with the real library
 * against dynalite (stored keys are the new template's render, spread over shards, every
 * item read back, point accesses find the put's item) and is analysed again without the
 * finding and without SL006.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding } from '../../server/src/engine';
import { allFixes } from '../../server/src/features/fixes';
import type { FixAction, FixContext } from '../../server/src/features/fixes/fix-model';
import { applyAction, fixtureCopier, indexWorkspace, typeErrors } from '../fixes/helpers-write';
import { ROOT, stringKeyTable, withDynalite } from './helpers';
import { fnvShard, shardsRead } from './helpers-shards';

const LIBRARIES = path.join(ROOT, 'test', 'fixtures', 'libraries');
const FIXTURE = 'dynamodb-toolbox-fixes';
const copy = fixtureCopier(LIBRARIES);

/** The finding on an entity's schema (its attribute's constant default). */
const onSchema = (findings: Finding[], entity: string) =>
  findings.find((f) => f.access.library?.entity === entity && f.access.library.schema)!;

async function fixed(entity: string, id: string): Promise<{ dir: string; action: FixAction; ctx: FixContext }> {
  const dir = copy(FIXTURE);
  const ws = await indexWorkspace(dir);
  const action = allFixes(onSchema(ws.findings, entity), ws.ctx).find((a) => a.id === id);
  assert.ok(action, `no ${id} on ${entity}`);
  applyAction(ws.ctx, action);
  return { dir, action, ctx: ws.ctx };
}

const APP_TABLE = [stringKeyTable('app', ['PK', 'SK'], [])];

test('each constant default gets the fixes its accesses allow, and says why where none', async () => {
  assert.deepEqual(typeErrors(path.join(LIBRARIES, FIXTURE)), [], 'the fixture as written type-checks');
  const ws = await indexWorkspace(path.join(LIBRARIES, FIXTURE));
  const ids = (entity: string) => allFixes(onSchema(ws.findings, entity), ws.ctx).map((a) => `${a.id}: ${a.title}`);
  // Only puts and queries: a random shard per item, and a hash of the sort key's attribute.
  assert.deepEqual(ids('Activity'), [
    "add-random-shard: Add a random write-shard suffix to Activity.feed's default (10 shards, 2 queries of every shard)",
    'add-calculated-shard: Add a calculated shard suffix to Activity.feed: linked to a hash of at (10 shards, 2 queries of every shard)',
  ]);
  // A get, an update and a delete by playerId: only the shard computed from playerId finds the item again.
  assert.deepEqual(ids('Score'), [
    'add-calculated-shard: Add a calculated shard suffix to Score.board: linked to a hash of playerId (10 shards, 1 query of every shard)',
  ]);
  // One item read by its key, and no other key attribute to compute a shard from.
  assert.deepEqual(ids('Settings'), [
    'shard-fix-blocked: No shard fix: random shard: the GetItem at scores.ts:32 finds one item by its key, which a random shard would lose; calculated shard: no other key attribute of Settings is given by every access to compute a shard from',
  ]);
  // A page's cursor read from the query's result: the query of every shard returns no LastEvaluatedKey.
  assert.deepEqual(ids('Audit'), [
    'shard-fix-blocked: No shard fix: the query at audit.ts:11 reads LastEvaluatedKey from its result, which the query of every shard does not return',
  ]);
  // The fix is the whole key's: the update and delete of a score offer the same one.
  const update = ws.findings.find((f) => f.access.operation === 'UpdateItem' && f.access.library?.entity === 'Score')!;
  assert.deepEqual(
    allFixes(update, ws.ctx).map((a) => a.changes),
    allFixes(onSchema(ws.findings, 'Score'), ws.ctx).map((a) => a.changes),
  );
  // Reads of the key carry no write fix: the cache where one entry serves every call, else why not.
  // A key by the player's id has no finding at all.
  const reads = ws.findings.filter((f) => f.access.operation === 'Query' || f.access.operation === 'GetItem');
  assert.deepEqual(
    reads.map((f) => [
      `${f.access.operation} ${f.access.library?.entity}`,
      ...allFixes(f, ws.ctx).map((a) => `${a.id}: ${a.changes.length}`),
    ]),
    [
      ['Query Activity', 'cache-fix-blocked: 0'],
      ['Query Activity', 'cache-fix-blocked: 0'],
      ['Query Audit', 'cache-read: 2'],
      ['GetItem Score', 'cache-fix-blocked: 0'],
      ['Query Score', 'cache-read: 2'],
      ['GetItem Settings', 'cache-read: 2'],
    ],
  );
  assert.ok(ws.index.results().some((r) => r.accesses.some((a) => a.library?.entity === 'Player')));
  assert.ok(!ws.findings.some((f) => f.access.library?.entity === 'Player'));
});

test('the random default: type-checks, spreads the puts over shards and every query reads them all, in order', async () => {
  const { dir } = await fixed('Activity', 'add-random-shard');
  assert.deepEqual(typeErrors(dir), []);
  const again = await indexWorkspace(dir);
  const left = again.findings.filter((f) => f.access.library?.entity === 'Activity').map((f) => f.rule);
  assert.deepEqual(left, [], 'no finding on the sharded key, no SL006 on its readers');
  // ...because it reads the put's random shard and the queries' loop over all 10.
  assert.deepEqual(await shardsRead(dir, 'Activity'), ['PutItem random 10', 'Query loop 10', 'Query loop 10']);

  await withDynalite(APP_TABLE, { APP_TABLE: 'app' }, async (db) => {
    const app = await import(pathToFileURL(path.join(dir, 'activity.ts')).href);
    for (let i = 0; i < 40; i++) await app.recordActivity(`user-${i}`, 'liked');
    const stored = (await db.stored('app')).map((item) => item.PK as string);
    assert.equal(stored.length, 40);
    for (const pk of stored) assert.match(pk, /^ACTIVITY#home#\d$/);
    assert.ok(new Set(stored).size > 1, `one shard only: ${[...new Set(stored)]}`);
    const all = await app.activitySince('');
    assert.equal(all.length, 40, 'every item of every shard');
    const ats = all.map((a: { at: string }) => a.at);
    assert.deepEqual(ats, [...ats].sort().reverse(), 'newest first, as the single query was');
    const latest = await app.latestActivity(5);
    assert.deepEqual(
      latest.map((a: { at: string }) => a.at),
      ats.slice(0, 5),
      'the top 5 of all shards',
    );
  });
});

test('the linked shard: type-checks, stores the hash of playerId, and get, update and delete find the put item', async () => {
  const { dir } = await fixed('Score', 'add-calculated-shard');
  assert.deepEqual(typeErrors(dir), []);
  const again = await indexWorkspace(dir);
  assert.deepEqual(
    again.findings.filter((f) => f.access.library?.entity === 'Score').map((f) => f.rule),
    [],
    'no finding on the sharded key, no SL006 on its reader',
  );
  // ...because it reads the linked attribute in `.and(...)`: the hash shard at every call, the loop in the reader.
  assert.deepEqual(await shardsRead(dir, 'Score'), [
    'PutItem hash 10',
    'GetItem hash 10',
    'UpdateItem hash 10',
    'DeleteItem hash 10',
    'Query loop 10',
  ]);

  await withDynalite(APP_TABLE, { APP_TABLE: 'app' }, async (db) => {
    const app = await import(pathToFileURL(path.join(dir, 'scores.ts')).href);
    const players = Array.from({ length: 30 }, (_, i) => `player-${i}`);
    for (const [i, p] of players.entries()) await app.submitScore(p, i);
    const stored = await db.stored('app');
    assert.equal(stored.length, 30);
    for (const item of stored)
      assert.equal(item.PK, `BOARD#global#${fnvShard(item.SK as string, 10)}`, 'the template rendered for its player');
    assert.ok(new Set(stored.map((i) => i.PK)).size > 1);
    assert.equal((await app.allScores()).length, 30);

    assert.equal(await app.scoreOf('player-7'), 7);
    await app.setScore('player-7', 700);
    assert.equal(await app.scoreOf('player-7'), 700);
    await app.removePlayer('player-7');
    assert.equal(await app.scoreOf('player-7'), undefined);
    const after = await db.stored('app');
    assert.equal(after.length, 29, 'the update changed the put item and the delete removed it: no stray item');
  });
});

test('a schema two entities are built from, on two tables, is not sharded for one of them', async () => {
  // The replayed alerts are only put, so alone they would get a random default; but the
  // schema is also the live alerts', whose get and query name the bare key.
  const ws = await indexWorkspace(copy('dynamodb-toolbox-shared-schema'));
  const schema = ws.findings.filter((f) => f.access.library?.schema && path.basename(f.file) === 'entities.ts');
  assert.equal(schema.length, 2);
  const titles = schema.map((f) => {
    const actions = allFixes(f, ws.ctx);
    assert.deepEqual(
      actions.map((a) => [a.id, a.changes.length]),
      [['shard-fix-blocked', 0]],
    );
    return actions[0].title;
  });
  assert.deepEqual(titles.sort(), [
    'No shard fix: the schema is shared with Alert (table live), whose calls a shard in it would change too',
    'No shard fix: the schema is shared with ReplayedAlert (table live-replay), whose calls a shard in it would change too',
  ]);
});
