import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { ensureBuilt, runCli } from '../../fuzz/cli-runner';
import { parseArgs } from '../../server/src/cli/args';
import type { JsonReport } from '../../protocol/src/report';

/**
 * Hostile paths and files given to the CLI: each test runs the built CLI on a real file
 * system object, bounded by a timeout, because the failures were hangs and runaway memory.
 */
ensureBuilt();

type CheckJson = JsonReport & { skipped: Array<{ file: string; reason: string }> };

const CONSTANT_KEY_PY = `import boto3

table = boto3.resource("dynamodb").Table("scores")


def save(score):
    table.put_item(Item={"PK": "BOARD#global", "SK": score})
`;

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-hard-'));
}

test('a FIFO named on the command line is skipped with the reason, not read (which blocks forever)', () => {
  const dir = tempDir();
  execFileSync('mkfifo', [path.join(dir, 'f.py')]);
  fs.writeFileSync(path.join(dir, 'ok.py'), CONSTANT_KEY_PY);
  const r = runCli(['check', 'f.py', 'ok.py', '--format', 'json'], { cwd: dir, timeoutMs: 15_000 });
  assert.equal(r.timedOut, false, 'the CLI blocked on the FIFO');
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /skipped f\.py: not a regular file \(a FIFO\)/);
  const report = JSON.parse(r.stdout) as CheckJson;
  assert.deepEqual(report.skipped, [{ file: 'f.py', reason: 'not a regular file (a FIFO)' }]);
  assert.deepEqual(
    report.findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
    ['ok.py:7 SL001'],
  );
});

test('a symlink to /dev/zero is skipped at once, not read until memory runs out', () => {
  const dir = tempDir();
  fs.symlinkSync('/dev/zero', path.join(dir, 'z.py'));
  const r = runCli(['check', 'z.py', '--format', 'sarif'], { cwd: dir, timeoutMs: 15_000 });
  assert.equal(r.timedOut, false, 'the CLI kept reading /dev/zero');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /skipped z\.py: not a regular file \(a character device\)/);
  const notes = JSON.parse(r.stdout).runs[0].invocations[0].toolExecutionNotifications;
  assert.deepEqual(
    notes.map((n: { message: { text: string } }) => n.message.text),
    ['skipped: not a regular file (a character device)'],
  );
  assert.ok(r.ms < 10_000, `took ${Math.round(r.ms)} ms`);
});

test('--max-file-size counts bytes: 1,500 characters of two bytes each are over 2 KB', () => {
  const dir = tempDir();
  const big = CONSTANT_KEY_PY + '# ' + 'é'.repeat(1400) + '\n';
  assert.ok(big.length < 2048 && Buffer.byteLength(big) > 2048);
  fs.writeFileSync(path.join(dir, 'big.py'), big);
  fs.writeFileSync(path.join(dir, 'small.py'), CONSTANT_KEY_PY);
  const r = runCli(['check', '.', '--max-file-size', '2', '--format', 'json'], { cwd: dir });
  const report = JSON.parse(r.stdout) as CheckJson;
  assert.deepEqual(report.skipped, [{ file: 'big.py', reason: 'larger than 2 KB (3 KB)' }]);
  assert.deepEqual(
    report.findings.map((f) => f.file),
    ['small.py'],
  );
});

test('an unreadable folder is reported as skipped on stderr, in JSON and in SARIF, not silently dropped', () => {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, 'locked'));
  fs.writeFileSync(path.join(dir, 'locked', 'hidden.py'), CONSTANT_KEY_PY);
  fs.writeFileSync(path.join(dir, 'open.py'), CONSTANT_KEY_PY);
  fs.chmodSync(path.join(dir, 'locked'), 0o000);
  // root reads any folder: run the CLI as `nobody`, for whom the mode bits hold.
  const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  fs.chmodSync(dir, 0o755);
  try {
    const json = runCli(['check', '.', '--format', 'json'], { cwd: dir, ...asUser });
    assert.match(json.stderr, /skipped locked: unreadable folder: EACCES/);
    const report = JSON.parse(json.stdout) as CheckJson;
    assert.deepEqual(report.skipped, [{ file: 'locked', reason: 'unreadable folder: EACCES' }]);
    assert.deepEqual(
      report.findings.map((f) => f.file),
      ['open.py'],
    );
    const sarif = runCli(['check', '.', '--format', 'sarif'], { cwd: dir, ...asUser });
    const notes = JSON.parse(sarif.stdout).runs[0].invocations[0].toolExecutionNotifications;
    assert.equal(notes[0].locations[0].physicalLocation.artifactLocation.uri, 'locked');
    assert.equal(notes[0].message.text, 'skipped: unreadable folder: EACCES');
  } finally {
    fs.chmodSync(path.join(dir, 'locked'), 0o755);
  }
});

test('`--` ends the options: a file named -x.py is a path, before it an unknown option', () => {
  assert.deepEqual(parseArgs(['check', '--', '-x.py', '--format']), {
    command: 'check',
    options: {
      paths: ['-x.py', '--format'],
      format: 'text',
      failOn: 'error',
      quiet: false,
      color: null,
      maxFileBytes: 2048 * 1024,
    },
  });
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, '-x.py'), CONSTANT_KEY_PY);
  const r = runCli(['check', '--format', 'json', '--', '-x.py'], { cwd: dir });
  assert.equal(r.code, 1, r.stderr);
  assert.deepEqual(
    (JSON.parse(r.stdout) as CheckJson).findings.map((f) => `${f.file}:${f.line}`),
    ['-x.py:7'],
  );
  const bare = runCli(['check', '-x.py'], { cwd: dir });
  assert.equal(bare.code, 2);
  assert.match(bare.stderr, /unknown option "-x\.py"/);
  const keys = runCli(['keys', '--format', 'json', '--', '-x.py'], { cwd: dir });
  assert.equal(keys.code, 0, keys.stderr);
  assert.match(keys.stdout, /"logicalKey": "scores · PK = BOARD#global"/);
});

