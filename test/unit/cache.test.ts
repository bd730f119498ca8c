import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { engineSourceHash } from '../../scripts/engine-hash.mjs';
import { AnalysisCache } from '../../server/src/engine/workspace/cache';
import { MAX, cachedResults, plainResults as plain, tempDirs } from './cache-runs';
import { assertSameText } from './same-text';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The built CLI (`npm run build` first): the cache is a whole-process matter. */
function run(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

function runAsync(args: string[]): Promise<{ stdout: string; stderr: string; status: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ stdout, stderr, status }));
  });
}

const tmp = tempDirs('cache');
const notices = (stderr: string) => stderr.split('\n').filter((l) => /cache/.test(l));

/** The index built the CLI's way with a cache in `dir`; the files restored from it and the notices. */
const cached = (root: string, dir: string, version = 'v1') =>
  cachedResults(root, dir, { version, options: { maxBytes: MAX } });

/** A writer whose key comes from a constant of another module, built from a third one's. */
function writeWorkspace(dir: string): void {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src', 'prefix.ts'), `export const PREFIX = 'BOARD';\n`);
  fs.writeFileSync(
    path.join(dir, 'src', 'keys.ts'),
    `import { PREFIX } from './prefix';\n\nexport const BOARD_KEY = \`\${PREFIX}#global\`;\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'src', 'scores.ts'),
    [
      `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';`,
      `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';`,
      `import { BOARD_KEY } from './keys';`,
      ``,
      `const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));`,
      ``,
      `export async function saveScore(playerId: string, score: number): Promise<void> {`,
      `  await db.send(new PutCommand({ TableName: 'leaderboard', Item: { PK: BOARD_KEY, SK: \`PLAYER#\${playerId}\`, score } }));`,
      `}`,
      ``,
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'src', 'util.ts'), `export const add = (a: number, b: number) => a + b;\n`);
}

test('a warm check prints exactly what a cold one does, with and without a cache (examples and fixture workspaces)', () => {
  const dir = tmp('cli');
  for (const p of ['examples', 'test/fixtures/cross', 'test/fixtures/wrapper-callers']) {
    for (const format of ['json', 'text']) {
      const plainRun = run(['check', p, '--format', format]);
      const cold = run(['check', p, '--format', format, '--cache-location', dir]);
      const warm = run(['check', p, '--format', format, '--cache-location', dir]);
      assert.ok(plainRun.stdout.length > 100, p);
      assertSameText(cold.stdout, plainRun.stdout, `${p} ${format}: cold`);
      assertSameText(warm.stdout, plainRun.stdout, `${p} ${format}: warm`);
      assertSameText(warm.stderr, plainRun.stderr, `${p} ${format}: warm stderr`);
      assert.equal(warm.status, plainRun.status);
    }
  }
  assert.deepEqual(fs.readdirSync(dir), ['check.json']);
});

test('a warm index restores every unchanged file and equals the index built without a cache', async () => {
  const ws = tmp('ws');
  writeWorkspace(ws);
  const dir = tmp('dir');
  const cold = await cached(ws, dir);
  const warm = await cached(ws, dir);
  assert.equal(cold.hits, 0);
  assert.equal(warm.hits, warm.files);
  assert.equal(warm.json, cold.json);
  assert.equal(warm.json, await plain(ws));
  assert.match(warm.json, /BOARD#global/);
});

test('a changed constant re-judges the files that read it, through a module between them', async () => {
  const ws = tmp('edit');
  writeWorkspace(ws);
  const dir = tmp('dir');
  await cached(ws, dir);
  // prefix.ts is read by keys.ts, which scores.ts reads: scores.ts's finding must change.
  fs.writeFileSync(path.join(ws, 'src', 'prefix.ts'), `export const PREFIX = 'LADDER';\n`);
  const warm = await cached(ws, dir);
  const findings = (JSON.parse(warm.json) as Array<{ file: string; findings: Array<{ message: string }> }>).find((r) =>
    r.file.endsWith('scores.ts'),
  )!.findings;
  assert.equal(findings.length, 1);
  assert.match(findings[0].message, /"LADDER#global"/);
  assert.equal(warm.json, await plain(ws));
  // util.ts reads nothing of them: it alone is restored.
  assert.equal(warm.hits, 1);
  const again = await cached(ws, dir);
  assert.equal(again.hits, again.files);
  assert.equal(again.json, warm.json);
});

test('a cache written by another engine version is not used, and not reported', async () => {
  const ws = tmp('version');
  writeWorkspace(ws);
  const dir = tmp('dir');
  await cached(ws, dir, '1.0.0');
  const other = await cached(ws, dir, '1.0.1');
  assert.equal(other.hits, 0);
  assert.deepEqual(other.notices, []);
  assert.equal(other.json, await plain(ws));
  assert.equal((await cached(ws, dir, '1.0.1')).hits, other.files);
});

test('a truncated or foreign cache is discarded with one line on stderr, and the check goes on cold', () => {
  const dir = tmp('truncated');
  const plainRun = run(['check', 'examples', '--format', 'json']);
  run(['check', 'examples', '--format', 'json', '--cache-location', dir]);
  const file = path.join(dir, 'check.json');
  const whole = fs.readFileSync(file);
  for (const damaged of [whole.subarray(0, Math.floor(whole.length / 2)), Buffer.from('{"not":"ours"}\n{}')]) {
    fs.writeFileSync(file, damaged);
    const r = run(['check', 'examples', '--format', 'json', '--cache-location', dir]);
    assert.equal(r.stdout, plainRun.stdout);
    assert.equal(notices(r.stderr).length, 1, r.stderr);
    assert.match(
      notices(r.stderr)[0],
      /^shardlens: the cache .*check\.json is (damaged|not a ShardLens cache).*discarded/,
    );
    // Written again whole: the next run reads it without a word.
    assert.deepEqual(notices(run(['check', 'examples', '--cache-location', dir]).stderr), []);
  }
});

test('an entry whose recorded imports are not of a known language is not trusted: the cache is discarded', () => {
  // Checksummed as a valid cache is, so only the entries' shape can tell.
  const dir = tmp('resolutions');
  const plainRun = run(['check', 'examples', '--format', 'json']);
  run(['check', 'examples', '--format', 'json', '--cache-location', dir]);
  const file = path.join(dir, 'check.json');
  const text = fs.readFileSync(file, 'utf8');
  const nl = text.indexOf('\n');
  const header = JSON.parse(text.slice(0, nl)) as { checksum: string };
  const entries = JSON.parse(text.slice(nl + 1)) as Record<string, { resolutions?: unknown[][] }>;
  const withImports = Object.values(entries).filter((e) => e.resolutions?.length);
  assert.ok(withImports.length > 0, 'the examples record the imports their analyses followed');
  withImports[0].resolutions![0][0] = 'cobol';
  const body = Buffer.from(JSON.stringify(entries));
  header.checksum = createHash('sha1').update(body).digest('base64');
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]));
  const r = run(['check', 'examples', '--format', 'json', '--cache-location', dir]);
  assert.equal(r.stdout, plainRun.stdout);
  assert.equal(notices(r.stderr).length, 1, r.stderr);
  assert.match(notices(r.stderr)[0], /is not a ShardLens cache \(entry .*\); discarded/);
});

