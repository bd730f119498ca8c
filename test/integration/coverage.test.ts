import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import type { JsonCoverage } from '../../protocol/src/report';
import { coverageSummary } from '../../protocol/src/lsp';
import { ROOT, startServer, until, type Session } from './lsp-client';

/**
 * "No finding" told from "not understood", through what users run: the built CLI
 * (`check --stats`, `--format json`, `--format sarif`) and the language server over
 * stdio (the status counts, the hover on a call it could not read).
 */

const HANDLER_TS = `import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { pk: string }) =>
  doc.send(new GetCommand({ TableName: 'inbox', Key: { pk: event.pk } }));

export async function save(partition: string, body: string) {
  await doc.send(new PutCommand({ TableName: 'inbox', Item: { pk: partition, body } }));
}

export const board = () => doc.send(new PutCommand({ TableName: 'scores', Item: { pk: 'BOARD#global' } }));
`;

const SETTINGS_PY = `import os
import boto3

table = boto3.resource("dynamodb").Table(os.environ["SETTINGS_TABLE"])


def load_defaults():
    return table.get_item(Key={"pk": os.environ["DEFAULTS_KEY"]})


def by_user(user_id):
    return table.get_item(Key={"pk": f"USER#{user_id}"})
`;

let dir: string;

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-coverage-'));
  fs.writeFileSync(path.join(dir, 'handler.ts'), HANDLER_TS);
  fs.writeFileSync(path.join(dir, 'settings.py'), SETTINGS_PY);
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'shardlens.js'), 'check', '.', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  assert.equal(r.status, 1, r.stderr); // the constant key is an error
  return r.stdout;
}

test('check --stats prints what was understood and why the rest was not, after the summary', () => {
  const out = cli('--stats');
  const tail = out.slice(out.indexOf('1 finding'));
  assert.equal(
    tail,
    [
      '1 finding (1 error, 0 warnings, 0 info) in 5 DynamoDB calls across 2 files.',
      '',
      'Coverage: 2 of 5 DynamoDB calls understood (40%); not understood:',
      '  1  key from a parameter no caller in the workspace gives a value',
      '       handler.ts:9:67  pk from parameter partition',
      '  1  key from an environment variable or a configuration object',
      '       settings.py:8:38  pk from os.environ["DEFAULTS_KEY"]',
      '  1  key from a field of an input the code receives (an event, a request body)',
      '       handler.ts:6:60  pk from event.pk',
      // The exported handler taking an event is a Lambda handler: the one call it makes is reached.
      'Entry points: 1 of 5 DynamoDB calls reached from a known entry point (20%).',
      '',
    ].join('\n'),
  );
  // Without the flag the text output is as before.
  assert.doesNotMatch(cli(), /Coverage:/);
});

test('the JSON coverage adds the counts and the sites by reason; SARIF carries the counts', () => {
  const report = JSON.parse(cli('--format', 'json')) as { accesses: unknown[]; coverage: JsonCoverage };
  const c = report.coverage;
  assert.equal(c.calls, report.accesses.length);
  assert.equal(c.resolved! + c.unresolved!.reduce((n, u) => n + u.count, 0), c.calls);
  assert.deepEqual(
    { files: c.files, keysTooDeep: c.keysTooDeep, resolved: c.resolved },
    { files: 2, keysTooDeep: 0, resolved: 2 },
  );
  assert.deepEqual(
    c.unresolved!.map((u) => [u.reason, u.sites.map((s) => `${s.file}:${s.line}:${s.column} ${s.detail}`)]),
    [
      ['parameter-without-callers', ['handler.ts:9:67 pk from parameter partition']],
      ['environment-or-config', ['settings.py:8:38 pk from os.environ["DEFAULTS_KEY"]']],
      ['input-field', ['handler.ts:6:60 pk from event.pk']],
    ],
  );
  const sarif = JSON.parse(cli('--format', 'sarif'));
  assert.deepEqual(sarif.runs[0].properties.coverage, {
    calls: 5,
    resolved: 2,
    unresolved: c.unresolved!.map(({ reason, label, count }) => ({ reason, label, count })),
  });
});

test('a helper that a caller in another module reaches counts as understood: its key is judged at the caller', () => {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-coverage-wrapper-'));
  try {
    fs.mkdirSync(path.join(repo, 'lib'));
    fs.writeFileSync(path.join(repo, 'package.json'), '{ "name": "chat" }\n');
    const db = [
      'const AWS = require("aws-sdk");',
      'const client = new AWS.DynamoDB.DocumentClient();',
      'function save(pk, sk, body) {',
      '  return client.put({ TableName: "messages", Item: { pk, sk, body } }).promise();',
      '}',
      'module.exports = { save };',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(repo, 'lib', 'db.js'), db);
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, 'bin', 'shardlens.js'), 'check', '.', '--stats', ...args], {
        cwd: repo,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      }).stdout;
    // Alone, the helper's key is a parameter nothing gives a value.
    assert.match(run(), /0 of 1 DynamoDB call understood \(0%\)[\s\S]*lib\/db\.js:4:54 {2}pk from parameter pk/);
    fs.writeFileSync(
      path.join(repo, 'lib', 'lobby.js'),
      'const { save } = require("./db");\nexports.post = async (id, text) => {\n  await save("ROOM#lobby", id, text);\n};\n',
    );
    const out = run();
    assert.match(out, /lib\/lobby\.js:3:14 error SL001/);
    assert.match(out, /Coverage: all 2 DynamoDB calls understood\./);
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
});

test('the server sends the counts with its status, and the hover on an unread call says why', async (t) => {
  const session: Session = startServer(dir);
  t.after(() => session.stop());
  await session.initialize();
  const status = await until(
    'indexing to finish',
    () => session.statuses.find((s) => !s.indexing && s.errors === 1),
    () => session.statuses.at(-1),
  );
  const counts = status as unknown as { calls: number; resolved: number };
  assert.deepEqual({ calls: counts.calls, resolved: counts.resolved }, { calls: 5, resolved: 2 });
  assert.match(coverageSummary(counts), /^40% of 5 DynamoDB calls understood: 3 could not be read/);

  const uri = pathToFileURL(path.join(dir, 'handler.ts')).toString();
  await session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'typescript', version: 1, text: HANDLER_TS },
  });
  const hover = async (line: number, character: number) => {
    const h = (await session.conn.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: { line, character },
    })) as Hover | null;
    return (h?.contents as MarkupContent | undefined)?.value ?? '';
  };
  const onEvent = await hover(5, 62); // on `event.pk`
  assert.match(
    onEvent,
    /\*\*Not understood:\*\* key from a field of an input the code receives \(an event, a request body\) — `pk` from `event\.pk`\./,
  );
  assert.match(onEvent, /Name the value after what it identifies/);
  const onParam = await hover(8, 70); // on `partition`
  assert.match(
    onParam,
    /\*\*Not understood:\*\* key from a parameter no caller in the workspace gives a value — `pk` from parameter `partition`\./,
  );
  assert.match(onParam, /Include the code that calls this function in the analysed paths/);
  const onConstant = await hover(11, 90); // on 'BOARD#global': understood, and a finding
  assert.doesNotMatch(onConstant, /Not understood/);
  assert.match(onConstant, /SL001/);
});
