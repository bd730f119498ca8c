// DynamoDB's size limits in UTF-8 bytes, through the AWS SDK v3 and boto3:
// partition keys up to 2,048 bytes, sort keys up to 1,024, items up to 400 KB.
// dynalite counts UTF-16 characters, so "é" (two bytes, one character) is
// the case that tells the two apart: 1,025 of them are 2,050 bytes.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import {
  BatchWriteItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import { boardTable, createTable, startTestLab, type TestLab } from './helpers';

const E = 'é';
const HASH_KEY =
  'One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes';
const RANGE_KEY =
  'One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes';
const ITEM = 'Item size has exceeded the maximum allowed size';

const refusedWith = (message: string) => (e: Error) => {
  assert.equal(e.name, 'ValidationException', e.message);
  assert.equal(e.message, message);
  return true;
};
const key = (pk: string, sk: string): Record<string, AttributeValue> => ({ PK: { S: pk }, SK: { S: sk } });

describe('size limits in UTF-8 bytes (AWS SDK v3)', () => {
  let t: TestLab;
  before(async () => {
    t = await startTestLab();
    await createTable(t.ddb, boardTable('limits'));
  });
  after(() => t.close());
  const put = (item: Record<string, AttributeValue>) =>
    t.ddb.send(new PutItemCommand({ TableName: 'limits', Item: item, ReturnConsumedCapacity: 'TOTAL' }));

  test('a partition key of 2,050 bytes in 1,025 characters is refused; 2,048 bytes are accepted', async () => {
    await assert.rejects(put(key(E.repeat(1025), 's')), refusedWith(HASH_KEY));
    await put(key(E.repeat(1024), 's'));
    for (const cmd of [
      new GetItemCommand({ TableName: 'limits', Key: key(E.repeat(1025), 's') }),
      new DeleteItemCommand({ TableName: 'limits', Key: key(E.repeat(1025), 's') }),
      new UpdateItemCommand({
        TableName: 'limits',
        Key: key(E.repeat(1025), 's'),
        UpdateExpression: 'SET n = :n',
        ExpressionAttributeValues: { ':n': { N: '1' } },
      }),
      new QueryCommand({
        TableName: 'limits',
        KeyConditionExpression: 'PK = :p',
        ExpressionAttributeValues: { ':p': { S: E.repeat(1025) } },
      }),
    ]) {
      await assert.rejects(t.ddb.send(cmd as never), refusedWith(HASH_KEY), cmd.constructor.name);
    }
  });

  test('a sort key of 1,026 bytes in 513 characters is refused; 1,024 bytes are accepted', async () => {
    await assert.rejects(put(key('p', E.repeat(513))), refusedWith(RANGE_KEY));
    await put(key('p', E.repeat(512)));
    await assert.rejects(
      t.ddb.send(new GetItemCommand({ TableName: 'limits', Key: key('p', E.repeat(513)) })),
      refusedWith(RANGE_KEY),
    );
  });

  test('an item of 500 KB in 250,000 characters is refused; one under 400 KB is accepted and metered', async () => {
    await assert.rejects(put({ ...key('p', 'big'), d: { S: E.repeat(250_000) } }), refusedWith(ITEM));
    const ok = await put({ ...key('p', 'fits'), d: { S: E.repeat(200_000) } });
    // 400,000 bytes of value + "PK" "p" "SK" "fits" "d" = 400,010 bytes: 391 started KB.
    assert.equal(ok.ConsumedCapacity?.CapacityUnits, 391);
  });

  test('batches and transactions are refused whole, with nothing written', async () => {
    const big = { ...key('b', 'big'), d: { S: E.repeat(250_000) } };
    await assert.rejects(
      t.ddb.send(
        new BatchWriteItemCommand({
          RequestItems: { limits: [{ PutRequest: { Item: key('b', 'small') } }, { PutRequest: { Item: big } }] },
        }),
      ),
      refusedWith(ITEM),
    );
    await assert.rejects(
      t.ddb.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName: 'limits', Item: key('b', 'other') } },
            { Put: { TableName: 'limits', Item: { ...key('b', 'k'), SK: { S: E.repeat(513) } } } },
          ],
        }),
      ),
      refusedWith(RANGE_KEY),
    );
    for (const sk of ['small', 'other']) {
      const r = await t.ddb.send(new GetItemCommand({ TableName: 'limits', Key: key('b', sk) }));
      assert.equal(r.Item, undefined, `${sk} was written`);
    }
  });

  test('an UpdateItem value over 400 KB is refused naming its placeholder', async () => {
    await put(key('u', 'u'));
    await assert.rejects(
      t.ddb.send(
        new UpdateItemCommand({
          TableName: 'limits',
          Key: key('u', 'u'),
          UpdateExpression: 'SET d = :big',
          ExpressionAttributeValues: { ':big': { S: E.repeat(250_000) } },
        }),
      ),
      refusedWith(
        'ExpressionAttributeValues contains invalid value: Item size has exceeded the maximum allowed size for key :big',
      ),
    );
  });
});

describe('size limits in UTF-8 bytes (boto3)', () => {
  let t: TestLab;
  before(async () => {
    t = await startTestLab();
  });
  after(() => t.close());

  test('boto3 gets the same ValidationExceptions', async () => {
    const python = process.env.SHARDLENS_PYTHON ?? 'python3';
    let stdout: string;
    try {
      ({ stdout } = await promisify(execFile)(python, [path.join(__dirname, 'boto3_limits.py'), t.lab.url, 'limits'], {
        timeout: 60_000,
      }));
    } catch (e) {
      const err = e as { stderr?: string; stdout?: string };
      assert.fail(
        `boto3_limits.py failed under ${python} (boto3 is needed: apt-get install -y python3-boto3, or pip install boto3):\n` +
          `${err.stderr ?? ''}${err.stdout ?? ''}`,
      );
    }
    const r = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, 'ok' | [string, string]>;
    assert.deepEqual(r, {
      pk_2050_bytes: ['ValidationException', HASH_KEY],
      pk_2048_bytes: 'ok',
      sk_1026_bytes: ['ValidationException', RANGE_KEY],
      sk_1024_bytes: 'ok',
      item_500_kb: ['ValidationException', ITEM],
      item_under_400_kb: 'ok',
      get_pk_2050_bytes: ['ValidationException', HASH_KEY],
      query_pk_2050_bytes: ['ValidationException', HASH_KEY],
    });
  });
});
