// Runs the extension-host suite (test/extension, Mocha inside VS Code's extension host, the
// `@vscode/test-electron` contract) in code-server, as part of `npm test`: this test passes
// only when the suite ran and every test it declares passed: none failed, none skipped, none
// left out by a grep or a suite file that did not load.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(__dirname, '..', '..');
const SUITE = path.join(ROOT, 'test', 'extension', 'suite');

/** The tests the suite's files declare (`test(...)`, `it(...)`, `.only`/`.skip` included), read from their source. */
function declaredInSource(): number {
  let n = 0;
  for (const f of readdirSync(SUITE).filter((f) => f.endsWith('.test.ts'))) {
    n += readFileSync(path.join(SUITE, f), 'utf8').match(/^\s*(?:it|test)(?:\.only|\.skip)?\(/gm)?.length ?? 0;
  }
  return n;
}

test('the extension-host suite passes inside a real VS Code (code-server)', { timeout: 900_000 }, () => {
  const build = spawnSync(process.execPath, [path.join(ROOT, 'test', 'extension', 'build.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  assert.equal(build.status, 0, 'building the suite failed');
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'test', 'extension', 'run-code-server.ts')],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  const result = JSON.parse(readFileSync(path.join(ROOT, 'test-output', 'extension', 'result.json'), 'utf8')) as {
    declared: number;
    passes: unknown[];
    failures: Array<{ title: string; error: string }>;
    pending?: unknown[];
  };
  const declared = declaredInSource();
  assert.ok(declared > 0, `no test declared in ${SUITE}`);
  assert.deepEqual(result.failures, [], 'Mocha failures inside the extension host');
  assert.equal((result.pending ?? []).length, 0, 'skipped tests do not count as passing');
  // Mocha's own count and the sources' must agree: a grep (SHARDLENS_TEST_GREP) or a file
  // the bundle left out runs fewer tests than the suite declares.
  assert.equal(result.declared, declared, `Mocha loaded ${result.declared} tests, the suite declares ${declared}`);
  assert.equal(result.passes.length, declared, `${result.passes.length} of the ${declared} declared tests passed`);
  assert.equal(run.status, 0, `the suite runner exited ${run.status}`);
});
