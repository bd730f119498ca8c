import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from './helpers';
import { countCoverage, coverageOf, fileCoverage, whyUnresolved } from '../../server/src/engine/requests/coverage';
import { findCallSites } from '../../server/src/engine/analyze';
import { accessesOfCallSite } from '../../server/src/engine/requests/interpret';
import { initParsers, parse } from '../../server/src/engine/syntax/parser';
import type { Access, Hole, KeyGap, SourceLanguage } from '../../server/src/engine/model';

/** `line reason detail` per access of a snippet (1-based lines), `ok` for an understood one. */
async function reasons(file: string, text: string): Promise<string[]> {
  const r = await analyze(file, text);
  return r.accesses.map((a) => {
    const why = whyUnresolved(a);
    return `${a.span.startLine + 1} ${why ? `${why.reason}: ${why.detail}` : 'ok'}`;
  });
}

const TS_HEAD = `import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { keyFor } from 'key-helpers';
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
`;

test('TypeScript: each way a key goes unread has its reason, and resolved keys have none', async () => {
  const src =
    TS_HEAD +
    `export const saveBoard = () => doc.send(new PutCommand({ TableName: 'scores', Item: { pk: 'BOARD#global', sk: 'x' } }));
export const byUser = (userId: string) => doc.send(new GetCommand({ TableName: 'users', Key: { pk: \`USER#\${userId}\` } }));
export const fromEnv = () => doc.send(new GetCommand({ TableName: 'cfg', Key: { pk: process.env.CONFIG_KEY } }));
export const fromConfig = () => doc.send(new GetCommand({ TableName: 'cfg', Key: { pk: config.defaultPartition } }));
export const fromEvent = (event: any) => doc.send(new GetCommand({ TableName: 'events', Key: { pk: event.pk } }));
export const fromCall = (id: string) => doc.send(new GetCommand({ TableName: 'events', Key: { pk: keyFor(id) } }));
export const opaque = (k: string) => doc.send(new GetCommand({ TableName: 'events', Key: { pk: \`ITEM#\${k}\` } }));
export const noTable = (t: string, userId: string) => doc.send(new GetCommand({ TableName: t, Key: { pk: userId } }));
export const global = () => doc.send(new GetCommand({ TableName: 'events', Key: { pk: currentPartition } }));
`;
  assert.deepEqual(await reasons('svc.ts', src), [
    '5 ok',
    '6 ok',
    '7 environment-or-config: pk from process.env.CONFIG_KEY',
    '8 environment-or-config: pk from config.defaultPartition',
    '9 input-field: pk from event.pk',
    '10 external-function: pk from keyFor(id)',
    // A literal prefix does not resolve a key: `ITEM#{k}` may be hot or not, and nothing calls opaque().
    '11 parameter-without-callers: pk from parameter k',
    '12 table-unknown: the table from t',
    '13 unknown-value: pk from currentPartition',
  ]);
});

test('Python: environment reads, event fields and library calls', async () => {
  const src = `import os
import boto3
from keylib import partition_for
table = boto3.resource("dynamodb").Table(os.environ["TABLE"])

def handler(event, context):
    table.get_item(Key={"pk": event["pk"]})
    table.get_item(Key={"pk": os.environ["HOME_KEY"]})
    table.get_item(Key={"pk": partition_for(event)})
    table.put_item(Item={"pk": "FEED#recent", "sk": context.aws_request_id})

def save(partition, body):
    table.put_item(Item={"pk": partition, "body": body})
`;
  assert.deepEqual(await reasons('handler.py', src), [
    "7 input-field: pk from event['pk']".replace("'pk'", '"pk"'),
    '8 environment-or-config: pk from os.environ["HOME_KEY"]',
    '9 external-function: pk from partition_for(event)',
    '10 ok',
    '13 parameter-without-callers: pk from parameter partition',
  ]);
});

test('a key nested deeper than evaluation follows is an evaluation limit, not the code', async () => {
  const deep = '('.repeat(100) + '"BOARD#global"' + ')'.repeat(100);
  const src = `import boto3\ntable = boto3.resource("dynamodb").Table("t")\ntable.put_item(Item={"pk": ${deep}})\n`;
  const [line] = await reasons('deep.py', src);
  assert.match(line, /^3 evaluation-limit: pk \(nested too deep\)$/);
});

/** Call sites of a snippet read as accesses with the gap `accessesOfCallSite` is to note on each key it cannot read. */
async function withGaps(file: string, language: SourceLanguage, text: string): Promise<Access[]> {
  await initParsers();
  const tree = parse(language, text, 3000);
  try {
    return findCallSites(tree, text, file, language).flatMap((s) => accessesOfCallSite(s));
  } finally {
    tree.delete();
  }
}

test('a request with no readable key: passed in, built by a library, spread in, or without a key', async () => {
  const ts = await withGaps(
    'repo.ts',
    'typescript',
    TS_HEAD +
      `import { buildPut } from 'request-builders';
export const put = (params: any) => doc.send(new PutCommand(params));
export const built = (x: string) => doc.send(new PutCommand(buildPut(x)));
export const cond = (c: string) => doc.send(new QueryCommand({ TableName: 'a', KeyConditionExpression: c }));
export const noValues = () => doc.send(new QueryCommand({ TableName: 'a', KeyConditionExpression: 'pk = :p' }));
`,
  );
  const py = await withGaps(
    'repo.py',
    'python',
    `import boto3\nfrom builders import make_item\ntable = boto3.resource("dynamodb").Table("t")\n` +
      `def a(req):\n    table.put_item(**req)\ndef b(x):\n    table.put_item(Item=make_item(x))\n`,
  );
  const why = (a: Access) => {
    const w = whyUnresolved(a)!;
    return `${w.reason}: ${w.detail}`;
  };
  assert.deepEqual([...ts, ...py].map(why), [
    'request-passed-in: the request from parameter params',
    'external-function: the request from buildPut(x)',
    'request-passed-in: KeyConditionExpression from parameter c',
    'no-key-in-request: no ExpressionAttributeValues',
    'request-passed-in: the request',
    'external-function: Item from make_item(x)',
  ]);
});

