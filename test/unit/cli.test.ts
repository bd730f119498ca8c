import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { JsonKeysReport, JsonMatchReport, JsonReport } from '../../protocol/src/report';
import { assertSameText } from './same-text';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js');

/** The newest modification time of the files under `dir` (recursively). */
function newest(dir: string): number {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

/**
 * These tests run the bundle a user runs. A bundle older than the sources would test
 * old code: build it first, and fail with the build's own message when that fails.
 */
function ensureBuilt(): void {
  const bundle = path.join(ROOT, 'dist', 'cli.js');
  const sources = Math.max(newest(path.join(ROOT, 'server', 'src')), newest(path.join(ROOT, 'protocol', 'src')));
  if (fs.existsSync(bundle) && fs.statSync(bundle).mtimeMs >= sources) return;
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) {
    throw new Error(`dist/cli.js is older than the sources and \`npm run build\` failed:\n${r.stderr}${r.stdout}`);
  }
}
ensureBuilt();

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
  assert.deepEqual(Object.keys(report), ['version', 'findings', 'accesses', 'skipped', 'coverage']);
  assert.deepEqual((report as JsonReport & { skipped: unknown[] }).skipped, []);
  assert.equal(report.version, 1);
  assert.deepEqual(
    report.findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
    EXPECTED_FINDINGS,
  );
  for (const f of report.findings) {
    // `keyUse` (added within version 1): how the workspace uses the key of a constant-key or few-values finding.
    assert.equal('keyUse' in f, f.rule === 'SL001' || f.rule === 'SL003', `${f.file}:${f.line} ${f.rule}`);
    assert.deepEqual(
      Object.keys(f).filter((k) => k !== 'keyUse'),
      [
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
        'related',
        'fixes',
        'context',
      ],
    );
    assert.ok(f.column >= 1 && f.endLine >= f.line);
  }
  for (const a of report.accesses) {
    assert.deepEqual(Object.keys(a), [
      'file',
      'line',
      'column',
      'operation',
      'table',
      'partitionKey',
      'index',
      'logicalKey',
      'sortKey',
      'use',
    ]);
    assert.deepEqual(Object.keys(a.partitionKey), ['attribute', 'template', 'classification', 'shards']);
  }
});

