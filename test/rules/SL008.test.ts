import { ruleTester } from './tester';

// SL008 scatter-gather-pagination: a reader of every shard that reads one page of each.
ruleTester('SL008', {
  valid: [
    {
      name: 'a scatter-gather reader that follows LastEvaluatedKey on every shard',
      files: {
        'src/audit/reader.ts': `import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

const SHARDS = 4;

export async function auditTrail(day: string) {
  const items: Record<string, unknown>[] = [];
  for (let shard = 0; shard < SHARDS; shard++) {
    let start: QueryCommandOutput['LastEvaluatedKey'];
    do {
      const page = await ddb.send(
        new QueryCommand({
          TableName: 'audit',
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': \`AUDIT#\${day}#\${shard}\` },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return items;
}
`,
      },
    },
    {
      name: 'a latest-ten reader: a Limit asks for one page on purpose',
      files: {
        'src/feed/latest.ts': `import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

export async function latest() {
  const pages = await Promise.all(
    [0, 1, 2, 3].map((shard) =>
      ddb.send(
        new QueryCommand({
          TableName: 'feed',
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': \`FEED#\${shard}\` },
          ScanIndexForward: false,
          Limit: 10,
        }),
      ),
    ),
  );
  return pages.flatMap((p) => p.Items ?? []);
}
`,
      },
    },
  ],
  invalid: [
    {
      name: 'a Promise.all over every shard that reads one page each',
      files: {
        'src/orders/open-orders.ts': `import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

const ORDER_SHARDS = 8;

export async function openOrders() {
  const pages = await Promise.all(
    Array.from({ length: ORDER_SHARDS }, (_, shard) =>
      ddb.send(
        new QueryCommand({
          TableName: 'orders',
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': \`OPEN#\${shard}\` },
        }),
      ),
    ),
  );
  return pages.flatMap((p) => p.Items ?? []);
}
`,
      },
      errors: [{ line: 13, severity: 'warning', messageId: 'onePagePerShard' }],
    },
    {
      name: 'a boto3 reader looping over shards with a single query each',
      files: {
        'app/inbox.py': `import boto3
from boto3.dynamodb.conditions import Key

INBOX_SHARDS = 5
table = boto3.resource("dynamodb").Table("inbox")


def read_inbox():
    items = []
    for shard in range(INBOX_SHARDS):
        items += table.query(KeyConditionExpression=Key("pk").eq(f"INBOX#{shard}"))["Items"]
    return items
`,
      },
      errors: [{ line: 11, severity: 'warning' }],
    },
  ],
});
