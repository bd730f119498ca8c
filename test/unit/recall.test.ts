import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, findingLines, summarize } from './helpers';

test('legacy KeyConditions and AttributeUpdates (SDK v2 era code) are read like their expression forms', async () => {
  const r = await analyze(
    'legacy.js',
    `const AWS = require('aws-sdk');
const db = new AWS.DynamoDB.DocumentClient();

function recentOrders(callback) {
  db.query({
    TableName: 'orders',
    KeyConditions: {
      status: { ComparisonOperator: 'EQ', AttributeValueList: ['OPEN'] },
      createdAt: { ComparisonOperator: 'BETWEEN', AttributeValueList: ['2026-01-01', '2026-12-31'] },
    },
    QueryFilter: { total: { ComparisonOperator: 'GT', AttributeValueList: [100] } },
  }, callback);
}

function countVisit(callback) {
  db.update({
    TableName: 'stats',
    Key: { id: 'visits' },
    AttributeUpdates: { hits: { Action: 'ADD', Value: 1 } },
    Expected: { id: { Exists: true } },
  }, callback);
}
`,
  );
  assert.deepEqual(summarize(r), [
    '8 Query orders status=OPEN createdAt=2026-01-01 (constant)',
    '18 UpdateItem stats id=visits (counter)',
  ]);
  const q = r.accesses[0];
  assert.equal(q.sortCondition?.operator, 'BETWEEN');
  assert.equal(q.sortCondition?.operands.length, 2);
  assert.deepEqual(findingLines(r), ['8 SL001', '18 SL004']);
});

test('JS clock arithmetic: Date.now() divided into slots is a time bucket', async () => {
  const r = await analyze(
    'metrics.ts',
    `import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
const WINDOW_MS = 15 * 60 * 1000;

export async function record(metric: string) {
  const bucket = Math.floor(Date.now() / WINDOW_MS);
  await doc.send(new UpdateCommand({
    TableName: 'metrics',
    Key: { pk: \`WINDOW#\${bucket}\`, sk: metric },
    UpdateExpression: 'SET touched = :t',
    ExpressionAttributeValues: { ':t': true },
  }));
}`,
  );
  assert.deepEqual(summarize(r), ['9 UpdateItem metrics pk=WINDOW#{time} sk={unknown} (time-bucket)']);
  assert.deepEqual(findingLines(r), ['9 SL002']);
});

test('JS containers built by mutation: properties set after the declaration, Object.assign, push in a loop', async () => {
  const r = await analyze(
    'inbox.ts',
    `import { DynamoDBDocumentClient, PutCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);

export async function deliver(message: { id: string; body: string }) {
  const item: Record<string, unknown> = {};
  item.pk = 'inbox';
  item['sk'] = message.id;
  Object.assign(item, { body: message.body });
  await doc.send(new PutCommand({ TableName: 'mail', Item: item }));
}

export async function archive(ids: string[]) {
  const requests = [];
  for (const id of ids) {
    requests.push({ PutRequest: { Item: { pk: 'ARCHIVE', sk: id } } });
  }
  await doc.send(new BatchWriteCommand({ RequestItems: { mail: requests } }));
}`,
  );
  assert.deepEqual(summarize(r), [
    '9 PutItem mail pk=inbox sk={entity-id} (constant)',
    '17 BatchWriteItem mail pk=ARCHIVE sk={entity-id} (constant)',
  ]);
  assert.deepEqual(findingLines(r), ['6 SL001', '15 SL001']);
});

test('Python containers built by mutation: item["pk"] = ..., dict.update, list.append in a loop', async () => {
  const r = await analyze(
    'jobs.py',
    `import boto3

dynamodb = boto3.resource("dynamodb")
table = dynamodb.Table("jobs")


def enqueue(job_id, payload):
    item = {}
    item["pk"] = "QUEUE"
    item["sk"] = job_id
    item.update({"payload": payload})
    table.put_item(Item=item)


def enqueue_many(jobs):
    client = boto3.client("dynamodb")
    requests = []
    for job in jobs:
        requests.append({"PutRequest": {"Item": {"pk": {"S": "QUEUE"}, "sk": {"S": job["id"]}}}})
    client.batch_write_item(RequestItems={"jobs": requests})
`,
  );
  assert.deepEqual(summarize(r), [
    '12 PutItem jobs pk=QUEUE sk={entity-id} (constant)',
    '20 BatchWriteItem jobs pk=QUEUE sk={entity-id} (constant)',
  ]);
  assert.deepEqual(findingLines(r), ['9 SL001', '19 SL001']);
});

test('index keys: a write that sets a GSI partition key writes that index partition, judged like any key', async () => {
  const r = await analyze(
    'orders.ts',
    `import { DynamoDBDocumentClient, PutCommand, UpdateCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);

export async function place(order: { id: string; customerId: string }) {
  await doc.send(new PutCommand({
    TableName: 'orders',
    Item: { pk: \`ORDER#\${order.id}\`, sk: 'META', gsi1pk: 'ALL_ORDERS', gsi1sk: Date.now() },
  }));
}

export async function setStatus(orderId: string, status: string) {
  await doc.send(new UpdateCommand({
    TableName: 'orders',
    Key: { pk: \`ORDER#\${orderId}\`, sk: 'META' },
    UpdateExpression: 'SET #s = :s, byStatus = :s',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':s': status },
  }));
}

export function byStatus(status: string) {
  return doc.send(new QueryCommand({
    TableName: 'orders',
    IndexName: 'status-index',
    KeyConditionExpression: 'byStatus = :s',
    ExpressionAttributeValues: { ':s': status },
  }));
}`,
  );
  const writes = r.accesses
    .filter((a) => a.kind === 'write')
    .map((a) => `${a.operation} ${a.index ?? '-'} ${a.partitionKey?.attribute}`);
  assert.deepEqual(writes, [
    'PutItem - pk',
    'PutItem GSI1 gsi1pk',
    'UpdateItem - pk',
    'UpdateItem status-index byStatus',
  ]);
  // The constant index key is a hot partition of its own; the status index a low-cardinality one.
  assert.deepEqual(
    r.findings.map((f) => `${f.span.startLine + 1} ${f.rule} ${f.access.index ?? '-'}`),
    ['7 SL001 GSI1', '7 SL005 GSI1', '17 SL003 status-index', '26 SL003 status-index'],
  );
});
