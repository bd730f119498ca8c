import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, findingLines, summarize } from './helpers';

test('seed: the random-suffix writer and the Array.from scatter-gather reader are sharded 0..9', async () => {
  const r = await analyze(
    'events.ts',
    `const WRITE_SHARDS = 10;
async function writeEvent(date: string, event: Event) {
  const shard = Math.floor(Math.random() * WRITE_SHARDS);
  await dynamodb.put({
    TableName: "events",
    Item: { pk: \`\${date}#\${shard}\`, sk: event.eventId, ...event },
  });
}
async function readEvents(date: string): Promise<Event[]> {
  const results = await Promise.all(
    Array.from({ length: WRITE_SHARDS }, (_, i) =>
      dynamodb.query({
        TableName: "events",
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": \`\${date}#\${i}\` },
      })
    )
  );
  return results.flatMap((r) => r.Items as Event[]);
}`,
  );
  assert.deepEqual(summarize(r), [
    '6 PutItem events pk={time}#{shard 0..9} sk={entity-id} (sharded)',
    '15 Query events pk={time}#{shard 0..9} (sharded)',
  ]);
  assert.deepEqual(findingLines(r), []);
  assert.equal(r.accesses[0].sdk, 'aws-sdk-v2-document-client');
});

test('SDK v3 lib-dynamodb: constant key put is SL001 on the key line', async () => {
  const r = await analyze(
    'a.ts',
    `import { PutCommand } from '@aws-sdk/lib-dynamodb';
await ddb.send(new PutCommand({
  TableName: 'leaderboard',
  Item: { PK: 'BOARD#global', SK: \`PLAYER#\${playerId}\` },
}));`,
  );
  assert.deepEqual(summarize(r), ['4 PutItem leaderboard PK=BOARD#global SK=PLAYER#{entity-id} (constant)']);
  assert.deepEqual(findingLines(r), ['4 SL001']);
  assert.match(r.findings[0].message, /BOARD#global.*one partition/);
  assert.equal(r.accesses[0].sdk, 'lib-dynamodb');
});

test('input built in a variable first, with a constant from a module-level declaration', async () => {
  const r = await analyze(
    'b.ts',
    `const GLOBAL = 'LEADERBOARD#GLOBAL';
const params = { TableName: 'scores', Key: { pk: GLOBAL, sk: 'TOP' } };
export const top = () => ddb.send(new GetCommand(params));`,
  );
  assert.deepEqual(summarize(r), ['3 GetItem scores pk=LEADERBOARD#GLOBAL sk=TOP (constant)']);
  // The finding sits on the key expression (`pk: GLOBAL` in the params object), not on the call.
  assert.deepEqual(findingLines(r), ['2 SL001']);
});

test('SDK v3 low-level client with AttributeValue maps and marshall()', async () => {
  const r = await analyze(
    'c.ts',
    `import { PutItemCommand, GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
await client.send(new PutItemCommand({ TableName: 'users', Item: { pk: { S: \`USER#\${userId}\` }, name: { S: name } } }));
await client.send(new GetItemCommand({ TableName: 'cfg', Key: marshall({ pk: 'global-config' }) }));
await client.send(new QueryCommand({ TableName: 'cfg', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: 'global-config' } } }));`,
  );
  assert.deepEqual(summarize(r), [
    '2 PutItem users pk=USER#{entity-id} (high-cardinality)',
    '3 GetItem cfg pk=global-config (constant)',
    '4 Query cfg pk=global-config (constant)',
  ]);
  assert.deepEqual(findingLines(r), ['3 SL001', '4 SL001']);
  assert.deepEqual(
    r.accesses.map((a) => a.sdk),
    ['aws-sdk-v3', 'aws-sdk-v3', 'aws-sdk-v3'],
  );
});

test('time-bucket keys: toISOString slices and splits, SL002 on writes only', async () => {
  const r = await analyze(
    'd.ts',
    `const hourBucket = new Date().toISOString().slice(0, 13);
const day = new Date().toISOString().split("T")[0];
await ddb.send(new PutCommand({ TableName: 'logs', Item: { pk: \`LOGS#\${hourBucket}\`, sk: id } }));
await ddb.send(new PutCommand({ TableName: 'logs', Item: { pk: day, sk: id } }));
await ddb.send(new PutCommand({ TableName: 'logs', Item: { pk: 'LOGS#TODAY', sk: id } }));
await ddb.send(new QueryCommand({ TableName: 'logs', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': day } }));
await ddb.send(new PutCommand({ TableName: 'logs', Item: { pk: \`\${tenantId}#\${hourBucket}\`, sk: id } }));`,
  );
  assert.deepEqual(findingLines(r), ['3 SL002', '4 SL002', '5 SL002']);
  assert.equal(summarize(r)[3], '6 Query logs pk={time} (time-bucket)');
  assert.equal(summarize(r)[4], '7 PutItem logs pk={entity-id}#{time} sk={entity-id} (high-cardinality)');
});

test('low-cardinality keys: status fields, booleans, small literal sets', async () => {
  const r = await analyze(
    'e.ts',
    `await ddb.send(new QueryCommand({ TableName: 'orders', IndexName: 'byStatus', KeyConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': order.status } }));
await ddb.send(new PutCommand({ TableName: 'flags', Item: { pk: \`ACTIVE#\${user.isActive}\`, sk: user.id } }));
const region = ['us', 'eu', 'ap'][n];
await ddb.send(new PutCommand({ TableName: 'r', Item: { pk: region, sk: x } }));
await ddb.send(new PutCommand({ TableName: 'r', Item: { pk: premium ? 'PLAN#pro' : 'PLAN#free', sk: x } }));`,
  );
  assert.deepEqual(findingLines(r), ['1 SL003', '2 SL003', '4 SL003', '5 SL003']);
  assert.equal(summarize(r)[0], '1 Query orders status={low-cardinality} (low-cardinality)');
});

test('counter item: ADD and SET n = n + :one on a constant key are SL004; a per-player score is not', async () => {
  const r = await analyze(
    'f.ts',
    `await client.send(new UpdateItemCommand({ TableName: 'ids', Key: { pk: { S: 'COUNTER#orders' } }, UpdateExpression: 'ADD #n :one', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':one': { N: '1' } } }));
await ddb.send(new UpdateCommand({ TableName: 'ids', Key: { pk: 'SEQ' }, UpdateExpression: 'SET seq = if_not_exists(seq, :zero) + :one', ExpressionAttributeValues: { ':zero': 0, ':one': 1 } }));
await ddb.send(new UpdateCommand({ TableName: 'b', Key: { pk: \`PLAYER#\${playerId}\` }, UpdateExpression: 'SET score = score + :d', ExpressionAttributeValues: { ':d': delta } }));
await ddb.send(new UpdateCommand({ TableName: 'b', Key: { pk: 'TAGS' }, UpdateExpression: 'ADD tags :t', ExpressionAttributeValues: { ':t': new Set(['a']) } }));`,
  );
  assert.deepEqual(findingLines(r), ['1 SL004', '2 SL004', '4 SL001']);
  assert.match(r.findings[0].message, /counter on the single item "COUNTER#orders"/);
});

test('monotonic sort key under a constant key is SL005 on the sort key; under a sharded key it is fine', async () => {
  const r = await analyze(
    'g.ts',
    `await ddb.send(new PutCommand({ TableName: 'feed', Item: { pk: 'FEED', sk: Date.now() } }));
await ddb.send(new PutCommand({ TableName: 'feed', Item: { pk: \`FEED#\${Math.floor(Math.random() * 8)}\`, sk: new Date().toISOString() } }));`,
  );
  assert.deepEqual(findingLines(r), ['1 SL001', '1 SL005']);
  assert.equal(
    r.findings[1].span.startColumn,
    "await ddb.send(new PutCommand({ TableName: 'feed', Item: { pk: 'FEED', sk: ".length,
  );
  assert.equal(summarize(r)[1], '2 PutItem feed pk=FEED#{shard 0..7} sk={timestamp} (sharded)');
});

test('shard expressions: ranges 1..N, crypto.randomInt, hash mod, for loops, literal lists', async () => {
  const r = await analyze(
    'h.ts',
    `const N = 4;
ddb.put({ TableName: 't', Item: { pk: \`A#\${Math.floor(Math.random() * N) + 1}\` } });
ddb.put({ TableName: 't', Item: { pk: \`B#\${crypto.randomInt(N)}\` } });
ddb.put({ TableName: 't', Item: { pk: \`C#\${hash(userId) % N}\` } });
for (let s = 1; s <= N; s++) ddb.query({ TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': \`A#\${s}\` } });
for (const s of [0, 1, 2]) ddb.query({ TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': \`B#\${s}\` } });
await Promise.all([...Array(N).keys()].map((s) => ddb.query({ TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': \`C#\${s}\` } })));`,
  );
  const pks = summarize(r).map((s) => s.split(' ')[3]);
  assert.deepEqual(pks, ['pk=A#{shard', 'pk=B#{shard', 'pk=C#{shard', 'pk=A#{shard', 'pk=B#{shard', 'pk=C#{shard']);
  assert.deepEqual(
    summarize(r).map((s) => s.replace(/^.*\{shard ([^}]*)\}.*$/, '$1')),
    ['1..4', '0..3', '0..3', '1..4', '0..2', '0..3'],
  );
  assert.deepEqual(
    r.accesses.map(
      (a) => a.partitionKey!.template.parts.flatMap((p) => ('hole' in p ? [p.hole.shards?.method] : []))[0],
    ),
    ['random', 'random', 'hash', 'loop', 'list', 'loop'],
  );
  assert.deepEqual(findingLines(r), []);
});

