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
    {
      name: 'a tier read on every request, but under the user id: many values, no finding',
      files: {
        'app/limits.py': `import boto3

table = boto3.resource("dynamodb").Table("limits")


def lambda_handler(event, context):
    user = event["requestContext"]["authorizer"]
    item = table.get_item(Key={"pk": f"USER#{user['userId']}#TIER#{user['tier']}", "sk": "quota"})
    return item.get("Item", {})
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
      // Only read: read-hot, offered the cache fix (test/fixes/cache-few-values.test.ts).
      errors: [{ line: 13, severity: 'warning', messageId: 'readHot' }],
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
    {
      name: 'a status index every route reads and one admin route writes: read-hot, its writes notes',
      files: {
        'src/tickets/repository.ts': `import { DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

export type TicketStatus = 'open' | 'pending' | 'closed';

export class TicketRepository {
  constructor(private readonly ddb: DynamoDBDocumentClient) {}

  async listByStatus(status: TicketStatus) {
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

  async setStatus(id: string, status: TicketStatus) {
    await this.ddb.send(
      new UpdateCommand({
        TableName: 'tickets',
        Key: { pk: \`TICKET#\${id}\` },
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': status },
      }),
    );
  }
}
`,
        'src/routes.ts': `import express from 'express';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TicketRepository } from './tickets/repository';

const tickets = new TicketRepository(DynamoDBDocumentClient.from(new DynamoDBClient({})));
export const app = express();

app.get('/queue', async (_req, res) => res.json(await tickets.listByStatus('open')));
app.get('/dashboard', async (_req, res) => res.json(await tickets.listByStatus('pending')));
app.get('/archive', async (_req, res) => res.json(await tickets.listByStatus('closed')));
app.get('/agents/:id/queue', async (_req, res) => res.json(await tickets.listByStatus('open')));
app.post('/admin/tickets/:id/status', async (req, res) => {
  await tickets.setStatus(req.params.id, req.body.status);
  res.sendStatus(204);
});
`,
      },
      errors: [
        // The admin route's call of setStatus, placed at its caller: a write of the read-hot key.
        { file: 'src/routes.ts', line: 14, severity: 'info', messageId: 'rarelyWritten' },
        { line: 15, severity: 'warning', messageId: 'readHot' },
        { line: 28, severity: 'info', messageId: 'rarelyWritten' },
      ],
    },
    {
      name: 'a per-country signup counter written by every signup event, read by a report script: write-hot',
      files: {
        'app/signups.py': `import os
import time
import uuid

import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table(os.environ["SIGNUPS_TABLE"])


def handler(event, context):
    user = event["detail"]
    table.put_item(
        Item={
            "pk": f"COUNTRY#{user['country']}",
            "sk": f"{int(time.time() * 1000)}#{uuid.uuid4()}",
            "email": user["email"],
        }
    )
    return {"ok": True}


def signups_for(country):
    return table.query(KeyConditionExpression=Key("pk").eq(f"COUNTRY#{country}"))["Items"]


if __name__ == "__main__":
    import sys

    print(len(signups_for(sys.argv[1])))
`,
      },
      errors: [
        { line: 15, severity: 'warning', messageId: 'fewValues' },
        { line: 24, severity: 'info', messageId: 'fewValues' },
      ],
    },
    {
      name: 'a plan-tier quota read and bumped by the same request handlers: hot both ways',
      files: {
        'src/quota.ts': `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function handler(event: { tier: 'free' | 'pro'; requestId: string }) {
  const quota = await ddb.send(new GetCommand({ TableName: 'quotas', Key: { pk: \`TIER#\${event.tier}\`, sk: 'limits' } }));
  await ddb.send(
    new PutCommand({ TableName: 'quotas', Item: { pk: \`TIER#\${event.tier}\`, sk: \`REQ#\${event.requestId}\`, at: Date.now() } }),
  );
  return quota.Item;
}
`,
      },
      errors: [
        { line: 7, severity: 'warning', messageId: 'hotBothRead' },
        { line: 9, severity: 'warning', messageId: 'hotBothWrite' },
      ],
    },
  ],
});
