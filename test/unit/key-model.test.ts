import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from './helpers';
import { render } from '../../server/src/engine/model/template';
import type { Access, Span } from '../../server/src/engine/model';
import { moveSpans } from '../../server/src/engine/syntax/positions';

/** The text a span covers, for readable assertions. */
function textAt(src: string, s: Span): string {
  const lines = src.split('\n');
  if (s.startLine === s.endLine) return lines[s.startLine].slice(s.startColumn, s.endColumn);
  return [
    lines[s.startLine].slice(s.startColumn),
    ...lines.slice(s.startLine + 1, s.endLine),
    lines[s.endLine].slice(0, s.endColumn),
  ].join('\n');
}

const REPOSITORY_TS = `import { DynamoDBDocumentClient, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";

const docClient = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TABLE_NAME = "leaderboard";
const BOARD_PREFIX = "BOARD";
const GLOBAL_BOARD = BOARD_PREFIX + "#global";
export const BOARD_SHARDS = 10;

export class ScoreRepository {
  async save(playerId: string, score: number) {
    const shard = Math.floor(Math.random() * BOARD_SHARDS);
    await docClient.send(
      new PutCommand({
        TableName: TABLE_NAME,
        Item: { PK: \`\${GLOBAL_BOARD}#\${shard}\`, SK: \`PLAYER#\${playerId}\`, score },
      }),
    );
  }

  async recent(kind: string, from: string, to: string) {
    const { Items } = await docClient.send(
      new QueryCommand({
        TableName: TABLE_NAME,
        IndexName: "byKind",
        KeyConditionExpression: "#k = :k AND #ts BETWEEN :from AND :to",
        ExpressionAttributeNames: { "#k": "kind", "#ts": "createdAt" },
        ExpressionAttributeValues: { ":k": kind, ":from": from, ":to": to },
        Limit: 25,
        ScanIndexForward: false,
        ProjectionExpression: "PK, score",
      }),
    );
    return Items;
  }

  top() {
    return docClient.send(new QueryCommand({
      TableName: TABLE_NAME,
      KeyConditionExpression: "PK = :pk AND begins_with(SK, :p)",
      ExpressionAttributeValues: { ":pk": GLOBAL_BOARD, ":p": "PLAYER#" },
    }));
  }
}
`;

test('a key built from constants keeps each part origin and the declarations it came through', async () => {
  const r = await analyze('repo.ts', REPOSITORY_TS);
  const put = r.accesses.find((a) => a.operation === 'PutItem')!;
  const pk = put.partitionKey!;
  assert.equal(render(pk.template), 'BOARD#global#{shard 0..9}');
  // `BOARD_PREFIX + "#global"` stays two literal parts, each where it is written.
  const literals = pk.template.parts.filter((p) => 'literal' in p);
  assert.deepEqual(
    literals.map((p) => [('literal' in p && p.literal) || '', textAt(REPOSITORY_TS, p.origin!.span)]),
    [
      ['BOARD', '"BOARD"'],
      ['#global', '"#global"'],
      ['#', '#'],
    ],
  );
  assert.deepEqual(
    literals[0].origin!.via.map((d) => d.name),
    ['GLOBAL_BOARD', 'BOARD_PREFIX'],
  );
  assert.equal(literals[0].origin!.file, 'repo.ts');
  assert.equal(textAt(REPOSITORY_TS, literals[0].origin!.via[1].span), 'BOARD_PREFIX = "BOARD"');
  // The key enters the request at its property.
  assert.equal(textAt(REPOSITORY_TS, pk.use), 'PK: `${GLOBAL_BOARD}#${shard}`');
});

test('the shard part keeps its range and its count constant', async () => {
  const r = await analyze('repo.ts', REPOSITORY_TS);
  const pk = r.accesses.find((a) => a.operation === 'PutItem')!.partitionKey!;
  const part = pk.template.parts.find((p) => 'hole' in p && p.hole.kind === 'shard')!;
  assert.ok('hole' in part);
  // Its origin is the expression that draws the shard; the key reached it through `shard`.
  assert.equal(textAt(REPOSITORY_TS, part.origin!.span), 'Math.floor(Math.random() * BOARD_SHARDS)');
  assert.deepEqual(
    part.origin!.via.map((d) => d.name),
    ['shard'],
  );
  const count = part.hole.shards!.count!;
  assert.equal(count.expression, 'BOARD_SHARDS');
  assert.equal(count.name, 'BOARD_SHARDS');
  assert.equal(count.value, 10);
  assert.equal(textAt(REPOSITORY_TS, count.declaration!.span), 'BOARD_SHARDS = 10');
});

