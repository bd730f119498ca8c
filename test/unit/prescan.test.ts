import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { mayContainDynamoDbCalls } from '../../server/src/engine/syntax/prescan';

/** What the pre-scan means, as plain expressions: the fast version must agree with them on any text. */
const CASE_SENSITIVE =
  /TableName|KeyConditionExpression|ExecuteStatement|RequestItems|TransactItems|batch_writer|\.(?:put|get|update|delete)_item\(/;
const meaning = (t: string) => /dynamodb|aws-sdk|boto3/i.test(t) || CASE_SENSITIVE.test(t);

test('files that mention DynamoDB, its SDKs or its request fields pass; look-alikes do not', () => {
  for (const yes of [
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
    "const AWS = require('aws-sdk');",
    'import boto3',
    "table.put_item(Item={'pk': 'x'})",
    'client.update_item(**kwargs)',
    'with table.batch_writer() as batch:',
    '{ TableName: process.env.T, Key: { pk } }',
    "KeyConditionExpression: 'pk = :p'",
    'RequestItems: {}',
    'TransactItems: []',
    "ExecuteStatement({ Statement: 'SELECT' })",
    'const x = "DYNAMODB";',
  ])
    assert.equal(mayContainDynamoDbCalls(yes), true, yes);
  for (const no of [
    'export const tableName = "users";',
    'cart.add_item(product)',
    "__tablename__ = 'orders'",
    'put_item(x)',
    'SELECT * FROM table WHERE query = 1',
    '',
  ])
    assert.equal(mayContainDynamoDbCalls(no), false, no);
});

test('the pre-scan agrees with its meaning on text made of near misses', () => {
  const pieces = fc.constantFrom(
    'Table',
    'Name',
    'TableName',
    'tablename',
    'KeyCondition',
    'Expression',
    'Execute',
    'Statement',
    'Request',
    'Items',
    'Transact',
    'batch_',
    'writer',
    '.',
    'put',
    'get',
    'update',
    'delete',
    'add',
    '_item',
    '(',
    'Dynamo',
    'DB',
    'dynamo',
    'db',
    'aws',
    '-',
    'sdk',
    'SDK',
    'boto',
    'BOTO',
    '3',
    ' ',
    '\n',
  );
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
      const text = parts.join('');
      assert.equal(mayContainDynamoDbCalls(text), meaning(text), JSON.stringify(text));
    }),
    { numRuns: 5000 },
  );
});
