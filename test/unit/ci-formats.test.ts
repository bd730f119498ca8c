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
