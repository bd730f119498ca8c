import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { fileRole as roleFrom, pathRole, valueShape } from '../../server/src/engine/file-roles';

/** A file's role with the content patterns of the front-end that reads it (the engine asks `FrontEnd.contentRoles`). */
const fileRole = (file: string, text: string | null) => roleFrom(file, text, file.endsWith('.py') ? 'python' : 'js');
import { projectRootOf, sameProject } from '../../server/src/engine/file-roles/project';
import { classifyName, isPartitionKeyName, isSortKeyName } from '../../server/src/engine/frontends/names';

test('content decides before the path: a handler under examples/ is app code, a main() there an example', () => {
  const handler = 'export const handler = async (event) => { await doc.send(cmd); };\n';
  assert.equal(fileRole('examples/api/handler.ts', handler), 'app');
  assert.equal(
    fileRole('examples/get.js', 'export const main = async () => {\n  await doc.send(cmd);\n};\n'),
    'example',
  );
  assert.equal(fileRole('src/seed.py', 'import boto3\n\nif __name__ == "__main__":\n    seed()\n'), 'script');
  assert.equal(fileRole('src/repo.ts', 'import { describe, it } from "vitest";\n'), 'test');
  assert.equal(fileRole('lib/dao.py', 'import boto3\n\n\ndef put(pk):\n    table.put_item(Item={"pk": pk})\n'), 'app');
});

test('the path decides when the content says nothing; test file names always make a test', () => {
  assert.equal(pathRole('tests/helpers/load.py'), 'test');
  assert.equal(pathRole('scripts/backfill.ts'), 'script');
  assert.equal(pathRole('samples/query.js'), 'example');
  assert.equal(pathRole('src/app.ts'), null);
  assert.equal(fileRole('src/orders.test.ts', 'export function f() {}\n'), 'test');
  assert.equal(fileRole('conftest.py', 'def f():\n    pass\n'), 'test');
  assert.equal(fileRole('migrations/001.ts', 'await doc.send(cmd);\n'), 'script');
});

test('value shapes: sample items versus shared partitions', () => {
  for (const v of [
    'alice@example.com',
    '3f2b9a1e-6c1d-4e0b-9a55-0f5d2c7e8b11',
    '01HZX3K9Q2M4N5P6R7S8T9V0WX',
    '2015',
    'USER#1001',
    'Somewhat Famous',
    'John Smith',
    'USER#alice',
  ])
    assert.equal(valueShape(v), 'entity', v);
  for (const v of ['ALL', 'LEADERBOARD#GLOBAL', 'config', 'FEED#recent', 'STREAM#main', 'default', 'COUNTER#match'])
    assert.equal(valueShape(v), 'collection', v);
  assert.equal(valueShape(''), 'empty');
  assert.equal(valueShape('Allowed_CIDRs'), 'other');
});

test('projects: the nearest package.json or requirements.txt; two services are two projects', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-projects-'));
  try {
    for (const [f, t] of Object.entries({
      'a/package.json': '{}',
      'a/src/x.ts': '',
      'b/requirements.txt': '',
      'b/app/y.py': '',
      'a/src/z.ts': '',
    })) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), t);
    }
    assert.equal(projectRootOf(path.join(dir, 'a/src/x.ts')), path.join(dir, 'a'));
    assert.equal(projectRootOf(path.join(dir, 'b/app/y.py')), path.join(dir, 'b'));
    assert.ok(sameProject(path.join(dir, 'a/src/x.ts'), path.join(dir, 'a/src/z.ts')));
    assert.ok(!sameProject(path.join(dir, 'a/src/x.ts'), path.join(dir, 'b/app/y.py')));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('names: format suffixes are dropped before classifying; PKEY, SKEY and GSI_1_PK are key attributes', () => {
  assert.deepEqual(classifyName('day_str'), { kind: 'time', time: 'bucket' });
  assert.deepEqual(classifyName('dateIso'), { kind: 'time', time: 'bucket' });
  assert.deepEqual(classifyName('created_fmt'), { kind: 'time', time: 'instant' });
  assert.deepEqual(classifyName('user_id_str'), { kind: 'entity-id' });
  for (const n of ['PKEY', 'GSI_1_PK', 'gsi1pk', 'GSI1PK', 'lsi2_pk']) assert.ok(isPartitionKeyName(n), n);
  for (const n of ['SKEY', 'GSI_1_SK', 'gsi1_sk']) assert.ok(isSortKeyName(n), n);
  assert.ok(!isPartitionKeyName('PK1') && !isSortKeyName('pkey'));
});

