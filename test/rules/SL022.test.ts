import { ruleTester } from './tester';

// SL022 low-cardinality-composite: a tenant's id plus only few-valued parts (status, type, flag).
ruleTester('SL022', {
  valid: [
    {
      name: 'an enum of key prefixes is a label, not a few-valued field: one partition per tenant',
      files: {
        'src/keys.ts': `export enum KeyPrefix {
  Orders = 'ORDERS',
  Invoices = 'INVOICES',
}
`,
        'src/orders/repository.ts': `import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { KeyPrefix } from '../keys';

export async function listOrders(doc: DynamoDBDocumentClient, orgId: string) {
  const { Items } = await doc.send(
    new QueryCommand({
      TableName: process.env.TABLE_NAME,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': \`ORG#\${orgId}#\${KeyPrefix.Orders}\` },
    }),
  );
  return Items ?? [];
}
`,
      },
    },
    {
      name: "a team member's tasks by status: the member is a person, not the team",
      files: {
        'src/tasks/assignments.ts': `import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';

export async function openTasksOf(doc: DynamoDBDocumentClient, teamMemberId: string, status: 'open' | 'done') {
  const out = await doc.send(
    new QueryCommand({
      TableName: 'tasks',
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': \`ASSIGNEE#\${teamMemberId}#\${status}\` },
    }),
  );
  return out.Items ?? [];
}
`,
      },
    },
    {
      name: 'a tenant and status key with a shard suffix from the order id',
      files: {
        'src/orders/store.ts': `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { crc32 } from 'node:zlib';

const SHARDS = 8;

export async function saveOrder(ddb: DynamoDBDocumentClient, tenantId: string, order: { id: string; status: string }) {
  const shard = crc32(order.id) % SHARDS;
  await ddb.send(
    new PutCommand({
      TableName: 'orders',
      Item: { pk: \`\${tenantId}#\${order.status}#\${shard}\`, sk: order.id, ...order },
    }),
  );
}
`,
      },
    },
    {
      name: 'an org and status key that also holds the user id (boto3)',
      files: {
        'app/memberships.py': `import os

import boto3

table = boto3.resource("dynamodb").Table(os.environ["MEMBERSHIPS_TABLE"])


def lambda_handler(event, context):
    claims = event["requestContext"]["authorizer"]["claims"]
    body = event["body"]
    table.put_item(
        Item={
            "pk": f"ORG#{claims['custom:org_id']}#USER#{body['user_id']}#{body['status']}",
            "sk": "MEMBERSHIP",
        }
    )
    return {"statusCode": 204}
`,
      },
    },
    {
      name: "one user's items by type: a user is not a tenant",
      files: {
        'src/inbox.js': `const AWS = require('aws-sdk');

const db = new AWS.DynamoDB.DocumentClient();

module.exports.list = async (event) => {
  const { userId } = event.pathParameters;
  const { messageType } = event.queryStringParameters;
  const out = await db
    .query({
      TableName: process.env.INBOX_TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': \`USER#\${userId}#\${messageType}\` },
    })
    .promise();
  return { statusCode: 200, body: JSON.stringify(out.Items) };
};
`,
      },
    },
    {
      name: "a tenant's own partition with a constant collection name",
      files: {
        'src/projects.ts': `import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';

export class ProjectRepository {
  constructor(private readonly doc: DynamoDBDocumentClient) {}

  list(orgId: string) {
    return this.doc.send(
      new QueryCommand({
        TableName: 'app',
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': \`ORG#\${orgId}#PROJECTS\` },
      }),
    );
  }
}
`,
      },
    },
    {
      name: 'country and status with no tenant: SL003 reports it, not SL022',
      files: {
        'app/listings.py': `import boto3
from boto3.dynamodb.conditions import Key

listings = boto3.resource("dynamodb").Table("listings")


def by_market(country, status):
    return listings.query(KeyConditionExpression=Key("pk").eq(f"{country}#{status}"))["Items"]
`,
      },
    },
    {
      name: 'a tenant composite in a test: code run once, no note',
      files: {
        'test/tickets.test.ts': `import { readFileSync } from 'node:fs';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: 'http://localhost:8000' }));

async function putTicket(tenantId: string, ticket: { id: string; status: string }) {
  await doc.send(new PutCommand({ TableName: 'tickets', Item: { pk: \`\${tenantId}#\${ticket.status}\`, sk: ticket.id } }));
}

test('stores a ticket per tenant and status', async () => {
  const seeds: Array<{ tenantId: string; id: string; status: string }> = JSON.parse(readFileSync('test/seeds.json', 'utf8'));
  for (const seed of seeds) await putTicket(seed.tenantId, seed);
});
`,
      },
    },
  ],
  invalid: [
    {
      name: 'a repository keyed by the tenant and the entity type (SDK v3 DocumentClient)',
      files: {
        'src/records/repository.ts': `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

export interface RecordItem {
  tenantId: string;
  entityType: string;
  id: string;
  body: unknown;
}

export class RecordRepository {
  constructor(private readonly doc: DynamoDBDocumentClient) {}

  async save(record: RecordItem) {
    await this.doc.send(
      new PutCommand({
        TableName: process.env.RECORDS_TABLE,
        Item: {
          pk: \`\${record.tenantId}#\${record.entityType}\`,
          sk: record.id,
          body: record.body,
        },
      }),
    );
  }
}
`,
      },
      errors: [{ line: 18, severity: 'info', messageId: 'tenantFewValues' }],
    },
    {
      name: 'a legacy handler keyed by workspace and document type (SDK v2)',
      files: {
        'handlers/upload.js': `const AWS = require('aws-sdk');

const docClient = new AWS.DynamoDB.DocumentClient();

exports.handler = async (event) => {
  const { workspaceId } = event.pathParameters;
  const { documentType, name } = JSON.parse(event.body);
  await docClient
    .put({
      TableName: process.env.DOCUMENTS_TABLE,
      Item: {
        PK: \`WS#\${workspaceId}#DOC#\${documentType}\`,
        SK: event.requestContext.requestId,
        name,
      },
    })
    .promise();
  return { statusCode: 201 };
};
`,
      },
      errors: [{ line: 12, severity: 'info' }],
    },
    {
      name: 'an org and kind query, and an account and archived-flag write (boto3)',
      files: {
        'service/catalog.py': `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("catalog")


def handler(event, context):
    org_id = event["pathParameters"]["org_id"]
    kind = event["queryStringParameters"]["kind"]
    resp = table.query(KeyConditionExpression=Key("pk").eq(f"ORG#{org_id}#TYPE#{kind}"))
    return resp["Items"]


def archive(event, context):
    item = event["detail"]
    table.put_item(
        Item={
            "pk": f"ACCOUNT#{item['account_id']}#{item['is_archived']}",
            "sk": item["sku"],
        }
    )
`,
      },
      errors: [
        { line: 10, severity: 'info' },
        { line: 18, severity: 'info' },
      ],
    },
    {
      name: 'a pick between enum members after the org id',
      files: {
        'src/billing.ts': `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

enum DocKind {
  Invoice = 'INVOICE',
  Quote = 'QUOTE',
}

export async function file(doc: DynamoDBDocumentClient, orgId: string, id: string, accepted: boolean) {
  await doc.send(
    new PutCommand({
      TableName: 'billing',
      Item: { pk: \`\${accepted ? DocKind.Invoice : DocKind.Quote}#\${orgId}\`, sk: id },
    }),
  );
}
`,
      },
      errors: [{ line: 12, severity: 'info' }],
    },
    {
      name: "a merchant's payouts by state, the merchant's id read as merchant.id",
      files: {
        'src/payouts.ts': `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

type Merchant = { id: string; name: string };
type Payout = { payoutId: string; state: 'scheduled' | 'paid' | 'failed'; amount: number };

export async function recordPayout(doc: DynamoDBDocumentClient, merchant: Merchant, payout: Payout) {
  await doc.send(
    new PutCommand({
      TableName: 'payouts',
      Item: { pk: \`MERCHANT#\${merchant.id}#\${payout.state}\`, sk: payout.payoutId, amount: payout.amount },
    }),
  );
}
`,
      },
      errors: [{ line: 10, severity: 'info' }],
    },
    {
      name: 'a constant status written with its label after the workspace id',
      files: {
        'src/alerts/store.ts': `import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';

export const activeAlerts = (doc: DynamoDBDocumentClient, workspaceId: string) =>
  doc.send(
    new QueryCommand({
      TableName: 'alerts',
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': \`WS#\${workspaceId}#STATE#FIRING\` },
    }),
  );
`,
      },
      errors: [{ line: 8, severity: 'info' }],
    },
    {
      name: 'ElectroDB: a status index keyed by tenant and status, queried per request',
      files: {
        'src/tickets.ts': `import { Entity } from 'electrodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export const Ticket = new Entity(
  {
    model: { entity: 'ticket', version: '1', service: 'helpdesk' },
    attributes: {
      tenantId: { type: 'string', required: true },
      ticketId: { type: 'string', required: true },
      status: { type: ['open', 'pending', 'closed'] as const, required: true },
      openedAt: { type: 'string', required: true },
    },
    indexes: {
      byId: {
        pk: { field: 'pk', composite: ['tenantId', 'ticketId'] },
        sk: { field: 'sk', composite: [] },
      },
      byStatus: {
        index: 'gsi1',
        pk: { field: 'gsi1pk', composite: ['tenantId', 'status'] },
        sk: { field: 'gsi1sk', composite: ['openedAt'] },
      },
    },
  },
  { client: new DynamoDBClient({}), table: 'helpdesk' },
);

export async function queue(tenantId: string, status: 'open' | 'pending' | 'closed') {
  return Ticket.query.byStatus({ tenantId, status }).go();
}

export async function open(tenantId: string, ticketId: string) {
  await Ticket.create({ tenantId, ticketId, status: 'open', openedAt: new Date().toISOString() }).go();
}
`,
      },
      // The create writes the index key too, with the constant status 'open': the tenant's busiest value.
      errors: [
        { line: 29, severity: 'info' },
        { line: 33, severity: 'info' },
      ],
    },
    {
      name: "a B2B customer's invoices by state (boto3 resource)",
      files: {
        'billing/invoices.py': `import os

import boto3

table = boto3.resource("dynamodb").Table(os.environ["INVOICES_TABLE"])


def record_invoice(customer_id: str, invoice_id: str, state: str, amount_cents: int) -> None:
    table.put_item(
        Item={
            "pk": f"CUSTOMER#{customer_id}#STATE#{state}",
            "sk": invoice_id,
            "amount_cents": amount_cents,
        }
    )
`,
      },
      errors: [{ line: 11, severity: 'info' }],
    },
    {
      name: 'a ledger listed by tenant and entity, the entity a parameter typed with an enum imported from the domain module',
      files: {
        'src/billing/domain.ts': `export enum LedgerEntity {
  Invoice = 'INVOICE',
  CreditNote = 'CREDIT_NOTE',
  Payment = 'PAYMENT',
}

export interface LedgerEntry {
  id: string;
  amountCents: number;
}
`,
        'src/billing/ledger-repository.ts': `import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { LedgerEntity, type LedgerEntry } from './domain';

export class LedgerRepository {
  constructor(private readonly doc: DynamoDBDocumentClient, private readonly table: string) {}

  async list(tenantId: string, entity: LedgerEntity): Promise<LedgerEntry[]> {
    const out = await this.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': \`\${tenantId}#\${entity}\` },
      }),
    );
    return (out.Items ?? []) as LedgerEntry[];
  }
}
`,
      },
      errors: [{ file: 'src/billing/ledger-repository.ts', line: 12, severity: 'info' }],
    },
    {
      name: 'imports by account and source, the source a union of string literals declared beside the handler',
      files: {
        'src/imports/record-import.ts': `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export type ImportSource = 'webhook' | 'csv-upload' | 'api';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function recordImport(accountId: string, source: ImportSource, importId: string, rows: number) {
  await doc.send(
    new PutCommand({
      TableName: 'imports',
      Item: { pk: \`ACCOUNT#\${accountId}#SRC#\${source}\`, sk: importId, rows },
    }),
  );
}
`,
      },
      errors: [{ line: 12, severity: 'info' }],
    },
    {
      name: "an organisation's open orders: a member of a status enum written in the key",
      files: {
        'src/orders/order.ts': `export enum OrderStatus {
  Open = 'OPEN',
  Fulfilled = 'FULFILLED',
  Cancelled = 'CANCELLED',
}
`,
        'src/orders/open-orders.ts': `import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { OrderStatus } from './order';

export async function openOrders(doc: DynamoDBDocumentClient, orgId: string) {
  const { Items } = await doc.send(
    new QueryCommand({
      TableName: process.env.ORDERS_TABLE,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': \`ORG#\${orgId}#\${OrderStatus.Open}\` },
    }),
  );
  return Items ?? [];
}
`,
      },
      errors: [{ file: 'src/orders/open-orders.ts', line: 9, severity: 'info' }],
    },
  ],
});
