import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { restampsWorthWriting } from '../../server/src/engine/workspace/cache';
import { RACY_MS, settledBefore, type Stamp } from '../../server/src/engine/workspace/cache/stamp';
import { cachedResults as cached, plainResults as plain, tempDirs, writeScoresWorkspace } from './cache-runs';
import { assertSameText } from './same-text';

/**
 * A file whose stat (size, mtime, ctime, inode) is the one stored with its entry, and
 * was old enough then, is restored without being read; any other is read and hashed.
 */

const tmp = tempDirs('stamps');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a stamp is trusted only when the file was modified over RACY_MS before the reference time', () => {
  const at = 1_700_000_000_000;
  const stamp = (mtime: number, ctime = mtime): Stamp => [10, mtime, ctime, 1];
  assert.equal(settledBefore(stamp(at - RACY_MS - 1), at), true);
  assert.equal(settledBefore(stamp(at - RACY_MS), at), false);
  assert.equal(settledBefore(stamp(at - 500), at), false);
  // The change time counts too: a file whose times were just set back is racy.
  assert.equal(settledBefore(stamp(at - 3600_000, at - 10), at), false);
});

test('unchanged files are not read; touched, racy and rewritten ones are, and the results stay a cold run’s', async () => {
  const ws = tmp('ws');
  writeScoresWorkspace(ws, { checkedOut: true });
  const dir = tmp('dir');
  const prefix = path.join(ws, 'src', 'prefix.ts');
  // Past the racy window of the change times utimes just set.
  await sleep(RACY_MS + 100);
  const cold = await cached(ws, dir);
  assert.equal(cold.hits, 0);

  // Nothing changed: every file restored, none read.
  const warm = await cached(ws, dir);
  assert.deepEqual([warm.hits, warm.reads], [warm.files, 0]);
  assertSameText(warm.json, cold.json);

  // Touched with the same content: read and hashed once, restored, its new stamp recorded.
  const later = new Date(Date.now() - 1800_000);
  fs.utimesSync(prefix, later, later);
  await sleep(RACY_MS + 100);
  const touched = await cached(ws, dir);
  assert.deepEqual([touched.hits, touched.reads], [touched.files, 1]);
  assertSameText(touched.json, cold.json);
  const again = await cached(ws, dir);
  assert.deepEqual([again.hits, again.reads], [again.files, 0]);

  // Rewritten with the same size and its modification time set back: the change time differs.
  const stat = fs.statSync(prefix);
  fs.writeFileSync(prefix, `export const PREFIX = 'BOARX';\n`);
  fs.utimesSync(prefix, stat.atime, stat.mtime);
  assert.equal(fs.statSync(prefix).size, stat.size);
  assert.equal(fs.statSync(prefix).mtimeMs, stat.mtimeMs);
  const rewritten = await cached(ws, dir);
  assertSameText(rewritten.json, await plain(ws));
  assert.notEqual(rewritten.json, cold.json);
  assert.match(rewritten.json, /BOARX#global/);
  // prefix.ts read, and scores.ts, which read it, analysed again.
  assert.equal(rewritten.hits, rewritten.files - 2);

  // Just modified (within the racy window of the run that recorded it): no stamp was stored,
  // so it is read on every run until it is older, though nothing changed since.
  const racy = await cached(ws, dir);
  assert.deepEqual([racy.hits, racy.reads], [racy.files, 1]);
  // Changed again within the window, same size, times set back: seen.
  const before = fs.statSync(prefix);
  fs.writeFileSync(prefix, `export const PREFIX = 'BOARY';\n`);
  fs.utimesSync(prefix, before.atime, before.mtime);
  const changed = await cached(ws, dir);
  assertSameText(changed.json, await plain(ws));
  assert.match(changed.json, /BOARY#global/);
});

test('a few moved stamps alone do not rewrite the cache; a hundredth of the files does', () => {
  assert.equal(restampsWorthWriting(0, 3), false);
  assert.equal(restampsWorthWriting(1, 3), true);
  assert.equal(restampsWorthWriting(1, 5000), false);
  assert.equal(restampsWorthWriting(49, 5000), false);
  assert.equal(restampsWorthWriting(50, 5000), true);
});

/** The scores workspace and `n` modules nothing DynamoDB touches, all written an hour ago. */
function writeManyFiles(root: string, n: number): string[] {
  writeScoresWorkspace(root, { checkedOut: true });
  const old = new Date(Date.now() - 3600_000);
  const files = [];
  for (let i = 0; i < n; i++) {
    const file = path.join(root, 'src', `part-${String(i).padStart(3, '0')}.ts`);
    fs.writeFileSync(file, `export const part${i} = ${i};\n`);
    fs.utimesSync(file, old, old);
    files.push(file);
  }
  return files;
}

test('a touched file among many is hashed on each run instead of the cache being rewritten, and its edits are still seen', async () => {
  const ws = tmp('many');
  const parts = writeManyFiles(ws, 200);
  const dir = tmp('many-cache');
  const cacheFile = path.join(dir, 'check.json');
  // The whole cache and the delta written over it (delta.ts): together, what the cache holds.
  const delta = path.join(dir, 'check.delta.json');
  const cacheBytes = () =>
    Buffer.concat([cacheFile, delta].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)));
  await sleep(RACY_MS + 100);
  const cold = await cached(ws, dir, { stampsFirst: true });
  assert.equal(cold.changed, true, 'no cache yet');
  const warm = await cached(ws, dir, { stampsFirst: true });
  assert.deepEqual([warm.hits, warm.reads, warm.changed], [warm.files, 0, false]);
  const written = cacheBytes();
  const writtenAt = fs.statSync(cacheFile).mtimeMs;

  const later = new Date(Date.now() - 1800_000);
  fs.utimesSync(parts[7], later, later);
  await sleep(RACY_MS + 100);
  for (let run = 0; run < 2; run++) {
    const touched = await cached(ws, dir, { stampsFirst: true });
    assert.equal(touched.changed, true, 'its stamp is newer than the cache');
    assert.deepEqual([touched.hits, touched.reads], [touched.files, 1]);
    assertSameText(touched.json, cold.json);
    assert.equal(fs.statSync(cacheFile).mtimeMs, writtenAt, `run ${run}: not written again`);
    assert.deepEqual(cacheBytes(), written);
  }

  // Its text changed, size and times kept: seen (the change time moved), and the cache written.
  const stat = fs.statSync(parts[7]);
  fs.writeFileSync(parts[7], `export const part7 = 8;\n`);
  fs.utimesSync(parts[7], stat.atime, stat.mtime);
  assert.equal(fs.statSync(parts[7]).size, stat.size);
  const edited = await cached(ws, dir, { stampsFirst: true });
  assert.equal(edited.hits, edited.files - 1);
  assertSameText(edited.json, await plain(ws));
  assert.notDeepEqual(cacheBytes(), written);

  // Three touched (over a hundredth of 203 files): their stamps are worth the write.
  for (const f of parts.slice(20, 23)) fs.utimesSync(f, later, later);
  await sleep(RACY_MS + 100);
  const many = await cached(ws, dir, { stampsFirst: true });
  assert.equal(many.reads, 4);
  const after = await cached(ws, dir, { stampsFirst: true });
  assert.deepEqual([after.reads, after.json], [0, await plain(ws)]);
});