test('a constant key used by name: the use site is the name, the declaration is kept', async () => {
  const r = await analyze('repo.ts', REPOSITORY_TS);
  const top = r.accesses.find((a) => a.operation === 'Query' && !a.index)!;
  const pk = top.partitionKey!;
  assert.equal(textAt(REPOSITORY_TS, pk.span), 'GLOBAL_BOARD');
  assert.ok(pk.inline);
  assert.equal(textAt(REPOSITORY_TS, pk.use), '":pk": GLOBAL_BOARD');
  assert.deepEqual(
    pk.via.map((d) => d.name),
    ['GLOBAL_BOARD'],
  );
  assert.deepEqual(top.sortCondition && [top.sortCondition.attribute, top.sortCondition.operator], [
    'SK',
    'begins_with',
  ]);
  assert.equal(render(top.sortCondition!.operands[0].template), 'PLAYER#');
  // Written as `return client.send(...)` in a method that is not async.
  assert.equal(top.call.async, false);
  assert.equal(top.call.receiver, 'docClient');
  assert.equal(textAt(REPOSITORY_TS, top.call.statement).split('\n')[0], 'return docClient.send(new QueryCommand({');
  assert.equal(top.call.indent, '    ');
});

test('a read keeps its index, BETWEEN operands, limit, order, projection and aliases', async () => {
  const r = await analyze('repo.ts', REPOSITORY_TS);
  const q = r.accesses.find((a) => a.index === 'byKind')!;
  assert.equal(q.partitionKey!.attribute, 'kind');
  assert.equal(q.sortCondition!.operator, 'BETWEEN');
  assert.equal(q.sortCondition!.attribute, 'createdAt');
  assert.deepEqual(
    q.sortCondition!.operands.map((o) => textAt(REPOSITORY_TS, o.use)),
    ['":from": from', '":to": to'],
  );
  const { written, ...read } = q.read!;
  assert.deepEqual(read, {
    limit: 25,
    scanIndexForward: false,
    projection: 'PK, score',
    shaping: ['ProjectionExpression'],
    names: { '#k': 'kind', '#ts': 'createdAt' },
    exclusiveStartKey: false,
    paginator: false,
    consistent: false,
  });
  // The request as written, for a reader of every shard that sends its projection on.
  assert.equal(textAt(REPOSITORY_TS, written!.fields.ProjectionExpression.span), '"PK, score"');
  assert.equal(written!.fields.ProjectionExpression.literal, 'PK, score');
  assert.deepEqual(
    written!.values!.map((e) => textAt(REPOSITORY_TS, e.pair!)),
    ['":k": kind', '":from": from', '":to": to'],
  );
  assert.deepEqual(
    written!.names!.map((e) => e.alias),
    ['#k', '#ts'],
  );
  assert.equal(q.call.form, 'send-command');
  assert.equal(q.call.callee, 'QueryCommand');
  assert.equal(q.call.async, true);
  assert.equal(q.table.kind === 'literal' && q.table.via?.[0]?.name, 'TABLE_NAME');
});

const DAO_PY = `import os
import random

import boto3
from boto3.dynamodb.conditions import Key

EVENTS_TABLE = os.environ["EVENTS_TABLE"]
SHARD_COUNT = 8
dynamodb = boto3.resource("dynamodb")


class EventDao:
    def __init__(self):
        self.table = dynamodb.Table(EVENTS_TABLE)

    def append(self, day, event_id):
        shard = random.randrange(SHARD_COUNT)
        self.table.put_item(Item={"pk": f"EVENTS#{day}#{shard}", "sk": event_id})

    def window(self, day, start, end):
        for shard in range(SHARD_COUNT):
            resp = self.table.query(
                KeyConditionExpression=Key("pk").eq(f"EVENTS#{day}#{shard}") & Key("sk").between(start, end),
                ScanIndexForward=True,
            )
            yield from resp["Items"]
`;

