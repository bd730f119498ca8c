import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { escapeData, escapeProperty } from '../../server/src/cli/ci-formats';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js');
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-ci-')));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('workflow-command escaping: % CR LF in messages, and : , too in properties', () => {
  assert.equal(escapeData('100% of\r\nwrites'), '100%25 of%0D%0Awrites');
  assert.equal(escapeProperty('a,b:c%\n'), 'a%2Cb%3Ac%25%0A');
});

test('--format github: one annotation per finding with its level, place and title; --format gitlab: Code Quality', () => {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  // A file name with the separators of a workflow command's properties.
  fs.writeFileSync(
    path.join(dir, 'src', 'a,b:c.ts'),
    `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const ddb = DynamoDBDocumentClient.from({} as never);
export async function handler(e: { id: string; status: string }) {
  await ddb.send(new PutCommand({ TableName: 'scores', Item: { PK: 'BOARD#global', SK: e.id } }));
  await ddb.send(new PutCommand({ TableName: 'scores', Item: { PK: \`S#\${e.status}\`, SK: e.id } }));
}
`,
  );
  const run = (format: string) =>
    spawnSync(process.execPath, [BIN, 'check', '.', '--format', format], { cwd: dir, encoding: 'utf8' });
  const gh = run('github');
  assert.equal(gh.status, 1, gh.stderr);
  const lines = gh.stdout.trim().split('\n');
  assert.equal(lines.length, 2, gh.stdout);
  assert.match(
    lines[0],
    /^::error file=src\/a%2Cb%3Ac\.ts,line=4,col=\d+,endLine=4,endColumn=\d+,title=SL001 constant-partition-key::Partition key "BOARD#global"[^\n]*$/,
  );
  assert.match(lines[1], /^::warning file=src\/a%2Cb%3Ac\.ts,line=5,.*title=SL003 low-cardinality-partition-key::/);

  const gl = run('gitlab');
  const issues = JSON.parse(gl.stdout) as Array<{
    check_name: string;
    severity: string;
    fingerprint: string;
    location: { path: string; lines: { begin: number } };
  }>;
  assert.deepEqual(
    issues.map((i) => [i.check_name, i.severity, i.location.path, i.location.lines.begin]),
    [
      ['SL001 constant-partition-key', 'critical', 'src/a,b:c.ts', 4],
      ['SL003 low-cardinality-partition-key', 'major', 'src/a,b:c.ts', 5],
    ],
  );
  assert.ok(issues.every((i) => /^[0-9a-f]{32}:\d+$/.test(i.fingerprint)));
  assert.notEqual(issues[0].fingerprint, issues[1].fingerprint);
});

test('--format junit: a suite per file, a failing case per finding at --fail-on, hostile text escaped; read by a real XML parser', () => {
  const jdir = fs.mkdtempSync(path.join(dir, 'junit-'));
  fs.writeFileSync(
    path.join(jdir, 'votes.ts'),
    `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const ddb = DynamoDBDocumentClient.from({} as never);
export async function vote(e: { id: string; status: string }) {
  await ddb.send(new PutCommand({ TableName: 'votes', Item: { PK: 'POLL#<a & "b">\\u0001', SK: e.id } }));
  await ddb.send(new PutCommand({ TableName: 'votes', Item: { PK: \`S#\${e.status}\`, SK: e.id } }));
}
`,
  );
  fs.writeFileSync(path.join(jdir, 'plain.ts'), 'export const nothing = 1;\n');
  // Python's own XML parser, so well-formedness is judged by a real one, not by a regex.
  const parse = (xml: string) => {
    const py = spawnSync(
      'python3',
      [
        '-c',
        `import sys, json, xml.etree.ElementTree as E
r = E.fromstring(sys.stdin.read())
print(json.dumps({"tests": r.get("tests"), "failures": r.get("failures"), "suites": [
  {"name": s.get("name"), "tests": s.get("tests"), "failures": s.get("failures"), "cases": [
    {"name": c.get("name"), "line": c.get("line"), "failure": (c.find("failure").get("message") if c.find("failure") is not None else None),
     "out": (c.find("system-out").text if c.find("system-out") is not None else None)} for c in s.findall("testcase")]}
  for s in r.findall("testsuite")]}))`,
      ],
      { input: xml, encoding: 'utf8' },
    );
    assert.equal(py.status, 0, py.stderr);
    return JSON.parse(py.stdout) as {
      tests: string;
      failures: string;
      suites: Array<{
        name: string;
        tests: string;
        failures: string;
        cases: Array<{ name: string; line: string | null; failure: string | null; out: string | null }>;
      }>;
    };
  };
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [BIN, 'check', '.', '--format', 'junit', ...args], { cwd: jdir, encoding: 'utf8' });

  const onError = run();
  assert.equal(onError.status, 1, onError.stderr);
  const report = parse(onError.stdout);
  const votes = report.suites.find((s) => s.name === 'votes.ts');
  const plain = report.suites.find((s) => s.name === 'plain.ts');
  assert.ok(votes && plain, onError.stdout);
  assert.deepEqual(
    votes.cases.map((c) => [c.name, c.line, c.failure !== null]),
    [
      ['SL001 constant-partition-key at 4:67', '4', true],
      ['SL003 low-cardinality-partition-key at 5:67', '5', false],
    ],
    onError.stdout,
  );
  // The key's text comes back as written (the control character dropped, XML's specials escaped).
  assert.match(votes.cases[0].failure ?? '', /POLL#<a & "b">/);
  assert.match(votes.cases[1].out ?? '', /^votes\.ts:5:67 warning SL003: /);
  assert.deepEqual([plain.tests, plain.failures, plain.cases.length, plain.cases[0].failure], ['1', '0', 1, null]);
  assert.equal(report.failures, '1');

  // --fail-on warning: the SL003 case fails too, and the exit code agrees with the report.
  const onWarning = parse(run('--fail-on', 'warning').stdout);
  assert.equal(onWarning.failures, '2');
  assert.equal(onWarning.suites.find((s) => s.name === 'votes.ts')?.failures, '2');
});

test('XML escaping: specials escaped, control characters and lone surrogates dropped, astral characters kept', async () => {
  const { escapeXml } = await import('../../server/src/cli/junit');
  assert.equal(escapeXml(`a<b>&"c'\u0001\u001f\ud800 😀\t`), 'a&lt;b&gt;&amp;&quot;c&apos; 😀\t');
});
