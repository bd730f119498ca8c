import { ruleTester } from './tester';

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