test('batch and transact calls yield one access per request', async () => {
  const r = await analyze(
    'i.ts',
    `await ddb.send(new BatchWriteCommand({ RequestItems: { events: [
  { PutRequest: { Item: { pk: 'GLOBAL', sk: id } } },
  { DeleteRequest: { Key: { pk: \`USER#\${userId}\`, sk: id } } },
] } }));
await ddb.send(new TransactWriteCommand({ TransactItems: [
  { Put: { TableName: 'a', Item: { pk: \`ORDER#\${orderId}\` } } },
  { Update: { TableName: 'a', Key: { pk: 'STATS' }, UpdateExpression: 'ADD total :one', ExpressionAttributeValues: { ':one': 1 } } },
] }));
await ddb.send(new BatchGetCommand({ RequestItems: { users: { Keys: [{ pk: 'CONFIG' }] } } }));`,
  );
  assert.deepEqual(summarize(r), [
    '2 BatchWriteItem events pk=GLOBAL sk={entity-id} (constant)',
    '3 BatchWriteItem events pk=USER#{entity-id} sk={entity-id} (high-cardinality)',
    '6 TransactWriteItems a pk=ORDER#{entity-id} (high-cardinality)',
    '7 TransactWriteItems a pk=STATS (counter)',
    '9 BatchGetItem users pk=CONFIG (constant)',
  ]);
  assert.deepEqual(findingLines(r), ['2 SL001', '7 SL004', '9 SL001']);
});

