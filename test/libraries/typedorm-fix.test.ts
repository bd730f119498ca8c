/**
 * TypeDORM's shard fixes (docs/fixes.md, "Fixes in a library's style") on a game service
 * written in TypeDORM's documented style (test/fixtures/libraries/typedorm-fix): a global
 * leaderboard created, read, updated and deleted by player (a calculated shard: a default
 * computed from playerId, which every findOne/exists/update/delete passes), a series index
 * only written and listed (a random shard default), an app's one config item (no fix, and
 * why) and a player's own partition (nothing to fix). Each fix is applied as an editor
 * would, compiled with decorator metadata against the pinned typings, re-analysed, and run
 * with the real library against dynalite beside the program before the fix, each run in a
 * process of its own (TypeDORM keeps its entities and connection process-wide).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { allFixes } from '../../server/src/features/fixes';
import { applyAction, compileErrors, fixtureCopier, indexWorkspace, type Workspace } from '../fixes/helpers-write';
import { matchesTemplate, stringKeyTable, withDynalite } from './helpers';
import { fnv } from './helpers-shards';

const copy = fixtureCopier(path.join(__dirname, '..', 'fixtures', 'libraries'));
const hot = (ws: Workspace, file: string, line: number) =>
  ws.findings.find((f) => f.rule === 'SL001' && path.basename(f.file) === file && f.span.startLine + 1 === line)!;
const placed = (ws: Workspace) => ws.findings.map((f) => `${f.rule} ${path.basename(f.file)}:${f.span.startLine + 1}`);

/** The fixture (fixed or not) compiled as TypeDORM's documentation says, into `dir/out`. */
function build(dir: string): string {
  const out = path.join(dir, 'out');
  const options = { experimentalDecorators: true, emitDecoratorMetadata: true, useDefineForClassFields: false };
  assert.deepEqual(compileErrors(dir, { ...options, outDir: out }), []);
  return out;
}

/**
 * What each run does, in a Node process of its own on the compiled modules: the
 * leaderboard's calls by player, or the series' writes and reads. It prints what the calls
 * returned as JSON.
 */
const DRIVER = `
const scores = require('./scores.js');
const readings = require('./readings.js');
const players = Array.from({ length: 30 }, (_, i) => 'player-' + i);
const runs = {
  async scores() {
    for (const [i, p] of players.entries()) await scores.submitScore(p, i);
    for (const p of players.slice(0, 10)) await scores.addPoints(p, 100);
    await scores.removeScore('player-29');
    const got = [];
    for (const p of players) got.push([(await scores.scoreOf(p))?.points ?? null, await scores.hasScore(p)]);
    const board = (await scores.leaderboard()).map((s) => [s.playerId, s.points]);
    return { got, board };
  },
  async readings() {
    for (let i = 0; i < 25; i++) await readings.record('device-' + (i % 4), '2026-01-01T00:00:' + String(i).padStart(2, '0'), i);
    const at = async (n) => (await readings.latest(n)).map((r) => r.at);
    const one = await readings.readingOf('device-1', '2026-01-01T00:00:05');
    return { ten: await at(10), all: await at(100), one: one && one.celsius };
  },
};
runs[process.argv[2]]().then((r) => console.log(JSON.stringify(r)), (e) => { console.error(e); process.exit(1); });
`;

type Items = Array<Record<string, string>>;

async function run(out: string, scenario: 'scores' | 'readings'): Promise<{ result: unknown; items: Items }> {
  fs.writeFileSync(path.join(out, 'drive.js'), DRIVER);
  const table = stringKeyTable('game-table', ['PK', 'SK'], [['GSI1', 'GSI1PK', 'GSI1SK']]);
  let got: { result: unknown; items: Items } | undefined;
  await withDynalite([table], {}, async ({ stored }) => {
    const { stdout } = await promisify(execFile)('node', [path.join(out, 'drive.js'), scenario], {
      env: process.env,
      cwd: out,
    });
    got = { result: JSON.parse(stdout), items: (await stored('game-table')) as Items };
  });
  return got!;
}

