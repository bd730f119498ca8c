/**
 * The shard fixes of a dynamodb-toolbox v0 entity whose key attribute's `default` is one
 * constant, on fixtures written in v0's documented style
 * (test/fixtures/libraries/dynamodb-toolbox-v0-fixes, importing 'dynamodb-toolbox' as v0
 * apps do). v0 is installed as `dynamodb-toolbox-v0` beside v2: the type-check maps the
 * specifier to it with `paths`, and a fixed copy runs with a node_modules/dynamodb-toolbox
 * link to it, against dynalite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding } from '../../server/src/engine';
import { allFixes } from '../../server/src/features/fixes';
import type { FixAction } from '../../server/src/features/fixes/fix-model';
import { applyAction, compileErrors, fixtureCopier, indexWorkspace } from '../fixes/helpers-write';
import { ROOT, stringKeyTable, withDynalite } from './helpers';
import { fnvShard, shardsRead } from './helpers-shards';

const LIBRARIES = path.join(ROOT, 'test', 'fixtures', 'libraries');
const FIXTURE = 'dynamodb-toolbox-v0-fixes';
const V0 = path.join(ROOT, 'node_modules', 'dynamodb-toolbox-v0');
const copy = fixtureCopier(LIBRARIES);

/** The fixture's TypeScript errors against v0's own typings (the specifier mapped to the alias). */
const v0TypeErrors = (dir: string) =>
  compileErrors(dir, { baseUrl: ROOT, paths: { 'dynamodb-toolbox': [path.relative(ROOT, V0)] } });

const onSchema = (findings: Finding[], entity: string) =>
  findings.find((f) => f.access.library?.entity === entity && f.access.library.schema)!;

/** A copy of the fixture whose 'dynamodb-toolbox' is v0, before any fix. */
function v0Copy(): string {
  const dir = copy(FIXTURE);
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(V0, path.join(dir, 'node_modules', 'dynamodb-toolbox'), 'dir');
  return dir;
}

async function fixed(entity: string, id: string, shardCount?: number): Promise<{ dir: string; action: FixAction }> {
  const dir = v0Copy();
  const ws = await indexWorkspace(dir);
  const action = allFixes(onSchema(ws.findings, entity), ws.ctx, { shardCount }).find((a) => a.id === id);
  assert.ok(action, `no ${id} on ${entity}`);
  applyAction(ws.ctx, action);
  return { dir, action };
}

const SITE_TABLE = [stringKeyTable('site', ['pk', 'sk'], [])];
const ENV = { SITE_TABLE: 'site' };

test('v0: each constant default gets the fixes its accesses allow, and says why where none', async () => {
  assert.deepEqual(v0TypeErrors(path.join(LIBRARIES, FIXTURE)), [], 'the fixture as written type-checks against v0');
  const ws = await indexWorkspace(path.join(LIBRARIES, FIXTURE));
  const ids = (entity: string) => allFixes(onSchema(ws.findings, entity), ws.ctx).map((a) => `${a.id}: ${a.title}`);
  assert.deepEqual(ids('Announcement'), [
    "add-random-shard: Add a random write-shard suffix to Announcement.pk's default (10 shards, 2 queries of every shard)",
    'add-calculated-shard: Add a calculated shard suffix to Announcement.pk: its default computed from a hash of postedAt (10 shards, 2 queries of every shard)',
  ]);
  // A get, an update and a delete by playerId: only the shard computed from playerId finds the item again.
  assert.deepEqual(ids('Score'), [
    'add-calculated-shard: Add a calculated shard suffix to Score.board: its default computed from a hash of playerId (10 shards, 1 query of every shard)',
  ]);
  assert.deepEqual(ids('Settings'), [
    'shard-fix-blocked: No shard fix: random shard: the GetItem at scores.ts:30 finds one item by its key, which a random shard would lose; calculated shard: no other key attribute of Settings is given by every access to compute a shard from',
  ]);
  // A page API hands the query's LastEvaluatedKey on: the query of every shard returns none.
  assert.deepEqual(ids('Notice'), [
    'shard-fix-blocked: No shard fix: the query at notices.ts:10 reads LastEvaluatedKey from its result, which the query of every shard does not return',
  ]);
  const update = ws.findings.find((f) => f.access.operation === 'UpdateItem' && f.access.library?.entity === 'Score')!;
  assert.deepEqual(
    allFixes(update, ws.ctx).map((a) => a.changes),
    allFixes(onSchema(ws.findings, 'Score'), ws.ctx).map((a) => a.changes),
    'the fix is the whole key: the update offers the schema finding one',
  );
  assert.ok(!ws.findings.some((f) => f.access.library?.entity === 'Member'));
});