test('batch requests built by .map(): one request shaped like the callback item, a computed table from the environment', async () => {
  const r = await analyze(
    'm.ts',
    `const USERS = process.env.USERS_TABLE;
await ddb.send(new BatchWriteCommand({ RequestItems: { scores: chunk.map((s) => ({ PutRequest: { Item: { pk: 'ROUND', sk: s.playerId } } })) } }));
await client.send(new BatchGetItemCommand({ RequestItems: { [USERS]: { Keys: ids.map((id) => ({ userId: { S: id } })) } } }));
await client.send(new BatchGetItemCommand({ RequestItems: { [process.env.ORDERS_TABLE]: { Keys: ids.map((id) => { return { orderId: { S: id } }; }) } } }));`,
  );
  assert.deepEqual(summarize(r), [
    '2 BatchWriteItem scores pk=ROUND sk={entity-id} (constant)',
    '3 BatchGetItem USERS_TABLE userId={entity-id} (high-cardinality)',
    '4 BatchGetItem ORDERS_TABLE orderId={entity-id} (high-cardinality)',
  ]);
});

test('process.env[NAME] with NAME a constant names the variable; with a parameter it stays unknown', async () => {
  const r = await analyze(
    'env.ts',
    `const TABLE_VAR = 'ORDERS_TABLE';
export const handler = async (event: { id: string }) => ddb.send(new GetCommand({ TableName: process.env[TABLE_VAR], Key: { pk: event.id } }));
export const read = async (variable: string, id: string) => ddb.send(new GetCommand({ TableName: process.env[variable], Key: { pk: id } }));`,
  );
  assert.deepEqual(
    r.accesses.map((a) => ({ kind: a.table.kind, name: 'name' in a.table ? a.table.name : undefined })),
    [
      { kind: 'env', name: 'ORDERS_TABLE' },
      { kind: 'unknown', name: undefined },
    ],
  );
});

test('BatchGetItem of a page of a list (`keys.slice(start, start + 100)`): the keys the list holds', async () => {
  const r = await analyze(
    'p.ts',
    `const keys = ids.map((id) => ({ pk: { S: \`USER#\${id}\` } }));
for (let start = 0; start < keys.length; start += 100)
  await client.send(new BatchGetItemCommand({ RequestItems: { users: { Keys: keys.slice(start, start + 100) } } }));
const stats = [{ pk: { S: 'STATS#global' } }];
await client.send(new BatchGetItemCommand({ RequestItems: { users: { Keys: stats.slice(0, 100) } } }));
const both = [{ pk: { S: 'OLD#1' } }, { pk: { S: 'NEW#1' } }];
await client.send(new BatchGetItemCommand({ RequestItems: { users: { Keys: both.slice(1) } } }));`,
  );
  assert.deepEqual(summarize(r), [
    '3 BatchGetItem users pk=USER#{entity-id} (high-cardinality)',
    '5 BatchGetItem users pk=STATS#global (constant)',
    // Number bounds cut the list: only the second key is asked for.
    '7 BatchGetItem users pk=NEW#1 (constant)',
  ]);
});

