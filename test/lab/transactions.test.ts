// TransactWriteItems and TransactGetItems, which dynalite does not have and
// the lab implements: all-or-nothing writes at twice the units, cancellation
// reasons, rollback of a failure part-way, and the one-action-per-item rule.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  GetItemCommand,
  PutItemCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { boardTable, createTable, startTestLab, type TestLab } from './helpers';

describe('transactions (the lab implements them; dynalite does not)', () => {
  let t: TestLab;
  before(async () => {
    t = await startTestLab();
    await createTable(t.ddb, boardTable('txn'));
  });
  after(() => t.close());

  const put = (sk: string, extra: Record<string, unknown> = {}) => ({
    Put: { TableName: 'txn', Item: { PK: { S: 'ACC' }, SK: { S: sk }, n: { N: '1' } }, ...extra },
  });
  const get = (sk: string) =>
    t.ddb.send(
      new GetItemCommand({ TableName: 'txn', Key: { PK: { S: 'ACC' }, SK: { S: sk } }, ConsistentRead: true }),
    );

  test('all actions apply together, at twice the units of a plain write', async () => {
    const single = await t.ddb.send(
      new PutItemCommand({
        TableName: 'txn',
        Item: { PK: { S: 'ACC' }, SK: { S: 'single' } },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    const res = await t.ddb.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          put('a'),
          {
            Update: {
              TableName: 'txn',
              Key: { PK: { S: 'ACC' }, SK: { S: 'b' } },
              UpdateExpression: 'ADD n :one',
              ExpressionAttributeValues: { ':one': { N: '1' } },
            },
          },
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    assert.equal(single.ConsumedCapacity?.CapacityUnits, 1);
    assert.equal(res.ConsumedCapacity?.[0].CapacityUnits, 4);
    assert.equal((await get('a')).Item?.n.N, '1');
    assert.equal((await get('b')).Item?.n.N, '1');
  });

  test('a failed condition cancels the whole transaction and names the action', async () => {
    await assert.rejects(
      t.ddb.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            put('c'),
            {
              ConditionCheck: {
                TableName: 'txn',
                Key: { PK: { S: 'ACC' }, SK: { S: 'a' } },
                ConditionExpression: 'n = :two',
                ExpressionAttributeValues: { ':two': { N: '2' } },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
          ],
        }),
      ),
      (e: { name: string; CancellationReasons?: Array<{ Code?: string; Item?: Record<string, { N?: string }> }> }) => {
        assert.equal(e.name, 'TransactionCanceledException');
        assert.deepEqual(
          e.CancellationReasons?.map((r) => r.Code),
          ['None', 'ConditionalCheckFailed'],
        );
        assert.equal(e.CancellationReasons?.[1].Item?.n.N, '1');
        return true;
      },
    );
    assert.equal((await get('c')).Item, undefined, 'the Put of a cancelled transaction must not be visible');
  });

  test('an error part-way rolls back the actions already applied', async () => {
    await t.ddb.send(
      new PutItemCommand({ TableName: 'txn', Item: { PK: { S: 'ACC' }, SK: { S: 'text' }, n: { S: 'not a number' } } }),
    );
    await assert.rejects(
      t.ddb.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            put('d', {}),
            {
              Update: {
                TableName: 'txn',
                Key: { PK: { S: 'ACC' }, SK: { S: 'text' } },
                UpdateExpression: 'ADD n :one',
                ExpressionAttributeValues: { ':one': { N: '1' } },
              },
            },
          ],
        }),
      ),
      { name: 'ValidationException' },
    );
    assert.equal((await get('d')).Item, undefined);
  });

  test('two actions on one item are refused', async () => {
    await assert.rejects(t.ddb.send(new TransactWriteItemsCommand({ TransactItems: [put('e'), put('e')] })), {
      name: 'ValidationException',
      message: 'Transaction request cannot include multiple operations on one item',
    });
  });

  test('TransactGetItems returns the items in request order', async () => {
    const res = await t.ddb.send(
      new TransactGetItemsCommand({
        TransactItems: ['b', 'missing', 'a'].map((sk) => ({
          Get: { TableName: 'txn', Key: { PK: { S: 'ACC' }, SK: { S: sk } } },
        })),
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    assert.deepEqual(
      res.Responses?.map((r) => r.Item?.SK?.S),
      ['b', undefined, 'a'],
    );
    assert.equal(res.ConsumedCapacity?.[0].CapacityUnits, 6, 'three transactional reads at 2 RCU each');
  });
});
