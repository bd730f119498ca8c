/**
 * `SHARDLENS_TIMING=1`: the time of each phase of a check on stderr, after the report; the
 * report itself is the same byte for byte. The built CLI (`npm run build` first).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { PhaseTimes, phaseTimesFromEnv } from '../../server/src/cli/timing';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js');
const EXAMPLES = path.join(ROOT, 'examples');

function check(args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [BIN, 'check', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, SHARDLENS_TIMING: '', ...env },
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** The phases the table names, in order, with their times. */
function phases(stderr: string): Array<[string, number]> {
  const at = stderr.indexOf('shardlens: time by phase (SHARDLENS_TIMING)\n');
  assert.ok(at >= 0, `no timing table on stderr:\n${stderr}`);
  return stderr
    .slice(at)
    .split('\n')
    .slice(1)
    .map((l) => /^ {2}(.+?) +(\d+\.\d) ms$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1], Number(m[2])]);
}

test('a check with SHARDLENS_TIMING=1 lists its phases on stderr and reports the same', () => {
  const plain = check([EXAMPLES, '--format', 'json'], {});
  const timed = check([EXAMPLES, '--format', 'json'], { SHARDLENS_TIMING: '1' });
  assert.equal(timed.status, plain.status);
  assert.equal(timed.stdout, plain.stdout);
  assert.doesNotMatch(plain.stderr, /time by phase/);
  const rows = phases(timed.stderr);
  assert.deepEqual(
    rows.map(([p]) => p),
    [
      'start-up (Node, the bundle, the options)',
      'walk',
      'infrastructure read',
      'files read and analysed',
      'passes over the workspace',
      'findings (rules, keys across files)',
      'report',
      'total',
    ],
  );
  const total = rows.pop()![1];
  const sum = rows.reduce((s, [, ms]) => s + ms, 0);
  // Each row is rounded to a tenth: the total is their sum within the rounding.
  assert.ok(Math.abs(sum - total) < 0.1 * rows.length, `total ${total} against the rows' sum ${sum}`);
  assert.ok(rows.every(([, ms]) => ms >= 0));
});

test('with a cache, the cache read and write are phases of their own; a warm run writes nothing', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-timing-'));
  try {
    const args = [EXAMPLES, '--format', 'json', '--cache-location', dir];
    const cold = phases(check(args, { SHARDLENS_TIMING: '1' }).stderr).map(([p]) => p);
    assert.ok(cold.includes('cache read (and files stat-ed)'));
    assert.ok(cold.includes('files restored, read or analysed'));
    assert.ok(cold.includes('cache written'));
    const [file] = fs.readdirSync(dir);
    assert.ok(file, 'the cold run wrote the cache');
    const written = fs.statSync(path.join(dir, file)).mtimeMs;
    const warm = check(args, { SHARDLENS_TIMING: '1' });
    assert.equal(warm.stdout, check([EXAMPLES, '--format', 'json'], {}).stdout);
    // The phase is there (it decided), and the file is as the cold run left it.
    assert.ok(phases(warm.stderr).some(([p]) => p === 'cache written'));
    assert.equal(fs.statSync(path.join(dir, file)).mtimeMs, written);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the variable is on for any value but empty, 0 and false', () => {
  const on = (v: string | undefined) => phaseTimesFromEnv(v === undefined ? {} : { SHARDLENS_TIMING: v }).on;
  assert.equal(on(undefined), false);
  assert.equal(on(''), false);
  assert.equal(on('0'), false);
  assert.equal(on('FALSE'), false);
  assert.equal(on('1'), true);
  assert.equal(on('yes'), true);
});

test('off, marks cost nothing and format is empty; on, each phase ends where the next starts', () => {
  const off = new PhaseTimes(false);
  off.mark('walk');
  assert.equal(off.format(), '');
  const t = new PhaseTimes(true);
  t.mark('a');
  t.mark('bb');
  const lines = t.format().trimEnd().split('\n');
  assert.equal(lines.length, 4);
  assert.match(lines[1], /^ {2}a {6}\s+\d+\.\d ms$/);
  assert.match(lines[3], /^ {2}total\s+\d+\.\d ms$/);
});
