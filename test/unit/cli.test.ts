import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { JsonReport } from '../../protocol/src/report';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js');

/** Runs the built CLI (`npm test` builds first) as a user would. */
function run(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The findings every example is written to show, and nothing on its good patterns. */
const EXPECTED_FINDINGS = [
  'examples/event-log/py/events.py:17 SL002',
  'examples/event-log/py/events.py:33 SL003',
  'examples/event-log/py/events.py:42 SL001',
  'examples/event-log/py/events.py:43 SL005',
  'examples/event-log/src/events.ts:32 SL008',
  'examples/event-log/src/events.ts:43 SL002',
  'examples/event-log/src/events.ts:54 SL003',
  'examples/leaderboard/py/leaderboard.py:45 SL006',
  'examples/leaderboard/src/match-ids.ts:12 SL004',
  'examples/leaderboard/src/scores.ts:19 SL001',
  'examples/leaderboard/src/scores.ts:75 SL001',
  'examples/leaderboard/src/scores.ts:75 SL005',
  'examples/leaderboard/src/scores.ts:85 SL003',
  'examples/leaderboard/src/top-players.ts:20 SL007',
];

test('check examples --format json: the intended findings, exactly, in the version 1 contract', () => {
  const r = run(['check', 'examples', '--format', 'json']);
  assert.equal(r.code, 1, r.stderr);
  const report = JSON.parse(r.stdout) as JsonReport;
  assert.deepEqual(Object.keys(report), ['version', 'findings', 'accesses']);
  assert.equal(report.version, 1);
  assert.deepEqual(
    report.findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
    EXPECTED_FINDINGS,
  );
  for (const f of report.findings) {
    assert.deepEqual(Object.keys(f), [
      'file',
      'line',
      'column',
      'endLine',
      'endColumn',
      'rule',
      'category',
      'severity',
      'message',
      'table',
      'keyTemplate',
    ]);
    assert.ok(f.column >= 1 && f.endLine >= f.line);
  }
  for (const a of report.accesses) {
    assert.deepEqual(Object.keys(a), ['file', 'line', 'column', 'operation', 'table', 'partitionKey']);
    assert.deepEqual(Object.keys(a.partitionKey), ['attribute', 'template', 'classification', 'shards']);
  }
});

test("the seeds' shapes in the examples are classified as the seeds intend", () => {
  const report = JSON.parse(run(['check', 'examples', '--format', 'json']).stdout) as JsonReport;
  const at = (file: string, line: number) =>
    report.accesses.find((a) => a.file === file && a.line === line)?.partitionKey;
  // Python writer: LEADERBOARD#GLOBAL#<random 1..10>; reader: executor.map over range(1, 11).
  assert.deepEqual(at('examples/leaderboard/py/leaderboard.py', 18), {
    attribute: 'PK',
    template: 'LEADERBOARD#GLOBAL#{shard 1..10}',
    classification: 'sharded',
    shards: 10,
  });
  assert.deepEqual(at('examples/leaderboard/py/leaderboard.py', 28), {
    attribute: 'PK',
    template: 'LEADERBOARD#GLOBAL#{shard 1..10}',
    classification: 'sharded',
    shards: 10,
  });
  // TypeScript writeEvent / readEvents: random 0..9 and Array.from over 10.
  assert.deepEqual(at('examples/event-log/src/events.ts', 19), {
    attribute: 'pk',
    template: '{time}#{shard 0..9}',
    classification: 'sharded',
    shards: 10,
  });
  assert.deepEqual(at('examples/event-log/src/events.ts', 32), {
    attribute: 'pk',
    template: '{time}#{shard 0..9}',
    classification: 'sharded',
    shards: 10,
  });
  const classes = new Set(report.accesses.map((a) => a.partitionKey.classification));
  for (const c of ['constant', 'time-bucket', 'low-cardinality', 'counter', 'sharded', 'high-cardinality']) {
    assert.ok(classes.has(c as never), `examples show ${c}`);
  }
});

test('text output reads like a compiler and ends with a summary', () => {
  const r = run(['check', 'examples']);
  assert.equal(r.code, 1);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0], /^examples\/\S+:\d+:\d+ (error|warning|info) SL00\d .+/);
  assert.match(
    lines[lines.length - 1],
    /^14 findings \(5 errors, 7 warnings, 2 info\) in 21 DynamoDB calls across 6 files\.$/,
  );
  assert.ok(!r.stdout.includes('\x1b['), 'no colour when not a TTY');
  const quiet = run(['check', 'examples', '--quiet']);
  assert.equal(quiet.stdout.trim().split('\n').length, 14);
});

