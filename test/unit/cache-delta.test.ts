import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { deltaFile } from '../../server/src/engine/workspace/cache/delta';
import type { Entry } from '../../server/src/engine/workspace/cache/entry';
import {
  cacheFile,
  readCache,
  writeCache,
  writeChanges,
  type RunFacts,
} from '../../server/src/engine/workspace/cache/store';
import { cachedResults, plainResults, tempDirs, writeScoresWorkspace } from './cache-runs';
import { assertSameText } from './same-text';

/**
 * A run that changed a few entries writes them as a delta beside the whole cache, which
 * stays as it was; read back, the two are one cache. A delta over another whole cache, a
 * damaged one, or one that would grow large is never mixed in.
 */

const tmp = tempDirs('delta');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FACTS: RunFacts = { definitions: '[]', wrappers: [], aliases: [] };
const LATER: RunFacts = { definitions: '[{"table":"orders"}]', wrappers: ['src/repo.ts'], aliases: [] };

function entry(hash: string, accesses = 0): Entry {
  const analysis = {
    file: 'x',
    language: 'typescript',
    accesses: Array.from({ length: accesses }, (_, i) => ({ line: i, table: 'orders', pk: `ORDER#${i}` })),
    findings: [],
    skipped: null,
    syntaxErrors: false,
    imports: [],
  } as unknown as Entry['analysis'];
  return { hash, deps: [], analysis };
}

/** A whole cache of `n` files written and read back: the entries as a run would hand them on, kept as read. */
function wholeCache(dir: string, n = 40) {
  const file = cacheFile(dir, 'check');
  const names = Array.from({ length: n }, (_, i) => `src/module-${String(i).padStart(2, '0')}.ts`);
  writeCache(
    file,
    'k',
    FACTS,
    names.map((name, i): [string, Entry] => [name, entry(`h${i}`, 3)]),
    assert.fail,
  );
  const read = readCache(file, 'k', assert.fail)!;
  const asRead = names.map((name): [string, Entry | Buffer] => [name, read.raw.get(name)!]);
  return { file, names, read, asRead };
}

test('a few changed entries go to a delta; the whole cache is left as it was, and both read back as one cache', () => {
  const { file, names, read, asRead } = wholeCache(tmp('store'));
  const whole = fs.readFileSync(file);
  const changed = asRead.map(([name, e]): [string, Entry | Buffer] => [name, name === names[5] ? entry('h5-new') : e]);
  writeChanges(file, 'k', LATER, [...changed, ['src/added.ts', entry('added')]], read, assert.fail);
  assert.deepEqual(fs.readFileSync(file), whole, 'the whole cache is not written again');
  assert.ok(fs.existsSync(deltaFile(file)));

  const both = readCache(file, 'k', assert.fail)!;
  assert.equal(both.entries.size, names.length + 1);
  assert.equal(both.entries.get(names[5])!.hash, 'h5-new');
  assert.equal(both.entries.get('src/added.ts')!.hash, 'added');
  assert.equal(both.entries.get(names[6])!.hash, 'h6');
  assert.deepEqual(both.facts, LATER, "the delta's facts are the run's");
  assert.deepEqual([...both.fromDelta].sort(), [names[5], 'src/added.ts'].sort());
  // Each entry's bytes as read are its own: the whole cache's old bytes of a changed entry are gone.
  assert.deepEqual(JSON.parse(`{${both.raw.get(names[5])!.toString()}}`)[names[5]].hash, 'h5-new');
  assert.deepEqual(JSON.parse(`{${both.raw.get(names[6])!.toString()}}`)[names[6]].hash, 'h6');

  // The next run changes another: its delta holds every entry that differs from the whole cache.
  const next = names.map((name): [string, Entry | Buffer] => [
    name,
    name === names[9] ? entry('h9-new') : both.raw.get(name)!,
  ]);
  writeChanges(file, 'k', LATER, [...next, ['src/added.ts', both.raw.get('src/added.ts')!]], both, assert.fail);
  assert.deepEqual(fs.readFileSync(file), whole);
  const third = readCache(file, 'k', assert.fail)!;
  assert.deepEqual(
    [names[5], names[9], 'src/added.ts', names[6]].map((n) => third.entries.get(n)!.hash),
    ['h5-new', 'h9-new', 'added', 'h6'],
  );
  assert.equal(third.fromDelta.size, 3);
});

test('a whole write removes the delta; a delta over another whole cache is passed over without a word', () => {
  const { file, names, read, asRead } = wholeCache(tmp('stale'));
  const changed = asRead.map(([name, e]): [string, Entry | Buffer] => [name, name === names[1] ? entry('h1-new') : e]);
  writeChanges(file, 'k', FACTS, changed, read, assert.fail);
  const delta = fs.readFileSync(deltaFile(file));

  // Another check writes the whole cache again (its own changes): the delta goes with the old one.
  writeCache(
    file,
    'k',
    FACTS,
    names.map((name, i): [string, Entry] => [name, entry(i === 2 ? 'h2-other' : `h${i}`, 3)]),
    assert.fail,
  );
  assert.equal(fs.existsSync(deltaFile(file)), false);
  // A delta renamed into place late, over the whole cache that was there before: not this one's.
  fs.writeFileSync(deltaFile(file), delta);
  const said: string[] = [];
  const now = readCache(file, 'k', (l) => said.push(l))!;
  assert.deepEqual(said, []);
  assert.equal(now.entries.get(names[1])!.hash, 'h1');
  assert.equal(now.entries.get(names[2])!.hash, 'h2-other');
  assert.equal(now.fromDelta.size, 0);
  // Read with another key (other options), the delta is not used either.
  assert.equal(readCache(file, 'other', assert.fail), null);
});

