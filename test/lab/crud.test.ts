// The lab answers data-plane calls as dynalite does: the same scenario runs
// against a bare dynalite server and against the lab through the real SDK
// clients (@aws-sdk/client-dynamodb and @aws-sdk/lib-dynamodb), and the
// replies must match once ConsumedCapacity and request metadata are left out.
// (Transactions, which dynalite lacks, are in transactions.test.ts.)

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand as DocQuery,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { boardTable, createTable, CREDENTIALS, startTestLab, type TestLab } from './helpers';

const TABLE = 'crud';

function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== '$metadata' && k !== 'ConsumedCapacity') o[k] = strip(x);
    return o;
  }
  return v;
}

async function outcome(p: Promise<unknown>): Promise<unknown> {
  try {
    return { ok: strip(await p) };
  } catch (e) {
    const err = e as { name: string; message: string };
    return { error: err.name, message: err.message };
  }
}

/** A scenario of CRUD, expressions, queries and batches; returns every reply. */
async function scenario(client: DynamoDBClient): Promise<unknown[]> {
  const doc = DynamoDBDocumentClient.from(client);
  const out: unknown[] = [];
  const run = async (p: Promise<unknown>) => out.push(await outcome(p));
  await createTable(client, boardTable(TABLE));
  for (let i = 0; i < 12; i++) {
    await run(
      doc.send(
        new PutCommand({
          TableName: TABLE,
          Item: {
            PK: 'BOARD#global',
            SK: `PLAYER#${String(i).padStart(2, '0')}`,
            score: i * 10,
            tags: new Set(['a', `t${i % 3}`]),
          },
        }),
      ),
    );
  }
  await run(
    doc.send(
      new GetCommand({
        TableName: TABLE,
        Key: { PK: 'BOARD#global', SK: 'PLAYER#03' },
        ProjectionExpression: '#s, SK',
        ExpressionAttributeNames: { '#s': 'score' },
      }),
    ),
  );
  await run(
    doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { PK: 'BOARD#global', SK: 'PLAYER#03' },
        UpdateExpression: 'SET #n = :n ADD score :d REMOVE tags',
        ConditionExpression: 'score = :old',
        ExpressionAttributeNames: { '#n': 'name' },
        ExpressionAttributeValues: { ':n': 'Ada', ':d': 5, ':old': 30 },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  await run(
    client.send(
      new UpdateItemCommand({
        TableName: TABLE,
        Key: { PK: { S: 'BOARD#global' }, SK: { S: 'PLAYER#03' } },
        UpdateExpression: 'SET score = :s',
        ConditionExpression: 'score = :old',
        ExpressionAttributeValues: { ':s': { N: '1' }, ':old': { N: '30' } },
      }),
    ),
  );
  await run(
    client.send(
      new PutItemCommand({
        TableName: TABLE,
        Item: { PK: { S: 'BOARD#global' }, SK: { S: 'PLAYER#01' } },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    ),
  );
  await run(
    client.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
        FilterExpression: 'score > :min',
        ProjectionExpression: 'SK, score',
        ExpressionAttributeValues: { ':pk': { S: 'BOARD#global' }, ':p': { S: 'PLAYER#0' }, ':min': { N: '20' } },
        ScanIndexForward: false,
      }),
    ),
  );
  const page1 = await client.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': { S: 'BOARD#global' } },
      Limit: 5,
    }),
  );
  out.push(strip(page1));
  await run(
    client.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': { S: 'BOARD#global' } },
        ExclusiveStartKey: page1.LastEvaluatedKey,
        Select: 'COUNT',
      }),
    ),
  );
  await run(
    doc.send(
      new DocQuery({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :a AND :b',
        ExpressionAttributeValues: { ':pk': 'BOARD#global', ':a': 'PLAYER#02', ':b': 'PLAYER#05' },
      }),
    ),
  );
  // Reserved word without an alias, and a missing key attribute: both validation errors.
  await run(
    client.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk',
        FilterExpression: 'status = :s',
        ExpressionAttributeValues: { ':pk': { S: 'x' }, ':s': { S: 'y' } },
      }),
    ),
  );
  await run(client.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: 'BOARD#global' } } })));
  await run(
    client.send(
      new ScanCommand({
        TableName: TABLE,
        FilterExpression: 'contains(tags, :t)',
        ExpressionAttributeValues: { ':t': { S: 't1' } },
      }),
    ),
  );
  await run(
    client.send(
      new BatchWriteItemCommand({
        RequestItems: {
          [TABLE]: [
            ...Array.from({ length: 20 }, (_, i) => ({
              PutRequest: {
                Item: { PK: { S: `BOARD#global#${i % 10}` }, SK: { S: `PLAYER#${i}` }, score: { N: String(i) } },
              },
            })),
            { DeleteRequest: { Key: { PK: { S: 'BOARD#global' }, SK: { S: 'PLAYER#11' } } } },
          ],
        },
      }),
    ),
  );
  const got = await client.send(
    new BatchGetItemCommand({
      RequestItems: {
        [TABLE]: {
          Keys: [0, 1, 2, 13].map((i) => ({ PK: { S: `BOARD#global#${i % 10}` }, SK: { S: `PLAYER#${i}` } })),
          ProjectionExpression: 'SK, score',
        },
      },
    }),
  );
  // dynalite shuffles BatchGetItem responses; the service promises no order either.
  const items = (got.Responses?.[TABLE] ?? []).map((i) => JSON.stringify(i)).sort();
  out.push({ items, unprocessed: got.UnprocessedKeys });
  await run(
    client.send(
      new BatchWriteItemCommand({
        RequestItems: {
          [TABLE]: [
            { PutRequest: { Item: { PK: { S: 'd' }, SK: { S: '1' } } } },
            { PutRequest: { Item: { PK: { S: 'd' }, SK: { S: '1' } } } },
          ],
        },
      }),
    ),
  );
  await run(
    client.send(
      new DeleteItemCommand({
        TableName: TABLE,
        Key: { PK: { S: 'BOARD#global' }, SK: { S: 'PLAYER#00' } },
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  await run(
    client.send(
      new GetItemCommand({
        TableName: TABLE,
        Key: { PK: { S: 'BOARD#global' }, SK: { S: 'PLAYER#00' } },
        ConsistentRead: true,
      }),
    ),
  );
  await run(client.send(new GetItemCommand({ TableName: 'no_such_table', Key: { PK: { S: 'x' }, SK: { S: 'y' } } })));
  return out;
}

describe('lab vs dynalite', () => {
  let t: TestLab;
  let bare: http.Server;
  let bareClient: DynamoDBClient;

  before(async () => {
    t = await startTestLab();
    bare = dynalite({ createTableMs: 0 });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    bareClient = new DynamoDBClient({
      endpoint: `http://127.0.0.1:${(bare.address() as { port: number }).port}`,
      region: 'us-east-1',
      credentials: CREDENTIALS,
    });
  });
  after(async () => {
    bareClient.destroy();
    await new Promise((r) => bare.close(r));
    await t.close();
  });

  test('CRUD, expressions, Query, Scan and batches answer as dynalite does', async () => {
    const expected = await scenario(bareClient);
    const actual = await scenario(t.ddb);
    assert.equal(actual.length, expected.length);
    for (let i = 0; i < expected.length; i++) assert.deepEqual(actual[i], expected[i], `step ${i + 1}`);
    // The scenario covers errors too: make sure they were errors on both sides.
    const errors = actual.filter((o) => (o as { error?: string }).error).map((o) => (o as { error: string }).error);
    assert.deepEqual(errors, [
      'ConditionalCheckFailedException',
      'ConditionalCheckFailedException',
      'ValidationException',
      'ValidationException',
      'ValidationException',
      'ResourceNotFoundException',
    ]);
  });
});

describe('--data', () => {
  test('keeps tables and items across restarts', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'shardlens-lab-'));
    try {
      const first = await startTestLab({ dataDir: dir });
      await createTable(first.ddb, boardTable('kept'));
      await first.ddb.send(
        new PutItemCommand({ TableName: 'kept', Item: { PK: { S: 'k' }, SK: { S: 's' }, v: { N: '42' } } }),
      );
      await first.close();
      const second = await startTestLab({ dataDir: dir });
      try {
        const got = await second.ddb.send(
          new GetItemCommand({ TableName: 'kept', Key: { PK: { S: 'k' }, SK: { S: 's' } } }),
        );
        assert.equal(got.Item?.v.N, '42');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('capacity sizing', () => {
  let t: TestLab;
  before(async () => {
    t = await startTestLab();
    await createTable(t.ddb, boardTable('sizes'));
  });
  after(() => t.close());

  const item = (sk: string, kb: number) => ({ PK: { S: 'S' }, SK: { S: sk }, d: { S: 'x'.repeat(kb * 1024 - 40) } });
  const units = (r: { ConsumedCapacity?: { CapacityUnits?: number } }) => r.ConsumedCapacity?.CapacityUnits;

  test('writes cost the larger of the old and new item, reads the item whatever the projection', async () => {
    assert.equal(
      units(
        await t.ddb.send(
          new PutItemCommand({ TableName: 'sizes', Item: item('a', 3), ReturnConsumedCapacity: 'TOTAL' }),
        ),
      ),
      3,
    );
    assert.equal(
      units(
        await t.ddb.send(
          new PutItemCommand({ TableName: 'sizes', Item: item('a', 1), ReturnConsumedCapacity: 'TOTAL' }),
        ),
      ),
      3,
      'overwriting 3 KB with 1 KB',
    );
    const grow = await t.ddb.send(
      new UpdateItemCommand({
        TableName: 'sizes',
        Key: { PK: { S: 'S' }, SK: { S: 'a' } },
        UpdateExpression: 'SET e = :e',
        ExpressionAttributeValues: { ':e': { S: 'y'.repeat(4 * 1024) } },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    assert.equal(units(grow), 5, '1 KB grown to 5 KB');
    const key = { PK: { S: 'S' }, SK: { S: 'a' } };
    assert.equal(
      units(
        await t.ddb.send(
          new GetItemCommand({ TableName: 'sizes', Key: key, ConsistentRead: true, ReturnConsumedCapacity: 'TOTAL' }),
        ),
      ),
      2,
    );
    assert.equal(
      units(
        await t.ddb.send(
          new GetItemCommand({
            TableName: 'sizes',
            Key: key,
            ProjectionExpression: 'SK',
            ReturnConsumedCapacity: 'TOTAL',
          }),
        ),
      ),
      1,
      '5 KB eventually consistent, projected',
    );
    const plain = await t.ddb.send(new GetItemCommand({ TableName: 'sizes', Key: key, ProjectionExpression: 'SK' }));
    assert.equal(plain.ConsumedCapacity, undefined, 'no ConsumedCapacity unless asked');
    await t.ddb.send(new PutItemCommand({ TableName: 'sizes', Item: item('b', 3) }));
    const batch = await t.ddb.send(
      new BatchWriteItemCommand({
        RequestItems: { sizes: [{ PutRequest: { Item: item('b', 1) } }, { DeleteRequest: { Key: key } }] },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    assert.equal(batch.ConsumedCapacity?.[0].CapacityUnits, 3 + 5);
    const del = await t.ddb.send(
      new DeleteItemCommand({
        TableName: 'sizes',
        Key: { PK: { S: 'S' }, SK: { S: 'b' } },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    assert.equal(units(del), 1);
    assert.equal(del.Attributes, undefined, 'the old item is not returned unless asked');
  });
});
