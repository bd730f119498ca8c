import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { RACY_MS, settledBefore, type Stamp } from '../../server/src/engine/workspace/cache/stamp';
import { cachedResults as cached, plainResults as plain, tempDirs, writeScoresWorkspace } from './cache-runs';

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
  assert.equal(warm.json, cold.json);

  // Touched with the same content: read and hashed once, restored, its new stamp recorded.
  const later = new Date(Date.now() - 1800_000);
  fs.utimesSync(prefix, later, later);
  await sleep(RACY_MS + 100);
  const touched = await cached(ws, dir);
  assert.deepEqual([touched.hits, touched.reads], [touched.files, 1]);
  assert.equal(touched.json, cold.json);
  const again = await cached(ws, dir);
  assert.deepEqual([again.hits, again.reads], [again.files, 0]);

  // Rewritten with the same size and its modification time set back: the change time differs.
  const stat = fs.statSync(prefix);
  fs.writeFileSync(prefix, `export const PREFIX = 'BOARX';\n`);
  fs.utimesSync(prefix, stat.atime, stat.mtime);
  assert.equal(fs.statSync(prefix).size, stat.size);
  assert.equal(fs.statSync(prefix).mtimeMs, stat.mtimeMs);
  const rewritten = await cached(ws, dir);
  assert.equal(rewritten.json, await plain(ws));
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
  assert.equal(changed.json, await plain(ws));
  assert.match(changed.json, /BOARY#global/);
});
