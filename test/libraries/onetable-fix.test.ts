/**
 * OneTable's shard fixes (docs/fixes.md, "Fixes in a library's style") on a game service
 * written in OneTable's documented style (test/fixtures/libraries/onetable-fix): a global
 * leaderboard read and written by player (a calculated shard through the table's `value`
 * callback), a public feed only created and listed (a random shard drawn by `generate`), and
 * site settings addressed by a constant key alone (no fix, and why). Each fix is applied as an
 * editor would, type-checked against the pinned typings, re-analysed, and run with the real
 * library against dynalite next to the program before the fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { allFixes } from '../../server/src/features/fixes';
import { applyAction, fixtureCopier, indexWorkspace, typeErrors, type Workspace } from '../fixes/helpers-write';
import { matchesTemplate, stringKeyTable, withDynalite } from './helpers';
import { fnv } from './helpers-shards';

const copy = fixtureCopier(path.join(__dirname, '..', 'fixtures', 'libraries'));
const hot = (ws: Workspace, file: string, line: number) =>
  ws.findings.find((f) => f.rule === 'SL001' && path.basename(f.file) === file && f.span.startLine + 1 === line)!;

async function fixed(id: string, file: string, line: number) {
  const dir = copy('onetable-fix');
  const ws = await indexWorkspace(dir);
  const action = allFixes(hot(ws, file, line), ws.ctx).find((a) => a.id === id);
  assert.ok(action, `${id} not offered at ${file}:${line}`);
  applyAction(ws.ctx, action);
  return { dir, action, after: await indexWorkspace(dir) };
}

/** What the fixture's handlers export (scores.ts and feed.ts). */
interface Game {
  submitScore(playerId: string, points: number): Promise<unknown>;
  addPoints(playerId: string, points: number): Promise<unknown>;
  scoreOf(playerId: string): Promise<{ points: number } | undefined>;
  leaderboard(): Promise<Array<{ playerId: string; points: number }>>;
  post(text: string): Promise<unknown>;
  latest(count: number): Promise<Array<Record<string, unknown>>>;
}
type Stored = () => Promise<Array<Record<string, string>>>;

const run = <T>(dir: string, fn: (m: Game, stored: Stored) => Promise<T>) =>
  new Promise<T>((resolve, reject) =>
    withDynalite([stringKeyTable('game', ['pk', 'sk'], [])], { GAME_TABLE: 'game' }, async ({ stored }) => {
      const load = async (f: string) => import(pathToFileURL(path.join(dir, f)).href);
      const m = { ...(await load('scores.ts')), ...(await load('feed.ts')) };
      resolve(await fn(m as Game, () => stored('game') as ReturnType<Stored>));
    }).catch(reject),
  );

test('each hot key is offered the fixes its accesses allow, or told why none', async () => {
  const ws = await indexWorkspace(copy('onetable-fix'));
  const ids = (file: string, line: number) => allFixes(hot(ws, file, line), ws.ctx).map((a) => a.id);
  // Point reads and updates by player: only the shard computed from playerId keeps finding them.
  assert.deepEqual(ids('scores.ts', 5), ['onetable-calculated-shard']);
  assert.deepEqual(ids('feed.ts', 4).sort(), ['onetable-calculated-shard', 'onetable-random-shard']);
  const [settings] = allFixes(hot(ws, 'settings.ts', 4), ws.ctx);
  assert.equal(settings.id, 'shard-fix-blocked');
  assert.equal(settings.changes.length, 0);
  assert.match(settings.title, /random shard: the UpdateItem at settings\.ts:4 finds one item by its key/);
  assert.match(settings.title, /no attribute that identifies the item .* is given at every access/);
  // A find is a read: it gets no write fix of its own (the write's fix replaces it).
  assert.deepEqual(
    allFixes(hot(ws, 'scores.ts', 17), ws.ctx).map((a) => [a.id, a.changes.length]),
    [['cache-fix-blocked', 0]],
  );
});

