import { ruleTester } from './tester';

// SL003 low-cardinality-partition-key: a key made only of a status, type, country or flag.
ruleTester('SL003', {
  valid: [
    {
      name: 'orders keyed by customer and sorted by status',
      files: {
        'src/orders/repository.ts': `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

export class OrderRepository {
  constructor(private readonly ddb: DynamoDBDocumentClient) {}

  async save(order: { customerId: string; id: string; status: string }) {
    await this.ddb.send(
      new PutCommand({
        TableName: 'orders',
        Item: { pk: \`CUSTOMER#\${order.customerId}\`, sk: \`\${order.status}#\${order.id}\` },
      }),
    );
  }
}
`,
      },
    },
  ],
  invalid: [
    {
      name: 'a ticket service querying its status index',
      files: {
        'src/tickets/service.ts': `import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';

export class TicketService {
  constructor(private readonly ddb: DynamoDBDocumentClient) {}

  async listByStatus(status: 'open' | 'closed') {
    const out = await this.ddb.send(
      new QueryCommand({
        TableName: 'tickets',
        IndexName: 'byStatus',
        KeyConditionExpression: '#s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': status },
      }),
    );
    return out.Items ?? [];
  }
}
`,
      },
      errors: [{ line: 13, severity: 'warning', messageId: 'fewValues' }],
    },
    {
      name: 'a boto3 signup writer keyed by the plan tier',
      files: {
        'app/signups.py': `import boto3

table = boto3.resource("dynamodb").Table("signups")


def record_signup(user_id, tier):
    table.put_item(Item={"pk": f"TIER#{tier}", "sk": user_id})
`,
      },
      errors: [{ line: 7, severity: 'warning' }],
    },
  ],
});
