/**
 * What the CLI shows of reachability: each access's entry points in the JSON report, the
 * share of calls an entry point reaches in `--stats`, and a package.json `bin` as a script.
 * Runs the built CLI (`npm run build` first).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { at, findingsOf, fixture, FIXTURES } from './helpers';

const CLI = path.join(__dirname, '..', '..', 'bin', 'shardlens.js');

function run(...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, 'check', ...args], { cwd: FIXTURES, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return r.stdout;
}

test('check --format json: each access carries its entry points and reach', () => {
  const report = JSON.parse(run('chalice-votes', 'sqs-settings', '--format', 'json'));
  const tally = report.accesses.find((a: { file: string; line: number }) => a.file.endsWith('app.py') && a.line === 26);
  assert.deepEqual(tally.entryPoints, [
    {
      kind: 'schedule',
      name: 'rate(30 minutes)',
      trigger: 'rate(30 minutes)',
      ratePerHour: 2,
      file: 'chalice-votes/app.py',
      line: 24,
    },
  ]);
  const settings = report.accesses.find(
    (a: { file: string; line: number }) => a.file.endsWith('consumer.ts') && a.line === 9,
  );
  assert.equal(settings.reach, 'once-per-batch');
  assert.equal(settings.entryPoints[0].kind, 'queue');
  assert.deepEqual(report.coverage.entryPoints, { reached: 7, unreached: 0 });
});

test('check --stats: the share of calls reached from a known entry point', () => {
  const out = run('express-votes', '--stats', '--quiet');
  assert.match(
    out,
    /Entry points: 2 of 3 DynamoDB calls reached from a known entry point \(66%\); 1 reached from no entry point\./,
  );
});

test('a package.json bin is a script: what only it reaches is info; what a route reaches too stays', async () => {
  const files = fixture('express-votes');
  const pkg = JSON.parse(files['package.json']);
  const withBin = {
    ...files,
    'package.json': JSON.stringify({ ...pkg, bin: { archive: 'src/archive-cli.js' } }),
    'src/archive-cli.js':
      'const { VoteRepository } = require("./vote-repository");\nnew VoteRepository().rebuildArchive();\n',
  };
  const fs = await findingsOf(withBin);
  const f = at(fs, 'src/vote-repository.ts:28');
  assert.equal(f.severity, 'info');
  assert.match(f.message, /only from a script \(src\/archive-cli\.js:1\)/);
  assert.equal(at(fs, 'src/vote-repository.ts:20').severity, 'error');
});