test('calculated shard: the value callback fills the key at every call, and the reader finds every score', async () => {
  const { dir, action, after } = await fixed('onetable-calculated-shard', 'scores.ts', 5);
  assert.deepEqual(typeErrors(dir), []);
  assert.ok(action.asks.some((q) => q.kind === 'hash-attribute' && q.options.includes('playerId')));
  const left = after.findings.filter((f) => /scores\.ts$/.test(f.file) || f.rule === 'SL006');
  assert.deepEqual(
    left.map((f) => `${f.rule} ${path.basename(f.file)}:${f.span.startLine + 1}`),
    [],
  );
  const writes = after.index
    .results()
    .flatMap((r) => r.accesses)
    .filter((a) => a.library?.entity === 'Score');
  assert.ok(
    writes.length >= 3 &&
      writes.every((a) => a.partitionKey?.template.parts.some((p) => 'hole' in p && p.hole.kind === 'shard')),
  );

  const players = Array.from({ length: 30 }, (_, i) => `player-${i}`);
  const play = async (m: Game, stored: Stored) => {
    for (const [i, p] of players.entries()) await m.submitScore(p, i);
    for (const p of players.slice(0, 10)) await m.addPoints(p, 100);
    const got = await Promise.all(players.map((p) => m.scoreOf(p)));
    return { got: got.map((s) => s?.points), board: await m.leaderboard(), items: await stored() };
  };
  const before = await run(path.join(dir, '..', path.basename(copy('onetable-fix'))), play);
  const afterRun = await run(dir, play);
  assert.deepEqual(afterRun.got, before.got, 'every get finds the item its create stored, with its update');
  assert.deepEqual(afterRun.board, before.board, 'the reader lists every score in sort-key order');
  assert.equal(afterRun.board.length, 30);
  assert.equal(afterRun.items.length, 30, 'no update made an item of its own');
  const template = writes.find((a) => a.operation === 'PutItem')!.partitionKey!.template;
  for (const item of afterRun.items) {
    assert.ok(matchesTemplate(item.pk, template), item.pk);
    assert.equal(item.pk, `board#global#${fnv(item.playerId) % 10}`);
  }
  assert.ok(new Set(afterRun.items.map((i) => i.pk)).size > 1);
});

test('random shard: generate draws a shard per event, and the reader returns the newest events in order', async () => {
  const { dir, after } = await fixed('onetable-random-shard', 'feed.ts', 4);
  assert.deepEqual(typeErrors(dir), []);
  const left = after.findings.filter((f) => /feed\.ts$/.test(f.file) || f.rule === 'SL006');
  assert.deepEqual(
    left.map((f) => `${f.rule} ${path.basename(f.file)}:${f.span.startLine + 1}`),
    [],
  );

  const play = async (m: Game, stored: Stored) => {
    for (let i = 0; i < 25; i++) await m.post(`event ${i}`);
    const texts = async (n: number) => (await m.latest(n)).map((e) => e.text);
    return {
      ten: await texts(10),
      all: await texts(100),
      items: await stored(),
      shape: Object.keys((await m.latest(1))[0]).sort(),
    };
  };
  const before = await run(copy('onetable-fix'), play);
  const afterRun = await run(dir, play);
  assert.deepEqual(afterRun.ten, before.ten);
  assert.deepEqual(afterRun.ten[0], 'event 24');
  assert.deepEqual(afterRun.all, before.all);
  assert.equal(afterRun.all.length, 25);
  assert.deepEqual(afterRun.shape, before.shape, 'the hidden shard field is not in the items read back');
  const shards = new Set<string>();
  for (const item of afterRun.items.filter((i) => i.pk.startsWith('feed#'))) {
    const m = /^feed#public#(\d+)$/.exec(item.pk);
    assert.ok(m && Number(m[1]) < 10, item.pk);
    shards.add(m[1]);
  }
  assert.ok(shards.size > 1, `${shards.size} shard`);
});