test('boto3: call style, shard counts of randrange and range loops, BETWEEN through Key()', async () => {
  const r = await analyze('dao.py', DAO_PY);
  const [put, query] = r.accesses;
  assert.equal(put.call.form, 'boto3-table');
  assert.equal(put.call.receiver, 'self.table');
  assert.equal(put.call.callee, 'put_item');
  assert.equal(put.call.indent, '        ');
  assert.equal(put.table.kind, 'env');
  const writerShard = put.partitionKey!.template.parts.find((p) => 'hole' in p && p.hole.kind === 'shard');
  assert.ok(writerShard && 'hole' in writerShard);
  assert.equal(writerShard.hole.shards!.count!.name, 'SHARD_COUNT');
  assert.equal(writerShard.hole.shards!.count!.value, 8);
  assert.equal(textAt(DAO_PY, writerShard.hole.shards!.count!.declaration!.span), 'SHARD_COUNT = 8');
  assert.equal(textAt(DAO_PY, put.partitionKey!.use), '"pk": f"EVENTS#{day}#{shard}"');

  const readerShard = query.partitionKey!.template.parts.find((p) => 'hole' in p && p.hole.kind === 'shard');
  assert.ok(readerShard && 'hole' in readerShard);
  assert.equal(readerShard.hole.shards!.method, 'loop');
  assert.equal(readerShard.hole.shards!.count!.name, 'SHARD_COUNT');
  assert.equal(query.sortCondition!.operator, 'BETWEEN');
  assert.equal(query.sortCondition!.operands.length, 2);
  assert.equal(textAt(DAO_PY, query.partitionKey!.use), 'Key("pk").eq(f"EVENTS#{day}#{shard}")');
  assert.equal(query.read!.scanIndexForward, true);
  assert.equal(query.call.async, false);
});

test('SDK v2 call forms: .promise(), callback, and the low-level client', async () => {
  const src = `const AWS = require("aws-sdk");
const dynamo = new AWS.DynamoDB.DocumentClient();
exports.handler = async (event) => {
  await dynamo.put({ TableName: "orders", Item: { pk: "ORDER#" + event.id } }).promise();
  dynamo.get({ TableName: "orders", Key: { pk: "STATS" } }, (err, data) => console.log(err, data));
};`;
  const r = await analyze('handler.js', src);
  assert.deepEqual(
    r.accesses.map((a: Access) => [a.call.form, a.call.receiver, a.call.callee, a.call.async]),
    [
      ['v2-promise', 'dynamo', 'put', true],
      ['v2-callback', 'dynamo', 'get', true],
    ],
  );
});

test('moveSpans moves every span of plain data, keeps identity where nothing moves, and skips other files', () => {
  const at = (l: number): Span => ({ startLine: l, startColumn: 0, endLine: l, endColumn: 1 });
  const data = {
    file: 'a.ts',
    span: at(5),
    nested: [{ origin: { file: 'a.ts', span: at(7), via: [] } }, { origin: { file: 'b.ts', span: at(7), via: [] } }],
    still: { span: at(1) },
  };
  const moved = moveSpans(
    data,
    (s) => (s.startLine >= 5 ? { ...s, startLine: s.startLine + 1, endLine: s.endLine + 1 } : s),
    'a.ts',
  );
  assert.equal(moved.span.startLine, 6);
  assert.equal(moved.nested[0].origin.span.startLine, 8);
  assert.equal(moved.nested[1], data.nested[1], 'an origin in another file keeps its position');
  assert.equal(moved.still, data.still, 'unmoved parts stay the same object');
  assert.equal(
    moveSpans(data, (s) => s, 'a.ts'),
    data,
  );
});

test("a file's imports: ES modules, require destructuring, Python from-imports", async () => {
  const ts = await analyze('repo.ts', REPOSITORY_TS);
  assert.deepEqual(
    ts.imports.map((i) => [i.module, i.names]),
    [
      ['@aws-sdk/lib-dynamodb', ['DynamoDBDocumentClient', 'PutCommand', 'QueryCommand']],
      ['@aws-sdk/client-dynamodb', ['DynamoDBClient']],
    ],
  );
  const js = await analyze(
    'h.js',
    `const { DynamoDBClient } = require("@aws-sdk/client-dynamodb");
const AWS = require("aws-sdk");
const doc = new AWS.DynamoDB.DocumentClient();
exports.h = () => doc.put({ TableName: "t", Item: { pk: "X" } }).promise();`,
  );
  assert.deepEqual(
    js.imports.map((i) => [i.module, i.names, i.span.startLine]),
    [
      ['@aws-sdk/client-dynamodb', ['DynamoDBClient'], 0],
      ['aws-sdk', ['default as AWS'], 1],
    ],
  );
  const py = await analyze('dao.py', DAO_PY);
  assert.deepEqual(
    py.imports.map((i) => [i.module, i.names]),
    [
      ['os', []],
      ['random', []],
      ['boto3', []],
      ['boto3.dynamodb.conditions', ['Key']],
    ],
  );
});
