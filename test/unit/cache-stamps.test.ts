import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { AnalysisCache } from '../../server/src/engine/workspace/cache';
import { indexWorkspace } from '../../server/src/engine/workspace/cache/run';
import { RACY_MS, settledBefore, type Stamp } from '../../server/src/engine/workspace/cache/stamp';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';

/**
 * A file whose stat (size, mtime, ctime, inode) is the one stored with its entry, and
 * was old enough then, is restored without being read; any other is read and hashed.
 */

const MAX = 2048 * 1024;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = (name: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `shardlens-stamps-${name}-`));
  dirs.push(d);
  return d;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function plain(root: string): Promise<string> {
  await initParsers();
  const index = new WorkspaceIndex({ root, maxBytes: MAX });
  index.analyzeAll(collectFiles([root]).files);
  return JSON.stringify(index.results());
}

/** The CLI's way with a cache in `dir`: the results, the files restored and the files read to be hashed. */
async function cached(root: string, dir: string) {
  const files = collectFiles([root]).files;
  const index = new WorkspaceIndex({ root, maxBytes: MAX });
  const cache = new AnalysisCache({ dir, name: 'check', key: { version: 'v1', root, options: {} }, notice: () => {} });
  await indexWorkspace(index, { files, infrastructure: [] }, { maxBytes: MAX, cache });
  return { json: JSON.stringify(index.results()), hits: cache.hits, reads: cache.reads, files: files.length };
}

/** A writer whose key is built from another module's constant. */
function writeWorkspace(dir: string): void {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src', 'prefix.ts'), `export const PREFIX = 'BOARD';\n`);
  fs.writeFileSync(
    path.join(dir, 'src', 'scores.ts'),
    [
      `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';`,
      `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';`,
      `import { PREFIX } from './prefix';`,
      ``,
      `const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));`,
      ``,
      `export async function saveScore(playerId: string, score: number): Promise<void> {`,
      `  await db.send(new PutCommand({ TableName: 'leaderboard', Item: { PK: \`\${PREFIX}#global\`, SK: playerId, score } }));`,
      `}`,
      ``,
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'src', 'util.ts'), `export const add = (a: number, b: number) => a + b;\n`);
  // Written an hour ago, as a checkout is: their stamps can be trusted once the change time is old too.
  const old = new Date(Date.now() - 3600_000);
  for (const f of ['prefix.ts', 'scores.ts', 'util.ts']) fs.utimesSync(path.join(dir, 'src', f), old, old);
}

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
  writeWorkspace(ws);
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
