import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { analyze, indexedWorkspace, summarize } from './helpers';
import { whyUnresolved } from '../../server/src/engine/requests/coverage';

/**
 * Tables made by the workspace's own factories (`create_connection("chat")` returning a
 * boto3 `Table`, `getTable(name)` returning a client and a name) are the tables they
 * name, so an index key written on every request is judged on its index, and the
 * message says which index of which table.
 */

test('Python: a Table from an imported factory; the constant index key is reported on its index', async () => {
  const { index, dir } = await indexedWorkspace({
    'chat/__init__.py': '',
    'chat/db.py': `import os

import boto3


def create_connection(table_name):
    dynamodb = boto3.resource("dynamodb", region_name=os.environ.get("AWS_REGION", "us-east-1"))
    return dynamodb.Table(table_name)
`,
    'chat/messages.py': `import time

from .db import create_connection

messages = create_connection("chat")


def post(room_id, author, text):
    messages.put_item(
        Item={"room_id": room_id, "ts": int(time.time() * 1000), "author": author, "text": text, "feed": "ALL"}
    )
`,
    'scripts/create_tables.py': `import boto3


def main():
    boto3.client("dynamodb").create_table(
        TableName="chat",
        KeySchema=[{"AttributeName": "room_id", "KeyType": "HASH"}, {"AttributeName": "ts", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[
            {
                "IndexName": "feed-index",
                "KeySchema": [{"AttributeName": "feed", "KeyType": "HASH"}, {"AttributeName": "ts", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "ALL"},
            }
        ],
        BillingMode="PAY_PER_REQUEST",
    )
`,
  });
  const r = index.results().find((x) => x.file === path.join(dir, 'chat/messages.py'))!;
  assert.deepEqual(summarize(r), [
    '10 PutItem chat room_id={entity-id} ts={timestamp} (high-cardinality)',
    '10 PutItem chat feed=ALL ts={timestamp} (constant)',
  ]);
  const sl001 = r.findings.find((f) => f.rule === 'SL001');
  assert.match(sl001?.message ?? '', /^Partition key "ALL" on index "feed-index" of table "chat" is a constant/);
});

test('Python: one factory in the file called for two tables gives each call its own', async () => {
  const r = await analyze(
    'app/store.py',
    `import uuid

import boto3


def table_for(name):
    return boto3.resource("dynamodb").Table(name)


def save_user(user_id, email):
    table_for("users").put_item(Item={"user_id": user_id, "email": email})


def save_audit(action):
    table_for("audit").put_item(Item={"pk": "AUDIT", "sk": str(uuid.uuid4()), "action": action})
`,
  );
  assert.deepEqual(summarize(r), [
    '11 PutItem users user_id={entity-id} (high-cardinality)',
    '15 PutItem audit pk=AUDIT sk={random} (constant)',
  ]);
});

test('TS: a factory returning { client, name }, destructured or not, names the table and its index', async () => {
  const { index, dir } = await indexedWorkspace({
    'src/lib/dynamo.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export function getTable(name: string) {
  return { client, name };
}
`,
    'src/tickets/service.ts': `import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { getTable } from "../lib/dynamo";

export async function openTicket(id: string, subject: string) {
  const { client, name } = getTable("tickets");
  await client.send(new PutCommand({ TableName: name, Item: { id, subject, status: "OPEN" } }));
}

export async function closeTicket(id: string) {
  const tickets = getTable("tickets");
  await tickets.client.send(
    new UpdateCommand({
      TableName: tickets.name,
      Key: { id },
      UpdateExpression: "SET #s = :s",
      ExpressionAttributeNames: { "#s": "status" },
      ExpressionAttributeValues: { ":s": "CLOSED" },
    }),
  );
}
`,
    'infra/stack.ts': `import { Stack } from "aws-cdk-lib";
import { AttributeType, Table } from "aws-cdk-lib/aws-dynamodb";

export class TicketsStack extends Stack {
  build() {
    const table = new Table(this, "Tickets", {
      tableName: "tickets",
      partitionKey: { name: "id", type: AttributeType.STRING },
    });
    table.addGlobalSecondaryIndex({ indexName: "status-index", partitionKey: { name: "status", type: AttributeType.STRING } });
  }
}
`,
  });
  const r = index.results().find((x) => x.file === path.join(dir, 'src/tickets/service.ts'))!;
  const writes = r.findings
    .filter((f) => f.rule === 'SL001')
    .map((f) => `${f.span.startLine + 1} ${f.message.split(' is ')[0]}`);
  // Closing sets the index key too: every close writes the one index partition "CLOSED".
  assert.deepEqual(writes, [
    '6 Partition key "OPEN" on index "status-index" of table "tickets"',
    '17 Partition key "CLOSED" on index "status-index" of table "tickets"',
  ]);
  assert.ok(r.accesses.every((a) => a.table.kind === 'literal' && a.table.name === 'tickets'));
});

test('an unknown table says where its name should come from, in the language of the file', async () => {
  const py = await analyze(
    'app/repo.py',
    `from shared.connections import get_table

orders = get_table()


def save(order_id):
    orders.put_item(Item={"order_id": order_id})
`,
  );
  const why = whyUnresolved(py.accesses[0]);
  assert.equal(why?.reason, 'table-unknown');
  assert.equal(why?.detail, 'the table from orders');
  assert.match(why?.help ?? '', /os\.environ\["TABLE_NAME"\]/);
  assert.doesNotMatch(why?.help ?? '', /process\.env/);
  const ts = await analyze(
    'src/repo.ts',
    `import { DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { tableFor } from "shared-config";
const ddb = new DynamoDBClient({});
export const load = (id: string) => ddb.send(new GetItemCommand({ TableName: tableFor("orders"), Key: { id: { S: id } } }));
`,
  );
  const whyTs = whyUnresolved(ts.accesses[0]);
  assert.equal(whyTs?.detail, 'the table from tableFor("orders")');
  assert.match(whyTs?.help ?? '', /process\.env\.TABLE_NAME/);
});

test('Python: a DAO whose table name is a constructor default names that table when no caller passes one', async () => {
  const r = await analyze(
    'app/board_dao.py',
    `import boto3


class BoardDao:
    def __init__(self, table_name="boards"):
        self.table = boto3.resource("dynamodb").Table(table_name)

    def record(self, player, score):
        self.table.put_item(Item={"PK": "BOARD#global", "SK": player, "score": score})
`,
  );
  assert.deepEqual(summarize(r), ['9 PutItem boards PK=BOARD#global SK={unknown} (constant)']);
});