test('--contexts takes a comma list of app, test, example, script and refuses other words', async () => {
  const { parseArgs, UsageError } = await import('../../server/src/cli/args');
  const parsed = parseArgs(['check', 'src', '--contexts', 'app,script']);
  assert.equal(parsed.command, 'check');
  assert.deepEqual(parsed.command === 'check' ? parsed.options.contexts : null, ['app', 'script']);
  assert.throws(() => parseArgs(['check', '--contexts', 'app,prod']), UsageError);
});

test('a module of functions under scripts/ is the script’s (info at most); a handler there is still app code', async () => {
  const { analyzeSource } = await import('../../server/src/engine/analyze');
  const { initParsers } = await import('../../server/src/engine/syntax/parser');
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-scripts-'));
  try {
    fs.writeFileSync(path.join(dir, 'requirements.txt'), 'boto3\n');
    fs.mkdirSync(path.join(dir, 'scripts'));
    // A backfill helper run by hand: functions, no __main__ guard, a constant board key.
    const backfill = path.join(dir, 'scripts', 'backfill_scores.py');
    const script = `import boto3

table = boto3.resource("dynamodb").Table("leaderboard")


def backfill(rows):
    for row in rows:
        table.put_item(Item={"pk": "BOARD#global", "sk": row["id"], "score": row["score"]})
`;
    fs.writeFileSync(backfill, script);
    assert.equal(fileRole('scripts/backfill_scores.py', script), 'script');
    const findings = analyzeSource(backfill, script, 'python').findings.filter((f) => f.rule === 'SL001');
    assert.equal(findings.length, 1);
    assert.equal(findings[0].severity, 'info');
    assert.match(findings[0].message, /Context: a script, which runs once rather than per request\./);
    // A Lambda handler kept under scripts/ runs per request: still an error.
    const handler = script.replace('def backfill(rows):', 'def handler(event, context):\n    rows = event["rows"]');
    const lambda = path.join(dir, 'scripts', 'handler.py');
    fs.writeFileSync(lambda, handler);
    assert.equal(fileRole('scripts/handler.py', handler), 'app');
    const hot = analyzeSource(lambda, handler, 'python').findings.filter((f) => f.rule === 'SL001');
    assert.deepEqual(
      hot.map((f) => f.severity),
      ['error'],
    );
    // Outside scripts/, the same module of functions is a library others call per request.
    assert.equal(fileRole('app/scores.py', script), 'app');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a call made when the module loads runs once however it is indented; a call in a handler runs per request even at column 0', async () => {
  const { analyzeSource } = await import('../../server/src/engine/analyze');
  const { initParsers } = await import('../../server/src/engine/syntax/parser');
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-at-load-'));
  const severities = (name: string, text: string) => {
    const file = path.join(dir, 'src', name);
    fs.writeFileSync(file, text);
    const language = name.endsWith('.py') ? 'python' : 'javascript';
    return analyzeSource(file, text, language).findings.map((f) => `${f.rule} ${f.severity}`);
  };
  try {
    fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"notes"}');
    fs.mkdirSync(path.join(dir, 'src'));
    // A study script whose whole body is indented: a params object, then one batchGet at load.
    const indented = `const AWS = require('aws-sdk');
const documentClient = new AWS.DynamoDB.DocumentClient();

  var params = {
    RequestItems: { notes: { Keys: [{ user_id: 'ALL', timestamp: 1 }] } },
  };

  documentClient.batchGet(params, function (err, data) {
    console.log(err || data);
  });
`;
    assert.deepEqual(severities('read-ops.js', indented), ['SL001 info']);
    // An ES module reading its settings once, inside a top-level try around a top-level await.
    const settings = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
let config = {};
try {
  const { Item } = await doc.send(new GetCommand({ TableName: 'settings', Key: { pk: 'CONFIG' } }));
  config = Item ?? {};
} catch (e) {
  console.error('no settings', e);
}
export const limits = () => config;
`;
    assert.deepEqual(severities('settings.mjs', settings), ['SL001 info']);
    // The same read in a handler whose body was pasted without indentation: per request.
    const handler = `const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');
const { DynamoDBDocumentClient, GetCommand } = require('@aws-sdk/lib-dynamodb');
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

exports.handler = async (event) => {
const { Item } = await doc.send(new GetCommand({ TableName: 'settings', Key: { pk: 'CONFIG' } }));
return { statusCode: 200, body: JSON.stringify(Item) };
};
`;
    const hot = severities('handler.js', handler);
    assert.equal(hot.length, 1, hot.join());
    assert.notEqual(hot[0], 'SL001 info');
    // Python: a class body's call is not load-time code of the module's (a method is per request).
    const py = `import boto3

table = boto3.resource("dynamodb").Table("settings")


class Settings:
    def load(self):
        return table.get_item(Key={"pk": "CONFIG"})
`;
    assert.deepEqual(
      severities('settings.py', py).map((s) => s.endsWith('info')),
      [false],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
