import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { ROOT } from './lsp-client';

/**
 * `check --write-baseline` / `--baseline` and `--report-unused-ignores`, the CLI run as a
 * real process over a temp folder that is edited between runs as a team would.
 */

const BIN = path.join(ROOT, 'bin', 'shardlens.js');
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-baseline-')));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const check = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, 'check', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};

const HEAD = `import { DynamoDBDocumentClient, PutCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
const ddb = DynamoDBDocumentClient.from({} as never);
`;
const SCORES = `${HEAD}
export async function submit(playerId: string) {
  await ddb.send(new PutCommand({ TableName: 'scores', Item: { PK: 'BOARD#global', SK: playerId } }));
}

export async function byStatus(status: string) {
  await ddb.send(new PutCommand({ TableName: 'scores', Item: { PK: \`STATUS#\${status}\`, SK: 'x' } }));
}
`;

test('a baseline holds back the findings it records, across unrelated edits and moves, and not new ones', () => {
  write('src/scores.ts', SCORES);
  const w = check('.', '--write-baseline', 'shardlens-baseline.json');
  assert.equal(w.status, 0, w.stderr);
  assert.match(w.stderr, /wrote 2 findings to shardlens-baseline\.json/);
  const first = fs.readFileSync(path.join(dir, 'shardlens-baseline.json'), 'utf8');
  const entries = JSON.parse(first).findings as Array<{ rule: string; file: string; key: string; fingerprint: string }>;
  assert.deepEqual(
    entries.map((e) => `${e.file} ${e.rule} ${e.key}`),
    ['src/scores.ts SL001 scores · PK = BOARD#global', 'src/scores.ts SL003 scores · PK = STATUS#{low-cardinality}'],
  );
  // The SARIF fingerprints are the same ones.
  const sarif = JSON.parse(check('.', '--format', 'sarif').stdout);
  const prints = sarif.runs[0].results.map(
    (r: { partialFingerprints: Record<string, string> }) => Object.values(r.partialFingerprints)[0],
  );
  assert.deepEqual([...prints].sort(), entries.map((e) => e.fingerprint).sort());

  // Unrelated edits: lines above, the two functions swapped, a new quiet function.
  const [, a, b] = SCORES.split(/\n(?=export)/);
  write(
    'src/scores.ts',
    `${HEAD}// a comment\n\nconst unrelated = 1;\n${b}\n${a}\nexport const get = (id: string) => ddb.send(new GetCommand({ TableName: 'scores', Key: { PK: \`USER#\${id}\` } }));\n`,
  );
  const same = check('.', '--baseline', 'shardlens-baseline.json', '--format', 'json');
  assert.equal(same.status, 0, same.stdout + same.stderr);
  assert.deepEqual(JSON.parse(same.stdout).findings, []);
  assert.match(same.stderr, /2 findings already in shardlens-baseline\.json not shown/);

  // Writing it again gives the same bytes: sorted and stable.
  check('.', '--write-baseline', 'again.json');
  assert.equal(fs.readFileSync(path.join(dir, 'again.json'), 'utf8'), first);

  // A new finding fails the run, alone.
  write(
    'src/feed.ts',
    `${HEAD}\nexport const post = (id: string) => ddb.send(new PutCommand({ TableName: 'feed', Item: { PK: 'FEED#recent', SK: id } }));\n`,
  );
  const fresh = check('.', '--baseline', 'shardlens-baseline.json', '--format', 'json');
  assert.equal(fresh.status, 1);
  assert.deepEqual(
    JSON.parse(fresh.stdout).findings.map((f: { file: string; rule: string }) => `${f.file} ${f.rule}`),
    ['src/feed.ts SL001'],
  );

  write('bad.json', '{"findings": 3}');
  const bad = check('.', '--baseline', 'bad.json');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--baseline bad\.json: not a baseline/);
});

test('--report-unused-ignores names each comment, or code of one, that silences nothing', () => {
  write(
    'py/handler.py',
    `import boto3

table = boto3.resource("dynamodb").Table("scores")


def handler(event, context):
    # shardlens-ignore SL001 -- one config item, cached per container
    table.get_item(Key={"PK": "CONFIG"})
    table.put_item(Item={"PK": f"USER#{event['id']}"})  # shardlens-ignore SL001 -- no longer needed
    # shardlens-ignore SL001 SL003 -- one of the two is stale
    table.put_item(Item={"PK": "GLOBAL", "SK": event["id"]})
`,
  );
  const r = check('py', '--report-unused-ignores', '--format', 'json');
  assert.equal(JSON.parse(r.stdout).findings.length, 0, r.stdout);
  assert.equal(
    r.stderr
      .split('\n')
      .filter((l) => l.includes('unused'))
      .join('\n'),
    [
      'py/handler.py:9: unused shardlens-ignore SL001: it silences no finding',
      'py/handler.py:10: unused shardlens-ignore SL003: it silences no finding',
    ].join('\n'),
  );
  assert.equal(r.status, 0, 'unused comments fail only at --fail-on warning or lower');
  assert.equal(check('py', '--report-unused-ignores', '--fail-on', 'warning').status, 1);
  assert.doesNotMatch(check('py').stderr, /unused/, 'reported only when asked');
});
