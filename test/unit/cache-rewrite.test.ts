import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { cacheFile, readCache, writeCache, type RunFacts } from '../../server/src/engine/workspace/cache/store';
import type { Entry } from '../../server/src/engine/workspace/cache/entry';
import { cachedResults, tempDirs, writeScoresWorkspace } from './cache-runs';
import { assertSameText } from './same-text';

/**
 * After an edit the cache is written again, and the entries nothing changed are written
 * as the bytes they were read as: they must be exactly what serialising them gives, and
 * an entry whose analysis, stamp or dependencies moved must be serialised anew.
 */

const tmp = tempDirs('rewrite');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FACTS: RunFacts = { definitions: '[]', wrappers: [], aliases: [] };

function entry(hash: string, extra: Partial<Entry> = {}): Entry {
  const analysis = {
    file: 'x',
    language: 'typescript',
    accesses: [],
    findings: [],
    skipped: null,
    syntaxErrors: false,
    imports: [],
  } as unknown as Entry['analysis'];
  return { hash, deps: [], analysis, ...extra };
}

test('entries read back and written as read give the same file, newlines in names included', () => {
  const dir = tmp('store');
  const file = cacheFile(dir, 'check');
  const entries: Array<[string, Entry]> = [
    ['src/a.ts', entry('h1', { imports: ['./b'] })],
    ['src/odd\nname "quoted".ts', entry('h2')],
    ['src/ü/ß.py', entry('h3', { marked: true })],
  ];
  writeCache(file, 'k', FACTS, entries, assert.fail);
  const first = fs.readFileSync(file);
  const read = readCache(file, 'k', assert.fail)!;
  assert.deepEqual(
    [...read.raw.keys()],
    entries.map(([n]) => n),
  );
  writeCache(file, 'k', FACTS, [...read.raw], assert.fail);
  assert.deepEqual(fs.readFileSync(file), first);
  // One changed among bytes as read: still one valid cache holding the change.
  const mixed: Array<[string, Entry | Buffer]> = [
    ['src/a.ts', read.raw.get('src/a.ts')!],
    ['src/odd\nname "quoted".ts', entry('h2-new')],
    ['src/ü/ß.py', read.raw.get('src/ü/ß.py')!],
  ];
  writeCache(file, 'k', FACTS, mixed, assert.fail);
  const again = readCache(file, 'k', assert.fail)!;
  assert.equal(again.entries.get('src/odd\nname "quoted".ts')!.hash, 'h2-new');
  assert.deepEqual(again.entries.get('src/ü/ß.py'), entries[2][1]);
  assert.equal(again.raw.size, 3);
});

const check = async (root: string, dir: string) => (await cachedResults(root, dir)).json;

const stored = (dir: string) => readCache(cacheFile(dir, 'check'), readKey(dir), assert.fail)!;
const readKey = (dir: string) => JSON.parse(fs.readFileSync(cacheFile(dir, 'check'), 'utf8').split('\n')[0]).key;

test('a one-file edit rewrites that file and its importer, and keeps the others as read', async () => {
  await initParsers();
  const root = tmp('ws');
  const dir = tmp('cache');
  writeScoresWorkspace(root);
  // Old enough for their stamps to be stored (stamp.ts).
  await sleep(1100);
  await check(root, dir);
  await check(root, dir);
  const before = stored(dir);
  const prefix = path.join(root, 'src', 'prefix.ts');
  fs.writeFileSync(prefix, `export const PREFIX = 'LEADERS';\n`);
  await sleep(1100);
  const warm = await check(root, dir);
  const after = stored(dir);
  const key = (f: string) => path.join(root, 'src', f);
  // Untouched: the very bytes, and what they hold is still right.
  assert.deepEqual(after.raw.get(key('util.ts')), before.raw.get(key('util.ts')));
  // Edited, and the importer whose key took the constant: serialised anew.
  assert.notDeepEqual(after.raw.get(key('prefix.ts')), before.raw.get(key('prefix.ts')));
  assert.notDeepEqual(after.raw.get(key('scores.ts')), before.raw.get(key('scores.ts')));
  assert.match(JSON.stringify(after.entries.get(key('scores.ts'))!.analysis), /LEADERS#global/);
  // The cache as rewritten gives what a cold run gives.
  const cold = await check(root, tmp('cold'));
  assertSameText(warm, cold);
  assert.equal(await check(root, dir), cold);
});

test('a file touched without a change is written with its new stamp', async () => {
  await initParsers();
  const root = tmp('touch');
  const dir = tmp('cache');
  writeScoresWorkspace(root);
  await sleep(1100);
  await check(root, dir);
  await check(root, dir);
  const util = path.join(root, 'src', 'util.ts');
  const before = stored(dir).entries.get(util)!.stamp;
  fs.writeFileSync(util, fs.readFileSync(util));
  await sleep(1100);
  await check(root, dir);
  const after = stored(dir).entries.get(util)!.stamp;
  assert.ok(before && after);
  assert.notDeepEqual(after, before);
});
