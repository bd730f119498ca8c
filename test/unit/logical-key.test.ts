import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  familyOf,
  keyText,
  literalShardOf,
  logicalKeyOf,
  logicalKeysOf,
  shardShape,
  withoutShard,
} from '../../server/src/engine/keys/logical-key';
import { sameTable, tableLabel, tableName } from '../../server/src/engine/keys/table';
import type { KeyTemplate, Origin } from '../../server/src/engine/model';
import { render } from '../../server/src/engine/model/template';
import { analyze } from './helpers';

const ids = (accesses: Parameters<typeof logicalKeysOf>[0][]) => accesses.map((a) => logicalKeyOf(a)?.id ?? null);

test('writers of any shard set, a bare read and a literal-shard read share one logical key per table', async () => {
  const r = await analyze(
    'board.ts',
    `import { PutCommand, QueryCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
const TABLE = 'leaderboard';
export const w = (id: string) => ddb.send(new PutCommand({ TableName: TABLE, Item: { PK: \`BOARD#global#\${Math.floor(Math.random() * 10)}\`, SK: id } }));
export const bare = () => ddb.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': 'BOARD#global' } }));
export const one = (id: string) => ddb.send(new GetCommand({ TableName: TABLE, Key: { PK: 'BOARD#global#3', SK: id } }));
export const other = () => ddb.send(new QueryCommand({ TableName: 'archive', KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': 'BOARD#global' } }));`,
  );
  assert.deepEqual(ids(r.accesses), [
    'leaderboard · PK = BOARD#global',
    'leaderboard · PK = BOARD#global',
    'leaderboard · PK = BOARD#global#3',
    'archive · PK = BOARD#global',
  ]);
  const [writer, , literal] = r.accesses;
  const key = logicalKeyOf(writer)!;
  assert.equal(key.table, 'leaderboard');
  assert.equal(key.index, null);
  assert.equal(key.attribute, 'PK');
  assert.equal(render(key.template), 'BOARD#global', 'the template has no shard part');
  assert.deepEqual(key.shards?.values, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  // The read of shard 3 is also a read of the sharded key, so it meets its writers.
  assert.deepEqual(
    logicalKeysOf(literal).map((k) => k.id),
    ['leaderboard · PK = BOARD#global#3', 'leaderboard · PK = BOARD#global'],
  );
  assert.equal(literalShardOf(literal.partitionKey!.template, shardShape(writer.partitionKey!.template)!), 3);
  // The cross-file rules group without the table: both tables' bare reads are one family.
  assert.equal(familyOf(logicalKeyOf(r.accesses[3])!), familyOf(key));
  assert.equal(familyOf(key), 'PK = BOARD#global');
});

test('a read through a secondary index is its own logical key, table/index', async () => {
  const r = await analyze(
    'gsi.ts',
    `import { QueryCommand } from '@aws-sdk/lib-dynamodb';
export const open = (status: string) => ddb.send(new QueryCommand({ TableName: 'events', IndexName: 'byStatus', KeyConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': status } }));
export const base = (status: string) => ddb.send(new QueryCommand({ TableName: 'events', KeyConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': status } }));`,
  );
  const [gsi, base] = r.accesses.map((a) => logicalKeyOf(a)!);
  assert.equal(gsi.id, 'events/byStatus · status = {low-cardinality}');
  assert.equal(gsi.index, 'byStatus');
  assert.equal(base.id, 'events · status = {low-cardinality}');
  assert.notEqual(familyOf(gsi), familyOf(base), 'never grouped with the base table');
});

test('unknown and environment tables; an unknown key has no logical key', async () => {
  const r = await analyze(
    't.py',
    `import os
import boto3
client = boto3.client("dynamodb")
def a(t):
    client.put_item(TableName=t, Item={"pk": {"S": "K"}})
def b():
    client.put_item(TableName=os.environ["EVENTS"], Item={"pk": {"S": "K"}})
def c(item):
    client.put_item(TableName="x", Item=item)`,
  );
  assert.deepEqual(ids(r.accesses), ['? · pk = K', '$EVENTS · pk = K', null]);
  const [unknown, env] = r.accesses;
  assert.equal(tableName(unknown.table), null);
  assert.equal(tableLabel(unknown.table), 'this table');
  assert.equal(tableName(env.table), '$EVENTS');
  assert.equal(tableLabel(env.table), 'table $EVENTS');
  assert.ok(sameTable(unknown.table, env.table), 'an unknown table may be any table');
  assert.ok(!sameTable(env.table, { kind: 'literal', name: 'EVENTS' }), 'an env name is not a literal name');
});

test('the shard part is cut out with its separator, wherever it is, and origins stay', () => {
  const at = (line: number): Origin => ({
    file: 'k.ts',
    span: { startLine: line, startColumn: 0, endLine: line, endColumn: 5 },
    via: [],
  });
  const shard = { hole: { kind: 'shard' as const, source: 's', shards: { method: 'hash' as const, values: [0, 1] } } };
  const middle: KeyTemplate = { parts: [{ literal: 'A#', origin: at(1) }, shard, { literal: '#B', origin: at(2) }] };
  assert.equal(keyText(middle), 'A#B');
  assert.deepEqual(withoutShard(middle), {
    parts: [
      { literal: 'A', origin: at(1) },
      { literal: '#B', origin: at(2) },
    ],
  });
  const time: KeyTemplate = {
    parts: [{ hole: { kind: 'time', time: 'bucket', source: 'd' } }, { literal: '#' }, shard],
  };
  assert.equal(keyText(time), '{time}');
  assert.deepEqual(shardShape(time), { stem: '{time}', separator: '#', suffix: '' });
  // Literal parts from two constants stay two parts: only the separator is trimmed.
  const split: KeyTemplate = { parts: [{ literal: 'BOARD', origin: at(3) }, { literal: '#', origin: at(4) }, shard] };
  assert.deepEqual(withoutShard(split).parts, [{ literal: 'BOARD', origin: at(3) }]);
});

test('a key that is only its shard (a numeric counter id) reads as {shard}, not as an empty key', async () => {
  const r = await analyze(
    'visits.py',
    `import random
import boto3

client = boto3.client('dynamodb')
VISIT_SHARDS = 10

def count_visit():
    client.update_item(
        TableName='Visits',
        Key={'count_id': {'N': str(random.randrange(VISIT_SHARDS))}},
        UpdateExpression='ADD visits :one',
        ExpressionAttributeValues={':one': {'N': '1'}},
    )
`,
  );
  const key = logicalKeyOf(r.accesses[0])!;
  assert.equal(key.id, 'Visits · count_id = {shard}');
  assert.equal(familyOf(key), 'count_id = {shard}');
  assert.deepEqual(key.shards?.values, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});