test('paginateQuery and ExclusiveStartKey loops count as paginated', async () => {
  const r = await analyze(
    'j.ts',
    `for await (const page of paginateQuery({ client }, { TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': \`U#\${userId}\` } })) {}
await ddb.send(new QueryCommand({ TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': \`U#\${userId}\` }, ExclusiveStartKey: start }));
await ddb.send(new QueryCommand({ TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': \`U#\${userId}\` } }));`,
  );
  assert.deepEqual(
    r.accesses.map((a) => a.paginated),
    [true, true, false],
  );
});

test('table names: literal, constant, environment variable, unknown', async () => {
  const r = await analyze(
    'k.ts',
    `const T = 'orders';
await ddb.send(new GetCommand({ TableName: T, Key: { pk: id } }));
await ddb.send(new GetCommand({ TableName: process.env.ORDERS_TABLE, Key: { pk: id } }));
await ddb.send(new GetCommand({ TableName: cfg.table(), Key: { pk: id } }));`,
  );
  assert.deepEqual(
    r.accesses.map((a) => ({ kind: a.table.kind, name: 'name' in a.table ? a.table.name : undefined })),
    [
      { kind: 'literal', name: 'orders' },
      { kind: 'env', name: 'ORDERS_TABLE' },
      { kind: 'unknown', name: undefined },
    ],
  );
  // The constant's declaration is kept: the table was resolved through it.
  const first = r.accesses[0].table;
  assert.equal(first.kind === 'literal' ? first.via?.[0]?.name : null, 'T');
});

test('negatives: Map.get, cache.set and HTTP clients are not DynamoDB calls', async () => {
  const r = await analyze(
    'l.ts',
    `// mentions DynamoDB so the pre-scan lets it through
const m = new Map(); m.get('global'); cache.put('LEADERBOARD#GLOBAL', data);
axios.get({ url: 'x' }); client.query('SELECT 1'); db.query({ text: 'x' });`,
  );
  assert.deepEqual(r.accesses, []);
});

test('JavaScript and TSX files use their own grammars', async () => {
  const js = await analyze('m.js', `ddb.put({ TableName: 'x', Item: { pk: 'ONE' } });`);
  const tsx = await analyze(
    'm.tsx',
    `const C = () => <div onClick={() => ddb.send(new PutCommand({ TableName: 'x', Item: { pk: 'ONE' } }))} />;`,
  );
  assert.deepEqual(findingLines(js), ['1 SL001']);
  assert.deepEqual(findingLines(tsx), ['1 SL001']);
});

test('syntax errors: the valid calls around the error are still analysed', async () => {
  const r = await analyze(
    'n.ts',
    `await ddb.send(new PutCommand({ TableName: 'x', Item: { pk: 'ONE' } }));
function broken( { if (
await ddb.send(new PutCommand({ TableName: 'x', Item: { pk: 'TWO' } }));`,
  );
  assert.equal(r.syntaxErrors, true);
  assert.ok(findingLines(r).includes('1 SL001'));
  assert.ok(r.accesses.length >= 1);
});

test('shardlens-ignore comments silence the named rule on the next line or their own', async () => {
  const r = await analyze(
    'o.ts',
    `// shardlens-ignore SL001
await ddb.send(new PutCommand({ TableName: 'x', Item: { pk: 'ONE' } }));
await ddb.send(new PutCommand({ TableName: 'x', Item: { pk: 'TWO' } })); // shardlens-ignore
// shardlens-ignore SL002
await ddb.send(new PutCommand({ TableName: 'x', Item: { pk: 'THREE' } }));
await ddb.send(new PutCommand({ TableName: 'x', Item: { pk: 'FOUR' } }));`,
  );
  assert.deepEqual(findingLines(r), ['5 SL001', '6 SL001']);
});