test('CR, CRLF, LF and mixed line endings put a finding on the same line', () => {
  const dir = tempDir();
  const endings = { lf: '\n', crlf: '\r\n', cr: '\r' } as const;
  for (const [name, eol] of Object.entries(endings)) {
    fs.writeFileSync(path.join(dir, `${name}.py`), CONSTANT_KEY_PY.replace(/\n/g, eol));
    fs.writeFileSync(path.join(dir, `${name}.ts`), tsSource().replace(/\n/g, eol));
  }
  // Mixed: each line break chosen in turn from the three.
  let i = 0;
  const mixed = (s: string) => s.replace(/\n/g, () => ['\r', '\r\n', '\n'][i++ % 3]);
  fs.writeFileSync(path.join(dir, 'mixed.py'), mixed(CONSTANT_KEY_PY));
  fs.writeFileSync(path.join(dir, 'mixed.ts'), mixed(tsSource()));
  const r = runCli(['check', '.', '--format', 'json'], { cwd: dir });
  const found = (JSON.parse(r.stdout) as CheckJson).findings.map(
    (f) => `${f.file}:${f.line}:${f.column}-${f.endLine}:${f.endColumn}`,
  );
  assert.deepEqual(found, [
    'cr.py:7:32-7:46',
    'cr.ts:5:56-5:64',
    'crlf.py:7:32-7:46',
    'crlf.ts:5:56-5:64',
    'lf.py:7:32-7:46',
    'lf.ts:5:56-5:64',
    'mixed.py:7:32-7:46',
    'mixed.ts:5:56-5:64',
  ]);
});

function tsSource(): string {
  return [
    "import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';",
    'const ddb = new DynamoDBClient({});',
    '',
    'export async function save(): Promise<void> {',
    "  await ddb.send(new PutItemCommand({ Item: { PK: { S: 'GLOBAL' } }, TableName: 'scores' }));",
    '}',
    '',
  ].join('\n');
}

test('keys nested deeper than the evaluators follow are counted in the output, not passed over', () => {
  const dir = tempDir();
  const nested = (depth: number) => '('.repeat(depth) + '"BOARD#global"' + ')'.repeat(depth);
  const file = (pk: string) => CONSTANT_KEY_PY.replace('"BOARD#global"', pk);
  fs.writeFileSync(path.join(dir, 'deep.py'), file(nested(100)));
  fs.writeFileSync(path.join(dir, 'middle.py'), file(nested(40)));
  fs.writeFileSync(path.join(dir, 'shallow.py'), file(nested(5)));
  fs.writeFileSync(path.join(dir, 'opaque.py'), file('make_key()'));
  const r = runCli(['check', '.', '--format', 'json'], { cwd: dir });
  const report = JSON.parse(r.stdout) as CheckJson & {
    coverage: {
      files: number;
      keysTooDeep: number;
      calls: number;
      resolved: number;
      unresolved: Array<{ reason: string; sites: Array<{ file: string }> }>;
    };
  };
  const { files, keysTooDeep, calls, resolved, unresolved } = report.coverage;
  assert.deepEqual({ files, keysTooDeep, calls, resolved }, { files: 4, keysTooDeep: 1, calls: 4, resolved: 3 });
  // The call cut off by depth is the one not understood, and says why.
  assert.deepEqual(
    unresolved.map((u) => `${u.reason} ${u.sites.map((s) => s.file).join(',')}`),
    ['evaluation-limit deep.py'],
  );
  // 5 and 40 levels are judged (a constant); 100 is not (it would be the same constant).
  assert.deepEqual(
    report.findings.map((f) => `${f.file} ${f.rule}`),
    ['middle.py SL001', 'shallow.py SL001'],
  );
  assert.match(r.stderr, /1 key value nests deeper than \d+ levels: not followed, judged as \{unknown\}/);
  const sarif = JSON.parse(runCli(['check', '.', '--format', 'sarif'], { cwd: dir }).stdout);
  const notes = sarif.runs[0].invocations[0].toolExecutionNotifications;
  assert.match(notes[0].message.text, /^1 key value nests deeper than/);
});

test('check, keys and heat read the shared arguments alike: --max-file-size, --help, --, paths, unknown options', () => {
  const base = { check: ['check'], keys: ['keys'], heat: ['heat', '--table', 'scores'] } as const;
  for (const [command, head] of Object.entries(base)) {
    for (const size of [['--max-file-size', '4'], ['--max-file-size=4']]) {
      const parsed = parseArgs([...head, 'src', ...size, '--', '-x.py']) as {
        options: { paths: string[]; maxFileBytes: number };
      };
      assert.equal(parsed.options.maxFileBytes, 4096, `${command} ${size.join(' ')}`);
      assert.deepEqual(parsed.options.paths, ['src', '-x.py'], command);
    }
    assert.deepEqual(parseArgs([...head, '-h']), { command: 'help' }, command);
    assert.deepEqual(parseArgs([...head, 'src', '--help']), { command: 'help' }, command);
    assert.throws(
      () => parseArgs([...head, '--max-file-size']),
      /--max-file-size needs a positive number of KB/,
      command,
    );
    const unknown =
      command === 'check' ? /^unknown option "--bogus"$/ : new RegExp(`^unknown option "--bogus" for ${command}$`);
    assert.throws(
      () => parseArgs([...head, '--bogus']),
      (e: Error) => unknown.test(e.message),
      command,
    );
  }
});