test('each hot key is offered the fixes its accesses allow, or told why none', async () => {
  const ws = await indexWorkspace(copy('typedorm-fix'));
  const ids = (file: string, line: number) => allFixes(hot(ws, file, line), ws.ctx).map((a) => a.id);
  // Point reads, updates and deletes by player: only the shard computed from playerId keeps finding them.
  assert.deepEqual(ids('scores.ts', 8), ['typedorm-calculated-shard']);
  assert.deepEqual(ids('scores.ts', 19), ['typedorm-calculated-shard']);
  // The series index is only written and listed.
  assert.deepEqual(ids('readings.ts', 11).sort(), ['typedorm-calculated-shard', 'typedorm-random-shard']);
  // Every setting under SETTINGS (the schema's constant, reported where the connection lists it), read by name.
  assert.deepEqual(ids('db.ts', 16), ['typedorm-calculated-shard']);
  const [config] = allFixes(hot(ws, 'config.ts', 8), ws.ctx);
  assert.equal(config.id, 'shard-fix-blocked');
  assert.equal(config.changes.length, 0);
  assert.match(
    config.title,
    /random shard: the findOne at config\.ts:14 finds one item by its key, which a random shard would lose; calculated shard: the sort key of Config holds no attribute/,
  );
  // A find is a read: it gets no write fix of its own (the write's fix replaces it); a player's own key is not hot.
  assert.deepEqual(
    allFixes(hot(ws, 'scores.ts', 31), ws.ctx).map((a) => [a.id, a.changes.length]),
    [['cache-fix-blocked', 0]],
  );
  assert.ok(!placed(ws).some((p) => p.includes('player')), placed(ws).join('\n'));
});

test('calculated shard: the default and every point call give the same shard, and the reader finds every score', async () => {
  const dir = copy('typedorm-fix');
  const ws = await indexWorkspace(dir);
  const action = allFixes(hot(ws, 'scores.ts', 8), ws.ctx).find((a) => a.id === 'typedorm-calculated-shard')!;
  assert.ok(action.asks.some((q) => q.kind === 'hash-attribute' && q.options.includes('playerId')));
  applyAction(ws.ctx, action);
  const entity = fs.readFileSync(path.join(dir, 'score.entity.ts'), 'utf8');
  assert.match(entity, /partitionKey: 'BOARD#\{\{board\}\}#\{\{shard\}\}'/);
  assert.match(
    entity,
    /@Attribute\(\{ default: \(score: Score\) => String\(shardlensHash\(String\(score\.playerId\)\) % SCORE_SHARDS\) \}\)/,
  );

  const after = await indexWorkspace(dir);
  assert.deepEqual(
    placed(after).filter((p) => p.includes('scores.ts') || /SL00[68]/.test(p)),
    [],
  );
  const score = after.index
    .results()
    .flatMap((r) => r.accesses)
    .filter((a) => a.library?.entity === 'score');
  assert.ok(score.length >= 6, `${score.length}`);
  for (const a of score)
    assert.ok(
      a.partitionKey?.template.parts.some((p) => 'hole' in p && p.hole.kind === 'shard'),
      `${a.operation} at line ${a.span.startLine + 1}`,
    );

  const before = await run(build(copy('typedorm-fix')), 'scores');
  const fixed = await run(build(dir), 'scores');
  assert.deepEqual(
    fixed.result,
    before.result,
    'every get, exists, update and delete finds the item its create stored',
  );
  const { got, board } = fixed.result as { got: Array<[number | null, boolean]>; board: unknown[] };
  assert.deepEqual(got[0], [100, true]);
  assert.deepEqual(got[29], [null, false], 'the delete removed the item');
  assert.equal(board.length, 29, 'the reader lists every score, in sort key order as the single find did');
  assert.equal(fixed.items.length, 29, 'no update made an item of its own');
  const put = score.find((a) => a.operation === 'PutItem')!.partitionKey!.template;
  for (const item of fixed.items) {
    assert.ok(matchesTemplate(item.PK, put), item.PK);
    assert.equal(item.PK, `BOARD#global#${fnv(item.playerId) % 10}`);
  }
  assert.ok(new Set(fixed.items.map((i) => i.PK)).size > 1);
});

test('random shard: a default draws the series shard per reading, and the reader returns the newest in order', async () => {
  const dir = copy('typedorm-fix');
  const ws = await indexWorkspace(dir);
  applyAction(
    ws.ctx,
    allFixes(hot(ws, 'readings.ts', 11), ws.ctx).find((a) => a.id === 'typedorm-random-shard')!,
  );
  const after = await indexWorkspace(dir);
  assert.deepEqual(
    placed(after).filter((p) => /SL001 readings\.ts|SL00[68]/.test(p)),
    [],
  );

  const before = await run(build(copy('typedorm-fix')), 'readings');
  const fixed = await run(build(dir), 'readings');
  assert.deepEqual(fixed.result, before.result);
  const { ten, all } = fixed.result as { ten: string[]; all: string[] };
  assert.equal(ten[0], '2026-01-01T00:00:24');
  assert.equal(all.length, 25);
  const shards = new Set<string>();
  for (const item of fixed.items) {
    const m = /^SERIES#temperature#(\d+)$/.exec(item.GSI1PK);
    assert.ok(m && Number(m[1]) < 10, item.GSI1PK);
    shards.add(m[1]);
    assert.equal(item.PK, `DEVICE#${item.deviceId}`, 'the table key is unchanged');
  }
  assert.ok(shards.size > 1, `${shards.size} shard`);
});
