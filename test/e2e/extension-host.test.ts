// Runs the extension-host suite (test/extension, Mocha inside VS Code's extension host, the
// `@vscode/test-electron` contract) in code-server, as part of `npm test`: this test passes
// only when the suite ran, every Mocha test passed, and none was skipped.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(__dirname, '..', '..');

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
    passes: unknown[];
    failures: Array<{ title: string; error: string }>;
    pending?: unknown[];
  };
  assert.deepEqual(result.failures, [], 'Mocha failures inside the extension host');
  assert.ok(result.passes.length >= 10, `only ${result.passes.length} tests passed`);
  assert.equal((result.pending ?? []).length, 0, 'skipped tests do not count as passing');
  assert.equal(run.status, 0, `the suite runner exited ${run.status}`);
});