test('check --format json: related places and fixes on findings; index, logical key, sort key and use on accesses', () => {
  const report = JSON.parse(run(['check', 'examples', '--format', 'json']).stdout) as JsonReport;
  const finding = (file: string, rule: string) => report.findings.find((f) => f.file === file && f.rule === rule)!;

  // SL006 names the writer as a related place and offers a scatter-gather reader over its shards.
  const sl006 = finding('examples/leaderboard/py/leaderboard.py', 'SL006');
  assert.deepEqual(
    sl006.related.map((r) => `${r.file}:${r.line} ${r.message}`),
    ['examples/leaderboard/py/leaderboard.py:19 written sharded as LEADERBOARD#GLOBAL#{shard 1..10} here'],
  );
  const gather = sl006.fixes[0];
  assert.equal(gather.kind, 'scatter-gather-reader');
  assert.equal(gather.kind === 'scatter-gather-reader' && gather.key, 'leaderboard · PK = LEADERBOARD#GLOBAL');
  assert.deepEqual(gather.kind === 'scatter-gather-reader' && gather.shards.values, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

  // SL001 on the unsharded board write: add a shard suffix, with the count the sharded writer uses.
  const sl001 = finding('examples/leaderboard/src/scores.ts', 'SL001');
  assert.deepEqual(
    sl001.fixes.map((f) => f.kind),
    ['add-shard-suffix'],
  );
  const add = sl001.fixes[0];
  assert.ok(add.kind === 'add-shard-suffix');
  assert.deepEqual({ line: add.at.line, column: add.at.column }, { line: 19, column: 19 });
  assert.equal(add.shardCount?.name, 'BOARD_SHARDS');
  assert.equal(add.shardCount?.value, 10);

  // SL007 and SL008 carry their fixes too.
  assert.equal(finding('examples/leaderboard/src/top-players.ts', 'SL007').fixes[0].kind, 'align-shard-range');
  assert.equal(finding('examples/event-log/src/events.ts', 'SL008').fixes[0].kind, 'paginate-shards');

  const byCountry = report.accesses.find((a) => a.file === 'examples/event-log/py/events.py' && a.line === 33)!;
  assert.equal(byCountry.index, 'byCountry');
  assert.equal(byCountry.logicalKey, '$EVENTS_TABLE/byCountry · country = {low-cardinality}');
  const history = report.accesses.find((a) => a.file === 'examples/leaderboard/src/scores.ts' && a.line === 65)!;
  assert.deepEqual(history.sortKey, { attribute: 'SK', operator: 'begins_with', template: 'MATCH#' });
  assert.deepEqual(history.use, { line: 65, column: 36 });
  const sharded = report.accesses.find((a) => a.file === 'examples/leaderboard/src/scores.ts' && a.line === 30)!;
  assert.equal(sharded.logicalKey, 'leaderboard · PK = BOARD#global', 'the shard part is not in the logical key');
});

test("the seeds' shapes in the examples are classified as the seeds intend", () => {
  const report = JSON.parse(run(['check', 'examples', '--format', 'json']).stdout) as JsonReport;
  const at = (file: string, line: number) =>
    report.accesses.find((a) => a.file === file && a.line === line)?.partitionKey;
  // Python writer: LEADERBOARD#GLOBAL#<random 1..10>; reader: executor.map over range(1, 11).
  // The writer's key is `"PK": partition_key` in the call (line 19).
  assert.deepEqual(at('examples/leaderboard/py/leaderboard.py', 19), {
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
  assert.match(bad.stderr, /--format must be one of text, json, sarif, github, gitlab, junit \(got "xml"\)/);
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
    [
      'SL001',
      'SL002',
      'SL003',
      'SL004',
      'SL005',
      'SL006',
      'SL007',
      'SL008',
      'SL009',
      'SL010',
      'SL011',
      'SL012',
      'SL013',
      'SL020',
      'SL021',
      'SL022',
    ],
  );
  assert.equal(run0.results.length, EXPECTED_FINDINGS.length);
  const first = run0.results[0];
  assert.equal(first.locations[0].physicalLocation.artifactLocation.uri, 'examples/event-log/py/events.py');
  assert.equal(first.locations[0].physicalLocation.region.startLine, 17);
  assert.ok(['error', 'warning', 'note'].includes(first.level));
  for (const rule of run0.tool.driver.rules) assert.match(rule.helpUri, /docs\/rules\/SL0\d\d\.md$/);
  const sl007 = run0.results.find((x: { ruleId: string }) => x.ruleId === 'SL007');
  assert.deepEqual(
    sl007.relatedLocations[0].physicalLocation.artifactLocation.uri,
    'examples/leaderboard/py/leaderboard.py',
  );
  assert.equal(sl007.relatedLocations[0].physicalLocation.region.startLine, 19);
  assert.equal(sl007.relatedLocations[0].message.text, 'writes shard 1..10 here');
});

test('keys lists tables, indexes, logical keys and their call sites', () => {
  const text = run(['keys', 'examples']);
  assert.equal(text.code, 0, text.stderr);
  const lines = text.stdout.split('\n');
  const board = lines.indexOf('  leaderboard · PK = BOARD#global  (sharded: shard 0..9)');
  assert.ok(board > 0, text.stdout);
  assert.match(
    lines[board + 1],
    /^ {4}write +PutItem +BOARD#global +examples\/leaderboard\/src\/scores\.ts:19:19 +SL001$/,
  );
  assert.match(
    lines[board + 2],
    /^ {4}write +PutItem +BOARD#global#\{shard 0\.\.9\} +examples\/leaderboard\/src\/scores\.ts:30:19$/,
  );
  assert.ok(lines.includes('  index byCountry'));
  assert.match(text.stdout, /\n13 logical keys on 7 tables, 21 call sites\.\n$/);

  const json = JSON.parse(run(['keys', 'examples', '--format', 'json']).stdout) as JsonKeysReport;
  assert.equal(json.version, 1);
  const keys = json.tables.flatMap((t) => t.indexes.flatMap((i) => i.keys));
  // Every call site `check` reports is listed under exactly one logical key.
  const check = JSON.parse(run(['check', 'examples', '--format', 'json']).stdout) as JsonReport;
  assert.equal(keys.flatMap((k) => k.sites).length, check.accesses.length);
  const global = keys.find((k) => k.logicalKey === 'leaderboard · PK = LEADERBOARD#GLOBAL')!;
  assert.deepEqual(
    global.sites.map((s) => `${s.kind} ${s.file}:${s.line} ${s.template} ${s.findings.map((f) => f.rule).join(',')}`),
    [
      'write examples/leaderboard/py/leaderboard.py:19 LEADERBOARD#GLOBAL#{shard 1..10} ',
      'read examples/leaderboard/py/leaderboard.py:28 LEADERBOARD#GLOBAL#{shard 1..10} ',
      'read examples/leaderboard/py/leaderboard.py:45 LEADERBOARD#GLOBAL SL006',
      'read examples/leaderboard/src/top-players.ts:20 LEADERBOARD#GLOBAL#{shard 0..9} SL007',
    ],
  );
  assert.deepEqual(
    { table: global.table, index: global.index, attribute: global.attribute, template: global.template },
    { table: 'leaderboard', index: null, attribute: 'PK', template: 'LEADERBOARD#GLOBAL' },
  );
  const status = json.tables.find((t) => t.table === 'events')!.indexes.find((i) => i.index === 'byStatus')!;
  assert.deepEqual(
    status.keys.map((k) => k.logicalKey),
    ['events/byStatus · status = {low-cardinality}'],
  );
  // Its SL003 read carries the workspace's verdict, as `check` gives it (no `source`: the code decided).
  assert.deepEqual(status.keys[0].sites[0].findings[0].keyUse, {
    verdict: 'read',
    reads: 1,
    writes: 0,
    readEntries: null,
    writeEntries: null,
  });
});

test('keys --match names the logical key and shard of concrete keys, or "no template"', () => {
  const r = run(['keys', 'examples', '--match', 'BOARD#global#7', 'LOGS#2026-11-30#3', 'NOPE#1']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trimEnd().split('\n'), [
    'BOARD#global#7     leaderboard · PK = BOARD#global  shard 7  (BOARD#global#{shard 0..9})',
    'LOGS#2026-11-30#3  $EVENTS_TABLE · pk = LOGS#{time}  shard 3  (LOGS#{time}#{shard 0..7})',
    'NOPE#1             no template',
  ]);
  const json = JSON.parse(
    run(['keys', 'examples', '--format', 'json', '--match', 'LEADERBOARD#GLOBAL#10', 'PLAYER#8f3a']).stdout,
  ) as JsonMatchReport;
  assert.deepEqual(json.matches, [
    {
      key: 'LEADERBOARD#GLOBAL#10',
      logicalKeys: [
        {
          logicalKey: 'leaderboard · PK = LEADERBOARD#GLOBAL',
          table: 'leaderboard',
          index: null,
          attribute: 'PK',
          shard: 10,
          templates: ['LEADERBOARD#GLOBAL#{shard 1..10}'],
        },
      ],
    },
    {
      key: 'PLAYER#8f3a',
      logicalKeys: [
        {
          logicalKey: 'leaderboard · PK = PLAYER#{entity-id}',
          table: 'leaderboard',
          index: null,
          attribute: 'PK',
          shard: null,
          templates: ['PLAYER#{entity-id}'],
        },
      ],
    },
  ]);
});

test('keys usage errors exit 2', () => {
  const noKey = run(['keys', 'examples', '--match']);
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /--match needs at least one key/);
  const sarif = run(['keys', '--format', 'sarif']);
  assert.equal(sarif.code, 2);
  assert.match(sarif.stderr, /--format must be one of text, json \(got "sarif"\)/);
  assert.match(run(['--help']).stdout, /shardlens keys \[paths\.\.\.\] --match KEY\.\.\./);
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
  assertSameText(r.stdout, sequential.stdout);
});
