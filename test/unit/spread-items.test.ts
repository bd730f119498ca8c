import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { analyze, indexedWorkspace, summarize } from './helpers';
import { whyUnresolved } from '../../server/src/engine/requests/coverage';

/**
 * An item built with a spread (`{ ...input, createdAt: Date.now() }`, `{**job, ...}`)
 * does not show its key: it is taken from the table's key names the workspace tells
 * (other calls' keys, key conditions, table definitions), or left unknown; never from
 * the visible attributes by position.
 */

const ORDER_REPOSITORY = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { NewOrder } from "./types";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export class OrderRepository {
  constructor(private readonly tableName = "orders") {}

  async create(input: NewOrder): Promise<void> {
    await doc.send(
      new PutCommand({
        TableName: "orders",
        Item: { ...input, status: "pending", createdAt: Date.now() },
        ConditionExpression: "attribute_not_exists(orderId)",
      }),
    );
  }

  async restamp(order: NewOrder, orderId: string): Promise<void> {
    await doc.send(new PutCommand({ TableName: "orders", Item: { ...order, orderId, updatedAt: Date.now() } }));
  }
}
`;

const ORDER_READS = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function findOrder(orderId: string) {
  const { Item } = await doc.send(new GetCommand({ TableName: "orders", Key: { orderId } }));
  return Item;
}
`;

test('TS: a spread item does not take a visible attribute as its key; the key named elsewhere is used when shown', async () => {
  const { index, dir } = await indexedWorkspace({
    'src/orders/repository.ts': ORDER_REPOSITORY,
    'src/orders/reads.ts': ORDER_READS,
    'src/orders/types.ts': 'export interface NewOrder { orderId: string; customerId: string; total: number }\n',
  });
  const repo = index.results().find((r) => r.file === path.join(dir, 'src/orders/repository.ts'))!;
  assert.deepEqual(summarize(repo), [
    '12 PutItem orders pk=? (unknown)',
    '21 PutItem orders orderId={entity-id} (high-cardinality)',
  ]);
  assert.deepEqual(repo.findings, [], 'no finding on status or createdAt');
  const why = whyUnresolved(repo.accesses[0]);
  assert.equal(why?.reason, 'request-passed-in');
  assert.equal(why?.detail, 'Item from parameter input');
});

test('TS: without any key name in the workspace, a spread item has no key; a conventional key it shows is still read', async () => {
  const r = await analyze(
    'src/events.ts',
    `import { DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { body: string }) => {
  const input = JSON.parse(event.body);
  await doc.send(new PutCommand({ TableName: "events", Item: { ...input, createdAt: Date.now(), kind: "click" } }));
  await doc.send(new PutCommand({ TableName: "feed", Item: { ...input, pk: "FEED", sk: Date.now() } }));
  const defaults = { pk: "DEFAULTS", version: 1 };
  await doc.send(new PutCommand({ TableName: "config", Item: { ...defaults, updatedAt: Date.now() } }));
};
`,
  );
  assert.deepEqual(summarize(r), [
    '7 PutItem events pk=? (unknown)',
    '8 PutItem feed pk=FEED sk={timestamp} (constant)',
    '10 PutItem config pk=DEFAULTS (constant)',
  ]);
  assert.deepEqual(
    r.findings.filter((f) => f.severity !== 'info').map((f) => `${f.span.startLine + 1} ${f.rule}`),
    ['8 SL001', '9 SL001'],
  );
});

test('Python: {**job, ...} takes the key from the table definition, or none', async () => {
  const { index, dir } = await indexedWorkspace({
    'jobs/queue.py': `import time
import boto3

_table = boto3.resource("dynamodb").Table("jobs")


class JobQueue:
    def enqueue(self, job: dict) -> None:
        _table.put_item(Item={**job, "created_at": int(time.time()), "state": "queued"})

    def requeue(self, job: dict, job_id: str) -> None:
        _table.put_item(Item={**job, "job_id": job_id, "state": "queued"})


def audit(entry):
    boto3.resource("dynamodb").Table("audit").put_item(Item={**entry, "logged_at": time.time()})
`,
    'infra/create_tables.py': `import boto3

client = boto3.client("dynamodb")


def main():
    client.create_table(
        TableName="jobs",
        KeySchema=[{"AttributeName": "job_id", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "job_id", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )


if __name__ == "__main__":
    main()
`,
  });
  const queue = index.results().find((r) => r.file === path.join(dir, 'jobs/queue.py'))!;
  assert.deepEqual(summarize(queue), [
    '9 PutItem jobs pk=? (unknown)',
    '12 PutItem jobs job_id={entity-id} (high-cardinality)',
    '16 PutItem audit pk=? (unknown)',
  ]);
  assert.deepEqual(queue.findings, []);
});

test('a wrapper that spreads its parameter into the item is judged at each caller, with what the caller passes', async () => {
  const { index, dir } = await indexedWorkspace({
    'app/store.py': `import time

import boto3

table = boto3.resource("dynamodb").Table("items")


def save(item):
    table.put_item(Item={**item, "created_at": int(time.time())})
`,
    'app/handlers.py': `from app.store import save


def on_signup(event, context):
    save({"pk": "SIGNUPS", "sk": event["user_id"]})
    save({"pk": f"USER#{event['user_id']}", "sk": "PROFILE"})
`,
    'src/repo.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function save(item: Record<string, unknown>) {
  await doc.send(new PutCommand({ TableName: "items", Item: { ...item, createdAt: Date.now() } }));
}
`,
    'src/service.ts': `import { save } from "./repo";

export async function track(userId: string) {
  await save({ pk: "ACTIVE", sk: userId });
}
`,
  });
  const at = (f: string) => index.results().find((r) => r.file === path.join(dir, f))!;
  assert.deepEqual(summarize(at('app/handlers.py')), [
    '5 PutItem items pk=SIGNUPS sk={entity-id} (constant)',
    '6 PutItem items pk=USER#{entity-id} sk=PROFILE (high-cardinality)',
  ]);
  assert.deepEqual(
    at('app/handlers.py').findings.map((f) => `${f.span.startLine + 1} ${f.rule}`),
    ['5 SL001'],
  );
  assert.deepEqual(
    at('src/service.ts').findings.map((f) => `${f.span.startLine + 1} ${f.rule}`),
    ['4 SL001'],
  );
});