/** A hand-built access with this partition key (null: none read) and table. */
function access(parts: Array<string | Hole> | null, table: Access['table'], keyGap?: KeyGap): Access {
  const span = { startLine: 3, startColumn: 4, endLine: 3, endColumn: 20 };
  const template = { parts: (parts ?? []).map((p) => (typeof p === 'string' ? { literal: p } : { hole: p })) };
  const pk = parts ? { attribute: 'pk', template, span, inline: true, use: span, via: [] } : null;
  return {
    ...{ file: 'f.ts', language: 'typescript', operation: 'GetItem', kind: 'read', sdk: 'lib-dynamodb', table },
    ...{ index: null, span, partitionKey: pk, sortKey: null, sortCondition: null, read: null },
    call: {
      receiver: 'doc',
      form: 'send-command',
      callee: 'GetCommand',
      async: true,
      statement: span,
      indent: '',
      atLoad: false,
    },
    ...{ increments: false, paginated: false, limited: false, itemBytes: null },
    ...(keyGap ? { keyGap } : {}),
  } as Access;
}

test('a parameter nothing gave a value is named, before what else the key holds', () => {
  const t = { kind: 'literal', name: 'users' } as const;
  const param: Hole = { kind: 'unknown', source: 'userKey', param: { name: 'userKey', index: 0 } };
  const env: Hole = { kind: 'unknown', source: 'process.env.PREFIX' };
  assert.deepEqual(whyUnresolved(access([env, '#', param], t)), {
    reason: 'parameter-without-callers',
    span: { startLine: 3, startColumn: 4, endLine: 3, endColumn: 20 },
    subject: 'pk',
    source: 'userKey',
    parameter: true,
    detail: 'pk from parameter userKey',
  });
  // A request passed in as a parameter is a request passed in, whatever its name.
  const request: KeyGap = {
    field: 'request',
    hole: { kind: 'unknown', source: 'input', param: { name: 'input', index: 1 } },
  };
  assert.equal(whyUnresolved(access(null, t, request))?.reason, 'request-passed-in');
  // The budget is the tool's doing: it explains the key before the parameter does.
  const spent: Hole = { kind: 'unknown', source: 'x', limit: 'budget' };
  assert.equal(whyUnresolved(access([param, spent], t))?.detail, 'pk (evaluation budget spent)');
  // An entity id spreads the key whatever the unread part is: understood.
  assert.equal(whyUnresolved(access([{ kind: 'entity-id', source: 'id' }, '#', param], t)), null);
  // Without the gap (an older model), an unread key is still counted, not dropped.
  assert.equal(whyUnresolved(access(null, t))?.reason, 'no-key-in-request');
});

test('coverageOf counts every access once and groups the rest by reason, most frequent first', async () => {
  const a = await analyze(
    'svc.ts',
    TS_HEAD +
      `export const x = () => doc.send(new GetCommand({ TableName: 'a', Key: { pk: process.env.K1 } }));
export const y = () => doc.send(new GetCommand({ TableName: 'a', Key: { pk: process.env.K2 } }));
export const z = (event: any) => doc.send(new GetCommand({ TableName: 'a', Key: { pk: event.id2 } }));
export const w = () => doc.send(new PutCommand({ TableName: 'a', Item: { pk: 'COUNTER' } }));
`,
  );
  const c = coverageOf([a, { file: 'empty.ts', accesses: [] }]);
  assert.equal(c.calls, 4);
  assert.equal(c.resolved, 1);
  assert.deepEqual(
    c.unresolved.map((u) => [u.reason, u.count, u.sites.map((s) => `${s.file}:${s.span.startLine + 1} ${s.detail}`)]),
    [
      ['environment-or-config', 2, ['svc.ts:5 pk from process.env.K1', 'svc.ts:6 pk from process.env.K2']],
      ['input-field', 1, ['svc.ts:7 pk from event.id2']],
    ],
  );
  assert.deepEqual(coverageOf([]), { calls: 0, resolved: 0, unresolved: [] });
});

test('a wrapper call that callers in other modules reach is judged at them, not counted as unread', () => {
  const t = { kind: 'literal', name: 'messages' } as const;
  const param: Hole = { kind: 'unknown', source: 'pk', param: { name: 'pk', index: 0 } };
  const wrapper = { ...access([param], t), file: 'lib/db.js' };
  const caller: Access = {
    ...access(['ROOM#lobby'], t),
    file: 'lib/lobby.js',
    through: { file: 'lib/db.js', span: wrapper.span },
  };
  const alone = coverageOf([{ file: 'lib/db.js', accesses: [wrapper] }]);
  assert.deepEqual([alone.resolved, alone.unresolved.map((u) => u.reason)], [0, ['parameter-without-callers']]);
  const both = coverageOf([
    { file: 'lib/db.js', accesses: [wrapper] },
    { file: 'lib/lobby.js', accesses: [caller] },
  ]);
  assert.deepEqual([both.calls, both.resolved, both.unresolved], [2, 2, []]);
  // The language server keeps each file's part and joins them: the same counts.
  assert.deepEqual(countCoverage([fileCoverage([wrapper])]), { calls: 1, resolved: 0 });
  assert.deepEqual(countCoverage([fileCoverage([wrapper]), fileCoverage([caller])]), { calls: 2, resolved: 2 });
});
