// The CLI loads its bundle through V8's code cache (bin/compile-cache.js): the cache may make
// a run faster, never different, and a cache folder others could write to is not used.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js');

function build(): void {
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

/** `shardlens check examples --format json` with its temporary folder at `tmp`. */
function check(tmp: string, extra: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
  delete env.SHARDLENS_NO_COMPILE_CACHE;
  Object.assign(env, extra);
  const r = spawnSync(process.execPath, [BIN, 'check', 'examples', '--format', 'json'], {
    cwd: ROOT,
    encoding: 'utf8',
    env,
  });
  assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${r.stderr}`);
  return r;
}

const cacheFiles = (tmp: string) => {
  const dir = fs.readdirSync(tmp).find((d) => d.startsWith('shardlens-compile-'));
  return dir ? fs.readdirSync(path.join(tmp, dir)).map((f) => path.join(tmp, dir, f)) : [];
};

test('a run writes the code cache once, and a run from it reports the same', () => {
  build();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cc-'));
  const plain = check(tmp, { SHARDLENS_NO_COMPILE_CACHE: '1' });
  assert.deepEqual(cacheFiles(tmp), [], 'turned off: nothing written');
  const first = check(tmp);
  const files = cacheFiles(tmp);
  assert.equal(files.length, 1);
  assert.ok(fs.statSync(files[0]).size > 100_000, 'the compiled code of the bundle');
  assert.equal((fs.statSync(path.dirname(files[0])).mode & 0o777).toString(8), '700');
  const written = fs.statSync(files[0]).mtimeMs;
  const second = check(tmp);
  assert.equal(fs.statSync(files[0]).mtimeMs, written, 'a cache V8 took is not written again');
  assert.equal(first.stdout, plain.stdout);
  assert.equal(second.stdout, plain.stdout);
  assert.equal(second.stderr, plain.stderr, 'no warning of its own');
});

test('the analysis thread keeps a code cache of its own, written once, damaged replaced', () => {
  build();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cc-'));
  // From one file on, the check analyses in a second thread (its default threshold is 400).
  const threaded = { SHARDLENS_PARALLEL_FROM: '1' };
  const plain = check(tmp, { ...threaded, SHARDLENS_NO_COMPILE_CACHE: '1' });
  assert.deepEqual(cacheFiles(tmp), []);
  const first = check(tmp, threaded);
  const thread = cacheFiles(tmp).filter((f) => path.basename(f).startsWith('analysis.cli.js-'));
  assert.equal(thread.length, 1, `the thread's cache beside the main thread's: ${cacheFiles(tmp).join(', ')}`);
  assert.equal(cacheFiles(tmp).length, 2);
  // Written after the thread analysed the files: the parser's and evaluators' functions are in it.
  assert.ok(fs.statSync(thread[0]).size > 100_000);
  const written = fs.statSync(thread[0]).mtimeMs;
  const second = check(tmp, threaded);
  assert.equal(fs.statSync(thread[0]).mtimeMs, written, 'a cache V8 took is not written again');
  fs.writeFileSync(thread[0], Buffer.from('not V8 code'));
  const damaged = check(tmp, threaded);
  assert.ok(fs.statSync(thread[0]).size > 100_000, 'written again from this run');
  for (const r of [first, second, damaged]) {
    assert.equal(r.stdout, plain.stdout);
    assert.equal(r.stderr, plain.stderr);
  }
});

test('a damaged code cache is replaced, and the run reports the same', () => {
  build();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cc-'));
  const plain = check(tmp, { SHARDLENS_NO_COMPILE_CACHE: '1' });
  check(tmp);
  const [file] = cacheFiles(tmp);
  fs.writeFileSync(file, Buffer.from('not V8 code, but the right name'));
  const damaged = check(tmp);
  assert.equal(damaged.stdout, plain.stdout);
  assert.equal(damaged.stderr, plain.stderr);
  assert.ok(fs.statSync(file).size > 100_000, 'written again from this run');
});

test('a cache folder other users may write to is not used', () => {
  build();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cc-'));
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  const shared = path.join(tmp, `shardlens-compile-${uid}`);
  fs.mkdirSync(shared);
  fs.chmodSync(shared, 0o777);
  const plain = check(tmp, { SHARDLENS_NO_COMPILE_CACHE: '1' });
  const r = check(tmp);
  assert.equal(r.stdout, plain.stdout);
  assert.deepEqual(fs.readdirSync(shared), [], 'nothing read from or written to it');
});

test('a bundle holding import() is loaded without the code cache, and its import() works', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cc-'));
  const bundle = path.join(tmp, 'bundle.js');
  fs.writeFileSync(bundle, "exports.load = () => import('node:path').then((m) => typeof m.join);\n");
  const { requireCached } = createRequire(__filename)(path.join(ROOT, 'bin', 'compile-cache.js')) as {
    requireCached: (file: string) => { load: () => Promise<string> };
  };
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    // Compiled through the code cache, the import() would reject: no dynamic-import hook.
    assert.equal(await requireCached(bundle).load(), 'function');
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});

test("the caches of a bundle's older builds are removed but the newest three", () => {
  build();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cc-'));
  check(tmp);
  const [current] = cacheFiles(tmp);
  const dir = path.dirname(current);
  // Four older builds' caches, and another bundle's, which stays.
  const old = [1, 2, 3, 4].map((i) => path.join(dir, `cli.js-${'0'.repeat(39)}${i}.bin`));
  old.forEach((f, i) => {
    fs.writeFileSync(f, 'old');
    fs.utimesSync(f, new Date(2020, 0, 1 + i), new Date(2020, 0, 1 + i));
  });
  const other = path.join(dir, `lab.js-${'0'.repeat(40)}.bin`);
  fs.writeFileSync(other, 'other');
  fs.rmSync(current);
  check(tmp);
  assert.deepEqual(cacheFiles(tmp).sort(), [current, old[3], old[2], other].sort());
});