test('--fail-on sets the exit code', () => {
  assert.equal(run(['check', 'examples/leaderboard/src/match-ids.ts']).code, 0, 'a warning does not fail by default');
  assert.equal(run(['check', 'examples/leaderboard/src/match-ids.ts', '--fail-on', 'warning']).code, 1);
  assert.equal(run(['check', 'examples', '--fail-on', 'never']).code, 0);
  assert.equal(run(['check', 'examples/leaderboard/py/leaderboard.py', '--fail-on=info']).code, 1);
});

test('usage errors exit 2 with a clear message', () => {
  const bad = run(['check', '--format', 'xml']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--format must be one of text, json, sarif \(got "xml"\)/);
  assert.equal(run(['frobnicate']).code, 2);
  assert.equal(run(['check', '--nope']).code, 2);
  const missing = run(['check', 'no/such/dir']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no\/such\/dir: no such file/);
  assert.equal(run(['--help']).code, 0);
});

test('SARIF 2.1.0 with rule metadata and one result per finding', () => {
  const r = run(['check', 'examples', '--format', 'sarif']);
  const sarif = JSON.parse(r.stdout);
  assert.equal(sarif.version, '2.1.0');
  const run0 = sarif.runs[0];
  assert.deepEqual(
    run0.tool.driver.rules.map((x: { id: string }) => x.id),
    ['SL001', 'SL002', 'SL003', 'SL004', 'SL005', 'SL006', 'SL007', 'SL008'],
  );
  assert.equal(run0.results.length, EXPECTED_FINDINGS.length);
  const first = run0.results[0];
  assert.equal(first.locations[0].physicalLocation.artifactLocation.uri, 'examples/event-log/py/events.py');
  assert.equal(first.locations[0].physicalLocation.region.startLine, 17);
  assert.ok(['error', 'warning', 'note'].includes(first.level));
  for (const rule of run0.tool.driver.rules) assert.match(rule.helpUri, /docs\/rules\/SL00\d\.md$/);
});

test('binary, oversized and non-UTF-8 files: skipped or analysed, and the CLI says which', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-'));
  fs.writeFileSync(path.join(dir, 'blob.py'), Buffer.from([0x62, 0x6f, 0x74, 0x6f, 0x33, 0, 1, 2, 3]));
  fs.writeFileSync(path.join(dir, 'huge.js'), `// DynamoDB\n${'x'.repeat(3 * 1024 * 1024)}`);
  fs.writeFileSync(
    path.join(dir, 'latin1.ts'),
    Buffer.concat([
      Buffer.from('// caf\xe9 DynamoDB\n', 'latin1'),
      Buffer.from("ddb.put({ TableName: 'x', Item: { pk: 'ONE' } });\n"),
    ]),
  );
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.writeFileSync(path.join(dir, 'node_modules', 'dep.js'), "ddb.put({ TableName: 'x', Item: { pk: 'DEP' } });");
  const r = run(['check', '.', '--format', 'json'], dir);
  assert.match(r.stderr, /skipped blob\.py: binary file/);
  assert.match(r.stderr, /skipped huge\.js: larger than 2\.0 MB/);
  const report = JSON.parse(r.stdout) as JsonReport;
  assert.deepEqual(
    report.findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
    ['latin1.ts:2 SL001'],
  );
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the two-thread path (used for large workspaces) reports exactly what the one-thread path does', () => {
  const sequential = run(['check', 'examples', 'test/fixtures/cross', '--format', 'json']);
  const env = { ...process.env, NO_COLOR: '1', SHARDLENS_PARALLEL_FROM: '1' };
  const r = spawnSync(process.execPath, [BIN, 'check', 'examples', 'test/fixtures/cross', '--format', 'json'], {
    cwd: ROOT,
    encoding: 'utf8',
    env,
  });
  assert.equal(r.status, sequential.code, r.stderr);
  assert.ok(JSON.parse(r.stdout).findings.length > 20);
  assert.equal(r.stdout, sequential.stdout);
});
