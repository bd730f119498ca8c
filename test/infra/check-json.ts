import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { JsonCheckReport } from '../../server/src/cli/report';

/** The infrastructure fixtures, each a folder a test checks as a user's repository. */
export const FIXTURES = path.join(__dirname, '..', 'fixtures', 'infra');
const BIN = path.join(__dirname, '..', '..', 'bin', 'shardlens.js');

/**
 * `shardlens check --format json ARGS` in `cwd`, as a user runs it: the report, and
 * stderr for the notices. Exit 1 (findings at the failing severity) is a report too;
 * any other exit fails the test with the CLI's stderr.
 */
export function runCheck(cwd: string, ...args: string[]): { report: JsonCheckReport; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, 'check', '--format', 'json', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${r.stderr}`);
  return { report: JSON.parse(r.stdout) as JsonCheckReport, stderr: r.stderr };
}

/** The report of `runCheck`. */
export const checkJson = (cwd: string, ...args: string[]): JsonCheckReport => runCheck(cwd, ...args).report;