test('v0 random default: type-checks, spreads the puts over shards and every query reads them all, in order', async () => {
  const before = v0Copy();
  await withDynalite(SITE_TABLE, ENV, async (db) => {
    const app = await import(pathToFileURL(path.join(before, 'announcements.ts')).href);
    for (let i = 0; i < 5; i++) await app.postAnnouncement(`t${i}`, 'b');
    const pks = (await db.stored('site')).map((item) => item.pk);
    assert.deepEqual(new Set(pks), new Set(['ANNOUNCEMENTS']), 'before the fix: one partition');
    assert.equal((await app.announcementsSince('')).length, 5);
  });

  // 3 shards, so that each holds more than the 1 MB one query page returns.
  const { dir } = await fixed('Announcement', 'add-random-shard', 3);
  assert.deepEqual(v0TypeErrors(dir), []);
  const again = await indexWorkspace(dir);
  assert.deepEqual(
    again.findings.filter((f) => f.access.library?.entity === 'Announcement').map((f) => f.rule),
    [],
    'no finding on the sharded key, no SL006 on its readers',
  );
  assert.deepEqual(await shardsRead(dir, 'Announcement'), ['PutItem random 3', 'Query loop 3', 'Query loop 3']);

  await withDynalite(SITE_TABLE, ENV, async (db) => {
    const app = await import(pathToFileURL(path.join(dir, 'announcements.ts')).href);
    // Long bodies make dynalite page each shard's query (1 MB pages), so the reader must follow next().
    const body = 'x'.repeat(40_000);
    for (let i = 0; i < 60; i++) await app.postAnnouncement(`title ${i}`, body);
    const stored = (await db.stored('site')).map((item) => item.pk as string);
    assert.equal(stored.length, 60);
    for (const pk of stored) assert.match(pk, /^ANNOUNCEMENTS#\d$/);
    assert.ok(new Set(stored).size > 1, `one shard only: ${[...new Set(stored)]}`);
    const all = await app.announcementsSince('');
    assert.equal(all.length, 60, 'every item of every shard, every page');
    const at = all.map((a: { postedAt: string }) => a.postedAt);
    assert.deepEqual(at, [...at].sort().reverse(), 'newest first, as the single query was');
    const latest = await app.latestAnnouncements(5);
    assert.deepEqual(
      latest.map((a: { postedAt: string }) => a.postedAt),
      at.slice(0, 5),
      'the top 5 of all shards',
    );
  });
});

test('v0 calculated default: stores the hash of playerId, and get, update and delete find the put item', async () => {
  const { dir } = await fixed('Score', 'add-calculated-shard');
  assert.deepEqual(v0TypeErrors(dir), []);
  const again = await indexWorkspace(dir);
  assert.deepEqual(
    again.findings.filter((f) => f.access.library?.entity === 'Score').map((f) => f.rule),
    [],
    'no finding on the sharded key, no SL006 on its reader',
  );
  assert.deepEqual(await shardsRead(dir, 'Score'), [
    'PutItem hash 10',
    'GetItem hash 10',
    'UpdateItem hash 10',
    'DeleteItem hash 10',
    'Query loop 10',
  ]);

  await withDynalite(SITE_TABLE, ENV, async (db) => {
    const app = await import(pathToFileURL(path.join(dir, 'scores.ts')).href);
    const players = Array.from({ length: 30 }, (_, i) => `player-${i}`);
    for (const [i, p] of players.entries()) await app.submitScore(p, i);
    const stored = await db.stored('site');
    assert.equal(stored.length, 30);
    for (const item of stored)
      assert.equal(
        item.pk,
        `LEADERBOARD#weekly#${fnvShard(item.sk as string, 10)}`,
        'the default rendered for its player',
      );
    assert.ok(new Set(stored.map((i) => i.pk)).size > 1);
    const board = await app.leaderboard();
    assert.deepEqual(
      board.map((s: { playerId: string }) => s.playerId),
      [...players].sort(),
      'every player, in sort-key order as the one query returned them',
    );

    assert.equal(await app.scoreOf('player-7'), 7);
    await app.addPoints('player-7', 700);
    assert.equal(await app.scoreOf('player-7'), 707);
    await app.removePlayer('player-7');
    assert.equal(await app.scoreOf('player-7'), undefined);
    const after = await db.stored('site');
    assert.equal(after.length, 29, 'the update changed the put item and the delete removed it: no stray item');
  });
});