test('shardlens-ignore-next-line silences only the named rule on the line below; another suffix is no directive', async () => {
  const r = await analyze(
    'q.ts',
    `// shardlens-ignore-next-line SL002
await ddb.send(new PutCommand({ TableName: 'x', Item: { pk: 'ONE' } }));
// shardlens-ignore-next-line SL001
await ddb.send(new PutCommand({ TableName: 'x', Item: { pk: 'TWO' } }));
await ddb.send(new PutCommand({ TableName: 'x', Item: { pk: 'THREE' } })); // shardlens-ignore-next-line SL001
await ddb.send(new PutCommand({ TableName: 'x', Item: { pk: 'FOUR' } }));
await ddb.send(new PutCommand({ TableName: 'x', Item: { pk: 'FIVE' } })); // shardlens-ignores SL001`,
  );
  // THREE is reported (the directive is for the line below), FOUR is not, FIVE is.
  assert.deepEqual(findingLines(r), ['2 SL001', '5 SL001', '7 SL001']);
});

test('files without DynamoDB markers are not parsed', async () => {
  const r = await analyze('p.ts', `export const add = (a: number, b: number) => a + b;`);
  assert.deepEqual(r.accesses, []);
  assert.equal(r.skipped, null);
});

test('a list of every shard of a key (`Array.from({ length: N }, (_, s) => ...)`, spread beside its base item) is read shard by shard', async () => {
  const r = await analyze(
    'views.ts',
    `const SHARDS = 10;
const shardKeys = Array.from({ length: SHARDS }, (_, shard) => \`VIEWS#\${shard}\`);
await Promise.all(shardKeys.map((pk) => ddb.send(new GetCommand({ TableName: 'stats', Key: { pk } }))));
await Promise.all(['VIEWS', ...shardKeys].map((pk) => ddb.send(new GetCommand({ TableName: 'stats', Key: { pk } }))));
await Promise.all(['OTHER', ...shardKeys].map((pk) => ddb.send(new GetCommand({ TableName: 'stats', Key: { pk } }))));
await Promise.all([...shardKeys, ...extra].map((pk) => ddb.send(new GetCommand({ TableName: 'stats', Key: { pk } }))));`,
  );
  assert.deepEqual(summarize(r), [
    '3 GetItem stats pk=VIEWS#{shard 0..9} (sharded)',
    '4 GetItem stats pk=VIEWS#{shard 0..9} (sharded)',
    // Another key beside the shards, or a list not known: no one key is read.
    '5 GetItem stats pk={unknown} (unknown)',
    '6 GetItem stats pk={unknown} (unknown)',
  ]);
});

test("a stream record's image read through its type tags (`image.customerId.S`) is named by the attribute", async () => {
  const r = await analyze(
    'totals.js',
    `const { DocumentClient } = require('aws-sdk/clients/dynamodb');
const doc = new DocumentClient();

module.exports.handler = async (event) => {
  for (const record of event.Records) {
    if (record.eventName !== 'INSERT') continue;
    const image = record.dynamodb.NewImage;
    const customerId = image.customerId.S;
    await doc.update({ TableName: 'totals', Key: { pk: customerId }, UpdateExpression: 'ADD n :one' }).promise();
    await doc.put({ TableName: 'orders-by-id', Item: { pk: image['orderId'].S, total: Number(image.total.N) } }).promise();
    await doc.update({ TableName: 'totals', Key: { pk: record.dynamodb.Keys.region.S }, UpdateExpression: 'ADD n :one' }).promise();
  }
};`,
  );
  assert.deepEqual(summarize(r), [
    '9 UpdateItem totals pk={entity-id} (high-cardinality)',
    '10 PutItem orders-by-id pk={entity-id} (high-cardinality)',
    '11 UpdateItem totals pk={low-cardinality} (counter)',
  ]);
});

test("a helper's table parameter takes the environment variable its callers in the file pass", async () => {
  const r = await analyze(
    'loyalty.ts',
    `import { DynamoDB } from 'aws-sdk';
import type { APIGatewayEvent } from 'aws-lambda';

const db = new DynamoDB.DocumentClient();
const ledger = process.env.LEDGER_TABLE;

export const balance = async (memberId: string, table: string) =>
  (await db.query({ TableName: table, KeyConditionExpression: 'memberId = :m', ExpressionAttributeValues: { ':m': memberId } }).promise()).Items;

export const record = async (memberId: string, table: string) =>
  db.put({ TableName: table, Item: { memberId, at: Date.now() } }).promise();

export const handler = async (event: APIGatewayEvent) => {
  if (!ledger) throw new Error('LEDGER_TABLE is not set');
  await record(event.pathParameters!.memberId!, process.env.EVENTS_TABLE!);
  return balance(event.pathParameters!.memberId!, ledger);
};`,
  );
  assert.deepEqual(
    r.accesses.map((a) => `${a.operation} ${a.table.kind === 'env' ? `$${a.table.name}` : a.table.kind}`),
    ['Query $LEDGER_TABLE', 'PutItem $EVENTS_TABLE'],
  );
});
