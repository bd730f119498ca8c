import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { assertSameText } from './same-text';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js');

/** The built CLI (`npm run build` first), in a fresh process as a user runs it. */
function check(workspace: string, cacheDir?: string): string {
  const cache = cacheDir ? ['--cache', '--cache-location', cacheDir] : [];
  const r = spawnSync(process.execPath, [BIN, 'check', workspace, '--format', 'json', ...cache], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.ok(r.stdout.length > 1000, r.stderr);
  return r.stdout;
}

// A generated monorepo (the benchmark's generator, 500 source files): Serverless services
// declare functions, so environment-named tables are bound, and tables named by the same
// variable in several services are learned with different keys. A restored file used to be
// analysed again in the main thread, which knows those definitions where the analysis
// thread that made its entry did not: ten sharded writers came back with no key at all.
test('a warm check of a generated monorepo prints exactly the cold check, restoring what each file was bound with', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cache-bindings-'));
  const workspace = path.join(dir, 'ws');
  const gen = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bench', 'generate.mjs'), '--files', '500', '--mb', '6', '--out', workspace],
    { encoding: 'utf8' },
  );
  assert.equal(gen.status, 0, gen.stderr);
  const cacheDir = path.join(dir, 'cache');
  const plain = check(workspace);
  const cold = check(workspace, cacheDir);
  const warm = check(workspace, cacheDir);
  assertSameText(cold, plain);
  const report = JSON.parse(plain) as { accesses: Array<{ table: string; partitionKey: { template: string | null } }> };
  // What the comparison covers: writers of environment-named tables with a sharded key.
  assert.ok(report.accesses.some((a) => a.table.startsWith('$') && /\{shard/.test(a.partitionKey.template ?? '')));
  const differing = (JSON.parse(warm) as typeof report).accesses.filter(
    (a, i) => JSON.stringify(a) !== JSON.stringify(report.accesses[i]),
  );
  assert.deepEqual(differing, [], 'accesses that differ warm');
  assertSameText(warm, plain);
  fs.rmSync(dir, { recursive: true, force: true });
});