test('a damaged or foreign delta is reported in one line and the whole cache is used alone', () => {
  const { file, names, read, asRead } = wholeCache(tmp('damaged'));
  const changed = asRead.map(([name, e]): [string, Entry | Buffer] => [name, name === names[3] ? entry('h3-new') : e]);
  writeChanges(file, 'k', FACTS, changed, read, assert.fail);
  const delta = deltaFile(file);
  const bytes = fs.readFileSync(delta);
  for (const [what, damaged] of [
    ['cut short', bytes.subarray(0, bytes.length - 20)],
    ['not a cache', Buffer.from('{"hello": "world"}\n{}')],
    ['a whole cache where the delta goes', fs.readFileSync(file)],
  ] as const) {
    fs.writeFileSync(delta, damaged);
    const said: string[] = [];
    const alone = readCache(file, 'k', (l) => said.push(l))!;
    assert.equal(said.length, 1, what);
    assert.match(said[0], /check\.delta\.json is .*; discarded, analysing the files it held again/, what);
    assert.equal(alone.entries.get(names[3])!.hash, 'h3', what);
    assert.equal(alone.entries.size, names.length, what);
  }
});

test('many changes, or a file gone from the run, write the whole cache again and no delta', () => {
  const { file, names, read, asRead } = wholeCache(tmp('whole'));
  // A quarter of the entries changed: past the delta's share of the whole cache.
  const many = asRead.map(([name, e], i): [string, Entry | Buffer] => [name, i % 4 === 0 ? entry(`m${i}`, 3) : e]);
  writeChanges(file, 'k', FACTS, many, read, assert.fail);
  assert.equal(fs.existsSync(deltaFile(file)), false);
  const after = readCache(file, 'k', assert.fail)!;
  assert.equal(after.entries.get(names[0])!.hash, 'm0');

  // One file left the run: only a whole write drops its entry.
  const fewer = names.slice(1).map((name): [string, Entry | Buffer] => [name, after.raw.get(name)!]);
  writeChanges(file, 'k', FACTS, fewer, after, assert.fail);
  assert.equal(fs.existsSync(deltaFile(file)), false);
  const gone = readCache(file, 'k', assert.fail)!;
  assert.equal(gone.entries.has(names[0]), false);
  assert.equal(gone.entries.size, names.length - 1);
});

/** The scores workspace and `n` repository modules of their own, all written an hour ago. */
function writeServiceWorkspace(root: string, n: number): void {
  writeScoresWorkspace(root, { checkedOut: true });
  const old = new Date(Date.now() - 3600_000);
  for (let i = 0; i < n; i++) {
    const file = path.join(root, 'src', `repo-${String(i).padStart(2, '0')}.ts`);
    fs.writeFileSync(
      file,
      [
        `import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';`,
        `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';`,
        ``,
        `const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));`,
        ``,
        `export async function find${i}(id: string) {`,
        `  const out = await doc.send(new GetCommand({ TableName: 'entities', Key: { PK: \`ENTITY${i}#\${id}\`, SK: 'META' } }));`,
        `  return out.Item;`,
        `}`,
        ``,
      ].join('\n'),
    );
    fs.utimesSync(file, old, old);
  }
}

test('after a one-file edit among many, only a delta is written, and every run equals a check without a cache', async () => {
  await initParsers();
  const ws = tmp('ws');
  writeServiceWorkspace(ws, 40);
  const dir = tmp('cache');
  const file = cacheFile(dir, 'check');
  await sleep(1100);
  const cold = await cachedResults(ws, dir);
  assertSameText(cold.json, await plainResults(ws));
  const whole = fs.readFileSync(file);

  // The constant scores.ts builds its key from: prefix.ts and its importer change, 41 files do not.
  const prefix = path.join(ws, 'src', 'prefix.ts');
  fs.writeFileSync(prefix, `export const PREFIX = 'LADDER';\n`);
  const edited = await cachedResults(ws, dir);
  assert.deepEqual(edited.notices, []);
  assertSameText(edited.json, await plainResults(ws));
  assert.match(edited.json, /LADDER#global/);
  assert.equal(edited.hits, edited.files - 2);
  assert.deepEqual(fs.readFileSync(file), whole, 'the whole cache is left as it was');
  const stored = readCache(file, keyOf(file), assert.fail)!;
  assert.deepEqual([...stored.fromDelta].map((f) => path.basename(f)).sort(), ['prefix.ts', 'scores.ts']);

  // Read back with its delta: everything restored, and the same results.
  const warm = await cachedResults(ws, dir);
  assert.deepEqual([warm.hits, warm.notices], [warm.files, []]);
  assertSameText(warm.json, edited.json);

  // Put back: the delta still holds the two (they differ from the whole cache's entries).
  fs.writeFileSync(prefix, `export const PREFIX = 'BOARD';\n`);
  const back = await cachedResults(ws, dir);
  assertSameText(back.json, cold.json);
  assert.deepEqual(fs.readFileSync(file), whole);
});

/** The key a cache file was written with (its header line's). */
function keyOf(file: string): string {
  return JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0]).key;
}
