/**
 * PynamoDB's shard fixes, proven statically: PynamoDB cannot be installed here (no PyPI, not in
 * Debian), so no fixed program runs against a database. What is proven: the fix is offered where
 * it keeps every access finding its item (calculated from the range key when items are read one by
 * one, a random default when they are only queried) and refused with a reason elsewhere; the fixed
 * modules compile (`python3 -m py_compile`); the engine, reading the fixed code, sees every write
 * of the key with the shard part and every query reading all the shards, with no finding left on
 * the key and no SL006-SL008; and the generated calls use only the parameters PynamoDB documents.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { collectFiles, initParsers, WorkspaceIndex, type Finding } from '../../server/src/engine';
import { applyChanges } from '../../server/src/features/fixes/apply';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { allFixes } from '../../server/src/features/fixes/index';
import type { FixAction } from '../../server/src/features/fixes/fix-model';
import { fixtureCopier } from '../fixes/helpers-write';
import { placesIn, renderText, ROOT } from './helpers';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'libraries', 'pynamodb');
const copy = fixtureCopier(FIXTURES);

/** `Model.query`'s and `Index.query`'s keyword parameters, as PynamoDB documents them. */
const QUERY_PARAMETERS = new Set([
  'hash_key',
  'range_key_condition',
  'filter_condition',
  'consistent_read',
  'index_name',
  'scan_index_forward',
  'limit',
  'last_evaluated_key',
  'attributes_to_get',
  'page_size',
  'rate_limit',
]);

async function workspace(dir: string) {
  await initParsers();
  const index = new WorkspaceIndex({ root: dir });
  index.analyzeAll(collectFiles([dir]).files);
  const results = index.results();
  return {
    ctx: fixContextOf(index, {}),
    findings: results.flatMap((r) => r.findings),
    accesses: results.flatMap((r) => r.accesses),
  };
}

/** The fixes offered on the finding at `place` (`handlers.py:8`), as `[id] title`. */
function offered(findings: Finding[], ctx: ReturnType<typeof fixContextOf>, dir: string, place: string) {
  const { line } = placesIn(dir);
  const f = findings.find((x) => line(x) === place && x.rule === 'SL001' && x.access.kind === 'write');
  assert.ok(f, `a hot write at ${place}: ${findings.map((x) => `${x.rule} ${line(x)}`).join(', ')}`);
  return { finding: f, actions: allFixes(f, ctx) };
}

/** Applies a fix to the files on disk; the changed files. */
function apply(fix: FixAction, ctx: ReturnType<typeof fixContextOf>): string[] {
  const byFile = new Map<string, FixAction['changes']>();
  for (const c of fix.changes) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  for (const [file, cs] of byFile) fs.writeFileSync(file, applyChanges(ctx.textOf(file)!, cs));
  return [...byFile.keys()];
}

function compiles(files: string[]) {
  for (const f of files) execFileSync('python3', ['-m', 'py_compile', f], { stdio: 'pipe' });
}

/** Every keyword a `.query(` call of the text passes is one PynamoDB documents. */
function documentedQueries(text: string) {
  const calls = [...text.matchAll(/\.query\(([^]*?)\n\s*\)/g)].map((m) => m[1]);
  assert.ok(calls.length > 0, 'the reader calls query');
  for (const args of calls)
    for (const [, name] of args.matchAll(/^\s*(\w+)=/gm))
      assert.ok(QUERY_PARAMETERS.has(name), `${name} is not a documented query parameter`);
}

/**
 * A fresh copy of `fixture` with the fix `id` offered at `place` applied, its changed modules
 * compiled; the fix, the folder, and the text of a module of it.
 */
async function fixed(fixture: string, place: string, id: string) {
  const dir = copy(fixture);
  const { ctx, findings } = await workspace(dir);
  const fix = offered(findings, ctx, dir, place).actions.find((a) => a.id === id);
  assert.ok(fix, `${id} at ${place}`);
  const files = apply(fix, ctx);
  compiles(files);
  return { fix, dir, files, text: (name: string) => fs.readFileSync(path.join(dir, name), 'utf8') };
}

/** After the fix: the key's accesses all carry the shard part, the queries read every shard, no finding is left. */
async function assertSharded(dir: string, table: string, value: string, shards: number) {
  const { findings, accesses } = await workspace(dir);
  const { line } = placesIn(dir);
  const ofKey = accesses.filter(
    (a) =>
      JSON.stringify(a.table).includes(table) &&
      a.partitionKey &&
      renderText(a.partitionKey.template).startsWith(`${value}#`),
  );
  assert.ok(
    ofKey.some((a) => a.kind === 'write'),
    `writes of ${value}`,
  );
  assert.ok(
    ofKey.some((a) => a.operation === 'Query'),
    `queries of ${value}`,
  );
  for (const a of ofKey) {
    const shard = a.partitionKey!.template.parts.find((p) => 'hole' in p && p.hole.kind === 'shard');
    assert.ok(shard && 'hole' in shard, `${line(a)} ${a.operation} has a shard part`);
    assert.deepEqual(
      shard.hole.shards?.values,
      [...Array(shards).keys()],
      `${line(a)} ${a.operation} covers every shard`,
    );
  }
  const left = findings.filter((f) => ofKey.includes(f.access) || /^SL00[678]$/.test(f.rule));
  assert.deepEqual(
    left.map((f) => `${f.rule} ${line(f)}`),
    [],
  );
  return { findings, accesses };
}

