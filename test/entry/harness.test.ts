/**
 * The test harness (`findingsOf`) indexes a workspace the way `shardlens check` does, so a
 * test's findings are the ones a user sees: the same findings, messages included, for
 * projects whose environment variables name tables and indexes through a SAM template, a
 * `serverless.ts` service and a Serverless YAML service.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { JsonCheckReport } from '../../server/src/cli/report';
import { findingsOf, fixture, FIXTURES } from './helpers';

const ROOT = path.join(__dirname, '..', '..');
const INFRA = path.join(FIXTURES, '..', 'infra');

function cli(dir: string): string[] {
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bin', 'shardlens.js'), 'check', '--format', 'json', '--fail-on', 'never', '.'],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout) as JsonCheckReport;
  return report.findings.map((f) => `${f.file}:${f.line} ${f.rule} ${f.severity} ${f.message}`).sort();
}

async function harness(dir: string): Promise<string[]> {
  const found = await findingsOf(fixture(path.relative(FIXTURES, dir)));
  return found.map((f) => `${f.at.split(path.sep).join('/')} ${f.rule} ${f.severity} ${f.message}`).sort();
}

for (const [name, dir] of [
  ['a SAM template setting a table and an index variable', path.join(INFRA, 'env-indexes', 'kiosk')],
  ['a serverless.ts service setting a table variable', path.join(FIXTURES, 'serverless-ts-rewards')],
  ['Serverless and SAM services whose writes fill an index the templates define', path.join(INFRA, 'literal-names')],
] as const) {
  test(`findingsOf gives what shardlens check prints: ${name}`, async () => {
    const want = cli(dir);
    assert.ok(want.length > 0);
    assert.deepEqual(await harness(dir), want);
  });
}
