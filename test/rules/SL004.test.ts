import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ruleTester, withIndexed } from './tester';
import { TICKET_COUNTER } from './counter-shapes';

// SL004 counter-item: one atomic counter item that every caller increments.
ruleTester('SL004', {
  valid: [
    {
      name: 'a per-user login counter',
      files: {
        'src/users/logins.ts': `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

export async function countLogin(userId: string) {
  await ddb.send(
    new UpdateCommand({
      TableName: 'users',
      Key: { pk: \`USER#\${userId}\` },
      UpdateExpression: 'ADD logins :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}
`,
      },
    },
  ],
  invalid: [
    {
      name: 'an order-number counter every checkout increments',
      files: {
        'src/checkout/order-number.ts': `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

const COUNTER_KEY = 'COUNTER#orders';

export async function nextOrderNumber(): Promise<number> {
  const out = await ddb.send(
    new UpdateCommand({
      TableName: 'counters',
      Key: { pk: COUNTER_KEY },
      UpdateExpression: 'ADD #n :one',
      ExpressionAttributeNames: { '#n': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return out.Attributes!.value as number;
}
`,
      },
      errors: [{ line: 10, severity: 'warning', messageId: 'counterItem' }],
    },
    {
      name: 'a boto3 page-view counter',
      files: {
        'app/views.py': `import boto3

table = boto3.resource("dynamodb").Table("stats")


def count_page_view():
    table.update_item(
        Key={"pk": "VIEWS#total"},
        UpdateExpression="ADD hits :one",
        ExpressionAttributeValues={":one": 1},
    )
`,
      },
      errors: [{ line: 8, severity: 'warning' }],
    },
  ],
});

test('SL004: a handler resetting the counter item is named on the counter finding, where spreading the count must reach it', async () => {
  const reset = `const AWS = require('aws-sdk');
const doc = new AWS.DynamoDB.DocumentClient();

exports.handler = async () => {
  await doc.put({ TableName: process.env.TABLE_NAME, Item: { PK: 'ticketNumber', seq: 0 } }).promise();
};
`;
  const found = await withIndexed(
    { 'functions/nextTicket.js': TICKET_COUNTER, 'functions/resetTicket.js': reset },
    (index, at) =>
      index
        .results()
        .flatMap((r) => r.findings)
        .map((f) => ({ at: at(f), rule: f.rule, related: f.related.map((r) => r.message) })),
  );
  assert.deepEqual(
    found.map((f) => `${f.at} ${f.rule}`),
    ['functions/nextTicket.js:9 SL004'],
  );
  assert.deepEqual(found[0].related, [
    'this put writes the same counter item: once the count is spread over N items, it must write each of them',
  ]);
});