test('a key read item by item gets the calculated shard only; a queried default the random one; a lone item none', async () => {
  const dir = copy('scores');
  const { ctx, findings } = await workspace(dir);
  const titles = (place: string) => offered(findings, ctx, dir, place).actions.map((a) => `[${a.id}] ${a.title}`);
  assert.deepEqual(titles('handlers.py:8'), [
    '[add-hash-shard] Shard Score.board by hash(player) mod 10 in score_board_key() (10 shards, 1 query of every shard)',
  ]);
  // The schema finding offers it; the save that leaves the key to the default is that finding's, not one of its own.
  assert.deepEqual(titles('models.py:23'), [
    '[add-random-shard] Give FeedEntry.feed a random write-shard default (10 shards, 1 query of every shard)',
  ]);
  const { line } = placesIn(dir);
  assert.deepEqual(
    findings.filter((f) => f.rule === 'SL001' && line(f) === 'handlers.py:26'),
    [],
  );
  assert.deepEqual(titles('handlers.py:34'), [
    '[shard-fix-blocked] No shard fix: random shard: the GetItem at handlers.py:38 finds one item by its key, ' +
      'which a random shard would lose; calculated shard: Notice has no range key to identify an item at every access',
  ]);
});

test('the calculated shard: a key builder beside the model, called at every access; the query reads every shard', async () => {
  const { dir, text } = await fixed('scores', 'handlers.py:8', 'add-hash-shard');
  const [models, handlers] = [text('models.py'), text('handlers.py')];
  assert.match(models, /^SCORE_BOARD_SHARDS = 10$/m);
  assert.match(models, /^def shardlens_hash\(value: str\) -> int:/m);
  assert.match(models, /return f"\{board\}#\{shardlens_hash\(str\(player\)\) % SCORE_BOARD_SHARDS\}"/);
  assert.match(handlers, /^from \.models import Score, FeedEntry, Notice, score_board_key, SCORE_BOARD_SHARDS$/m);
  // The save, the get and the get before an update hash the player each gives.
  assert.equal(handlers.match(/score_board_key\("global", event\["player"\]\)/g)?.length, 3);
  assert.match(handlers, /for s in query_score_board_shards\("global", limit=100\)\]/);
  assert.match(handlers, /def query_score_board_shards\(\n {4}board: str,/, 'annotated, as the module is');
  assert.match(handlers, /from typing import List, Iterator/);
  assert.match(handlers, /key=lambda item: item\.player, reverse=scan_index_forward is False/);
  documentedQueries(handlers);
  await assertSharded(dir, 'board-scores', 'global', 10);
});

test('the random default: the schema default draws a shard per item; the query reads every shard', async () => {
  const { dir, text } = await fixed('scores', 'models.py:23', 'add-random-shard');
  const [models, handlers] = [text('models.py'), text('handlers.py')];
  assert.match(
    models,
    /feed = UnicodeAttribute\(hash_key=True, default=lambda: f"FEED#\{random\.randrange\(FEED_ENTRY_FEED_SHARDS\)\}"\)/,
  );
  assert.match(models, /^import random$/m);
  assert.match(handlers, /query_feed_entry_feed_shards\("FEED", FeedEntry\.posted_at > event\["since"\]\)/);
  assert.doesNotMatch(handlers, /FeedEntry\(feed=/, 'the saves still leave the key to the default');
  documentedQueries(handlers);
  const { findings: after } = await assertSharded(dir, 'activity', 'FEED', 10);
  assert.deepEqual(
    after.filter((f) => f.rule === 'SL005').map((f) => f.message.slice(0, 40)),
    [],
    'the timestamp sort key is no longer under one partition',
  );
});

test('an index partition a default fills: the default shards it, and the index query reads every shard', async () => {
  const { fix, dir, text } = await fixed('forum', 'models.py:49', 'add-random-shard');
  assert.equal(fix.title, 'Give Thread.status a random write-shard default (10 shards, 1 query of every shard)');
  const handlers = text('handlers.py');
  assert.match(handlers, /for t in query_thread_status_shards\("OPEN"\)\]/);
  assert.match(handlers, /Thread\.status_index\.query\(\n {16}f"\{status\}#\{shard\}",/);
  assert.match(handlers, /key=lambda item: item\.last_post_datetime/, 'merged by the index range key');
  documentedQueries(handlers);
  await assertSharded(dir, 'Thread', 'OPEN', 10);
});

test('an index key an update sets is given the random shard where it is set', async () => {
  const { files, text } = await fixed('forum', 'handlers.py:31', 'add-random-shard');
  assert.deepEqual(
    files.map((f) => path.basename(f)).sort(),
    ['handlers.py', 'models.py'],
    'both updates that close a thread',
  );
  const models = text('models.py');
  assert.match(models, /self\.update\(actions=\[Thread\.status\.set\(thread_status_key\("CLOSED"\)\)\]\)/);
  assert.match(
    models,
    /^def thread_status_key\(status\):\n.*\n {4}return f"\{status\}#\{random\.randrange\(THREAD_STATUS_SHARDS\)\}"/m,
  );
});
