import type { Case } from '../case';

/**
 * The key model on shapes that hide or rename the key: items built with a spread,
 * key names and values through constants objects and computed properties. What the
 * code does not show is never guessed from what it does.
 */
export const cases: Case[] = [
  {
    name: 'TS repository: the item spreads its input in, then stamps a status and a time',
    files: {
      'package.json': '{ "name": "orders" }\n',
      'src/orders/order.repository.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { CreateOrderInput, Order } from "./order.types";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TABLE = "orders";

export class OrderRepository {
  async create(input: CreateOrderInput): Promise<Order> {
    const item = { ...input, status: "pending", createdAt: Date.now() };
    await doc.send(new PutCommand({ TableName: TABLE, Item: item }));
    return item as Order;
  }

  async get(orderId: string): Promise<Order | undefined> {
    const out = await doc.send(new GetCommand({ TableName: TABLE, Key: { orderId } }));
    return out.Item as Order | undefined;
  }
}
`,
      'src/orders/order.types.ts': `export interface CreateOrderInput {
  orderId: string;
  customerId: string;
  total: number;
}
export type Order = CreateOrderInput & { status: string; createdAt: number };
`,
    },
  },
  {
    name: 'Lambda handler: a JSON body spread into the item with a literal status',
    files: {
      'package.json': '{ "name": "tickets" }\n',
      'src/handlers/open-ticket.js': `const { DynamoDBClient } = require("@aws-sdk/client-dynamodb");
const { DynamoDBDocumentClient, PutCommand } = require("@aws-sdk/lib-dynamodb");

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

exports.handler = async (event) => {
  const body = JSON.parse(event.body || "{}");
  await doc.send(
    new PutCommand({
      TableName: process.env.TICKETS_TABLE,
      Item: { ...body, state: "open", openedAt: new Date().toISOString() },
    }),
  );
  return { statusCode: 201 };
};
`,
    },
  },
  {
    name: 'boto3 DAO: {**payload} with the table key named in a create_table script',
    files: {
      'requirements.txt': 'boto3\n',
      'app/dao/sessions.py': `import time

import boto3

dynamodb = boto3.resource("dynamodb")
sessions = dynamodb.Table("sessions")


class SessionDao:
    def save(self, payload: dict) -> dict:
        item = {**payload, "status": "active", "created_at": int(time.time())}
        sessions.put_item(Item=item)
        return item
`,
      'scripts/bootstrap.py': `import boto3


def bootstrap():
    boto3.client("dynamodb").create_table(
        TableName="sessions",
        KeySchema=[{"AttributeName": "session_id", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "session_id", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )
`,
    },
  },
  {
    name: 'TS: key names in a constants module (enum, frozen object, class statics), values through computed names',
    files: {
      'package.json': '{ "name": "polls" }\n',
      'src/db/keys.ts': `export enum PollKeys {
  pk = "PK",
  sk = "SK",
}
export const Expr = Object.freeze({ pk: "#pk", sk: "#sk" });
export class Vals {
  static readonly PK = ":pk";
  static readonly SK = ":sk";
}
`,
      'src/polls/votes.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { Expr, PollKeys, Vals } from "../db/keys";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function votesOf(pollId: string) {
  const out = await doc.send(
    new QueryCommand({
      TableName: "poll-votes",
      KeyConditionExpression: \`\${Expr.pk} = \${Vals.PK} AND begins_with(\${Expr.sk}, \${Vals.SK})\`,
      ExpressionAttributeNames: { [Expr.pk]: PollKeys.pk, [Expr.sk]: PollKeys.sk },
      ExpressionAttributeValues: { [Vals.PK]: \`POLL#\${pollId}\`, [Vals.SK]: "VOTE#" },
    }),
  );
  return out.Items ?? [];
}
`,
    },
  },
  {
    name: 'TS: a date helper class whose static getter is today, used in a daily key',
    files: {
      'package.json': '{ "name": "streaks" }\n',
      'src/util/dt.ts': `export class DT {
  static get TODAY_ISO(): string {
    return new Date().toISOString().slice(0, 10);
  }
}
`,
      'src/streaks.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { DT } from "./util/dt";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function checkIn(userId: string) {
  await doc.send(
    new PutCommand({
      TableName: "streaks",
      Item: { pk: \`CHECKINS#\${DT.TODAY_ISO}\`, sk: userId }, // expect SL002:warning
    }),
  );
}
`,
    },
  },
  {
    name: 'Express route: the day is a path parameter the client sends',
    files: {
      'package.json': '{ "name": "attendance" }\n',
      'src/routes/attendance.js': `const express = require("express");
const { DynamoDBClient } = require("@aws-sdk/client-dynamodb");
const { DynamoDBDocumentClient, PutCommand } = require("@aws-sdk/lib-dynamodb");

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const router = express.Router();

router.put("/attendance/:day/:studentId", async (req, res) => {
  await doc.send(
    new PutCommand({
      TableName: "attendance",
      Item: { pk: \`DAY#\${req.params.day}\`, sk: req.params.studentId, present: req.body.present },
    }),
  );
  res.sendStatus(204);
});

module.exports = router;
`,
    },
  },
  {
    name: 'Chalice-style app: the table comes from a connection factory; every message writes one feed key',
    files: {
      'requirements.txt': 'boto3\nchalice\n',
      'chalicelib/__init__.py': '',
      'chalicelib/connections.py': `import os

import boto3


def create_connection(name):
    resource = boto3.resource("dynamodb", region_name=os.environ.get("AWS_DEFAULT_REGION", "eu-west-1"))
    return resource.Table(name)
`,
      'chalicelib/messages.py': `import time
import uuid

from .connections import create_connection

TABLE = create_connection("messages")


def post_message(room, author, body):
    TABLE.put_item(
        Item={
            "room": room,
            "sent_at": int(time.time() * 1000),
            "id": str(uuid.uuid4()),
            "author": author,
            "body": body,
            "feed": "GLOBAL",  # expect SL001:error
        }
    )
`,
      'chalicelib/feed.py': `from boto3.dynamodb.conditions import Key

from .connections import create_connection

TABLE = create_connection("messages")


def latest(limit=50):
    return TABLE.query(
        IndexName="feed-index",
        KeyConditionExpression=Key("feed").eq("GLOBAL"),  # expect SL001:error
        ScanIndexForward=False,
        Limit=limit,
    )["Items"]
`,
    },
  },
  {
    name: 'Lambda handler: a shard suffix drawn at module level, once per container',
    files: {
      'package.json': '{ "name": "clicks" }\n',
      'src/handlers/click.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { randomUUID } from "node:crypto";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const CLICK_SHARDS = 10;
const SUFFIX = Math.floor(Math.random() * CLICK_SHARDS);

export const handler = async (event: { body: string }) => {
  const click = JSON.parse(event.body);
  await doc.send(
    new PutCommand({
      TableName: "clicks",
      Item: { pk: \`CLICKS#\${SUFFIX}\`, sk: randomUUID(), target: click.target }, // expect SL010:error
    }),
  );
  return { statusCode: 202 };
};
`,
    },
  },
  {
    name: 'boto3 repository: the shard is a class attribute; a script draws its shard at module level and writes once',
    files: {
      'requirements.txt': 'boto3\n',
      'app/repositories/events.py': `import random
import uuid

import boto3

SHARDS = 8


class EventRepository:
    partition = f"EVENTS#{random.randrange(SHARDS)}"  # expect SL010:error

    def __init__(self):
        self.table = boto3.resource("dynamodb").Table("events")

    def add(self, kind, payload):
        self.table.put_item(Item={"pk": self.partition, "sk": str(uuid.uuid4()), "kind": kind, "payload": payload})
`,
      'scripts/seed_events.py': `import random
import uuid

import boto3

table = boto3.resource("dynamodb").Table("events")
shard = random.randrange(8)
table.put_item(Item={"pk": f"EVENTS#{shard}", "sk": str(uuid.uuid4()), "kind": "seed"})
`,
    },
  },
  {
    name: 'a base save() spreads the caller item in and stamps it; a service passes a constant key',
    files: {
      'package.json': '{ "name": "presence" }\n',
      'src/db/base-store.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function save(table: string, item: Record<string, unknown>): Promise<void> {
  await doc.send(new PutCommand({ TableName: table, Item: { ...item, updatedAt: new Date().toISOString() } }));
}
`,
      'src/presence/service.ts': `import { save } from "../db/base-store";

export async function heartbeat(userId: string): Promise<void> {
  await save("presence", { pk: "ONLINE", sk: userId }); // expect SL001:error
}

export async function profile(userId: string, name: string): Promise<void> {
  await save("presence", { pk: \`USER#\${userId}\`, sk: "PROFILE", name });
}
`,
    },
  },
];