test('checks writing one cache at the same time leave a whole cache and no temporary file', async () => {
  const dir = tmp('concurrent');
  const args = ['check', 'examples', 'test/fixtures/cross', '--format', 'json', '--cache-location', dir];
  const expected = run(args.slice(0, 5)).stdout;
  const runs = await Promise.all([1, 2, 3, 4].map(() => runAsync(args)));
  for (const r of runs) {
    assert.equal(r.stdout, expected);
    assert.deepEqual(notices(r.stderr), []);
  }
  // A check that read another's cache may have written its changes as a delta over it (delta.ts).
  assert.deepEqual(
    fs.readdirSync(dir).filter((f) => f !== 'check.delta.json'),
    ['check.json'],
  );
  // The cache is whole, made with the CLI's key (the bundle's engine hash in it), and holds every file.
  (globalThis as { SHARDLENS_ENGINE_HASH?: string }).SHARDLENS_ENGINE_HASH = engineSourceHash(ROOT);
  const said: string[] = [];
  const key = { version: VERSION, root: ROOT, options: { maxBytes: MAX } };
  const cache = new AnalysisCache({ dir, name: 'check', key, notice: (l) => said.push(l) });
  delete (globalThis as { SHARDLENS_ENGINE_HASH?: string }).SHARDLENS_ENGINE_HASH;
  assert.ok(cache.loaded);
  assert.deepEqual(said, []);
  assert.equal(run(args).stdout, expected);
});

test('the two-thread path with a cache: warm, after an edit and after putting it back, it prints what a check without a cache prints', async () => {
  // SHARDLENS_PARALLEL_FROM=1: the path large workspaces take (files stat'ed before the cache
  // is read, the analysis thread started then when one changed since).
  const ws = tmp('parallel');
  writeWorkspace(ws);
  const old = new Date(Date.now() - 3600_000);
  for (const f of fs.readdirSync(path.join(ws, 'src'))) fs.utimesSync(path.join(ws, 'src', f), old, old);
  const dir = tmp('parallel-cache');
  const env = { ...process.env, NO_COLOR: '1', SHARDLENS_PARALLEL_FROM: '1' };
  const check = (cache: boolean) => {
    const args = [BIN, 'check', ws, '--format', 'json', ...(cache ? ['--cache-location', dir] : [])];
    const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env });
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    assert.deepEqual(notices(r.stderr), []);
    return r.stdout;
  };
  const plainBefore = check(false);
  assert.match(plainBefore, /BOARD#global/);
  assert.equal(check(true), plainBefore, 'cold');
  assert.equal(check(true), plainBefore, 'warm');
  const prefix = path.join(ws, 'src', 'prefix.ts');
  const original = fs.readFileSync(prefix, 'utf8');
  fs.writeFileSync(prefix, `export const PREFIX = 'LADDER';\n`);
  const plainAfter = check(false);
  assert.match(plainAfter, /LADDER#global/);
  assert.equal(check(true), plainAfter, 'after the edit');
  assert.equal(check(true), plainAfter, 'warm after the edit');
  fs.writeFileSync(prefix, original);
  assert.equal(check(true), plainBefore, 'put back');
});
