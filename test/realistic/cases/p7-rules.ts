import type { Case } from '../case';

/**
 * The rules past the key itself: a timestamp sort key under a hot key (SL005), reads
 * that miss shards (SL006), readers and writers that disagree on the shard set (SL007)
 * and scatter-gather reads of one page per shard (SL008), in the shapes services,
 * repositories, Lambda handlers and scripts give them; and the same reads written
 * correctly, which must stay quiet.
 */
export const cases: Case[] = [
  {
    name: 'Lambda handler appending audit events under one partition with an ISO timestamp sort key',
    files: {
      'requirements.txt': 'boto3\n',
      'functions/audit/handler.py': `import json
import os
from datetime import datetime, timezone

import boto3

table = boto3.resource("dynamodb").Table(os.environ["AUDIT_TABLE"])


def lambda_handler(event, context):
    body = json.loads(event["body"])
    table.put_item(
        Item={
            "pk": "AUDIT",  # expect SL001:error
            "sk": datetime.now(timezone.utc).isoformat(),  # expect SL005:info
            "actor": body["actor"],
            "action": body["action"],
        }
    )
    return {"statusCode": 204}
`,
    },
  },
  {
    name: 'metrics repository class writing a daily bucket with an epoch-millis sort key',
    files: {
      'package.json': '{ "name": "metrics" }\n',
      'src/repositories/metric-repository.ts': `import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

export interface Metric {
  name: string;
  value: number;
}

export class MetricRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async record(metric: Metric): Promise<void> {
    const day = new Date().toISOString().slice(0, 10);
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          PK: \`METRICS#\${day}\`, // expect SL002:warning
          SK: Date.now(), // expect SL005:info
          name: metric.name,
          value: metric.value,
        },
      }),
    );
  }
}
`,
    },
  },
  {
    name: 'leaderboard service: sharded writer, reader Lambda fans out over the shards one page each',
    files: {
      'package.json': '{ "name": "leaderboard" }\n',
      'src/shards.ts': `export const BOARD_SHARDS = 6;
`,
      'src/services/score-service.ts': `import { randomInt } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { BOARD_SHARDS } from "../shards";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function submitScore(playerId: string, score: number) {
  await doc.send(
    new PutCommand({
      TableName: process.env.TABLE_NAME,
      Item: { PK: \`BOARD#\${randomInt(BOARD_SHARDS)}\`, SK: \`PLAYER#\${playerId}\`, score },
    }),
  );
}
`,
      'src/handlers/get-board.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { APIGatewayProxyResult } from "aws-lambda";
import { BOARD_SHARDS } from "../shards";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (): Promise<APIGatewayProxyResult> => {
  const pages = await Promise.all(
    Array.from({ length: BOARD_SHARDS }, (_, shard) =>
      doc.send(
        new QueryCommand({
          TableName: process.env.TABLE_NAME,
          KeyConditionExpression: "PK = :pk",
          ExpressionAttributeValues: { ":pk": \`BOARD#\${shard}\` }, // expect SL008:warning
        }),
      ),
    ),
  );
  const items = pages.flatMap((p) => p.Items ?? []);
  return { statusCode: 200, body: JSON.stringify(items) };
};
`,
    },
  },
  {
    name: 'Python feed repository: sharded writes, a reader that loops over the shards without following pages',
    files: {
      'requirements.txt': 'boto3\n',
      'feed/repository.py': `import random

from boto3.dynamodb.conditions import Key

FEED_SHARDS = 4


class FeedRepository:
    def __init__(self, table):
        self.table = table

    def add(self, post_id, body):
        shard = random.randrange(FEED_SHARDS)
        self.table.put_item(Item={"pk": f"FEED#{shard}", "sk": post_id, "body": body})

    def all_posts(self):
        posts = []
        for shard in range(FEED_SHARDS):
            response = self.table.query(KeyConditionExpression=Key("pk").eq(f"FEED#{shard}"))  # expect SL008:warning
            posts.extend(response["Items"])
        return posts
`,
    },
  },
  {
    name: 'the same fan-out written right: paginateQuery per shard, and a top-n read with Limit',
    files: {
      'package.json': '{ "name": "leaderboard" }\n',
      'src/board.ts': `import { randomInt } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, QueryCommand, paginateQuery } from "@aws-sdk/lib-dynamodb";

const SHARDS = 5;
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function submit(playerId: string, score: number) {
  await doc.send(
    new PutCommand({ TableName: "board", Item: { pk: \`TOP#\${randomInt(SHARDS)}\`, sk: playerId, score } }),
  );
}

export async function everyone() {
  const items = [];
  for (let shard = 0; shard < SHARDS; shard++) {
    const pages = paginateQuery(
      { client: doc },
      { TableName: "board", KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": \`TOP#\${shard}\` } },
    );
    for await (const page of pages) items.push(...(page.Items ?? []));
  }
  return items;
}

export async function topTen() {
  const shards = [...Array(SHARDS).keys()];
  const pages = await Promise.all(
    shards.map((shard) =>
      doc.send(
        new QueryCommand({
          TableName: "board",
          IndexName: "byScore",
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": \`TOP#\${shard}\` },
          ScanIndexForward: false,
          Limit: 10,
        }),
      ),
    ),
  );
  return pages.flatMap((p) => p.Items ?? []).slice(0, 10);
}
`,
    },
  },
  {
    name: 'votes sharded by a Python worker, counted by a TypeScript report reading the bare key',
    files: {
      'worker/requirements.txt': 'boto3\n',
      'worker/votes.py': `import os
import random

import boto3

VOTE_SHARDS = 8
table = boto3.resource("dynamodb").Table(os.environ["VOTES_TABLE"])


def cast(poll_id, option):
    table.update_item(
        Key={"pk": f"POLL#{poll_id}#{random.randrange(VOTE_SHARDS)}", "sk": option},
        UpdateExpression="ADD votes :one",
        ExpressionAttributeValues={":one": 1},
    )
`,
      'report/package.json': '{ "name": "report" }\n',
      'report/src/tally.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function tally(pollId: string) {
  const { Items = [] } = await doc.send(
    new QueryCommand({
      TableName: process.env.VOTES_TABLE,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": \`POLL#\${pollId}\` }, // expect SL006:error
    }),
  );
  return Items;
}
`,
    },
  },
  {
    name: 'session store: writer hashes the user into shards, an admin script reads shard 0 only',
    files: {
      'requirements.txt': 'boto3\n',
      'sessions/store.py': `import zlib

import boto3

SHARDS = 10
table = boto3.resource("dynamodb").Table("sessions")


def save(user_id, token):
    shard = zlib.crc32(user_id.encode()) % SHARDS
    table.put_item(Item={"pk": f"ACTIVE#{shard}", "sk": user_id, "token": token})
`,
      'sessions/active.py': `import boto3

table = boto3.resource("dynamodb").Table("sessions")


def active_users():
    response = table.get_item(Key={"pk": "ACTIVE#0", "sk": "summary"})  # expect SL006:error
    return response.get("Item")
`,
    },
  },
  {
    name: 'tutorial-style counter: writer picks shard 1..10 with randint, the reader sums range(10)',
    files: {
      'requirements.txt': 'boto3\n',
      'counter.py': `import random

import boto3
from boto3.dynamodb.conditions import Key

dynamodb = boto3.resource("dynamodb")
table = dynamodb.Table("page_views")
SHARDS = 10


def increment(page):
    table.update_item(
        Key={"pk": f"VIEWS#{page}#{random.randint(1, SHARDS)}", "sk": "count"},
        UpdateExpression="ADD hits :one",
        ExpressionAttributeValues={":one": 1},
    )


def total(page):
    hits = 0
    for shard in range(SHARDS):
        item = table.get_item(Key={"pk": f"VIEWS#{page}#{shard}", "sk": "count"}).get("Item")  # expect SL007:error
        hits += int(item["hits"]) if item else 0
    return hits
`,
    },
  },
  {
    name: 'two services writing one order stream with different shard counts',
    files: {
      'package.json': '{ "name": "orders" }\n',
      'src/checkout/place-order.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function placeOrder(orderId: string, total: number) {
  const shard = Math.floor(Math.random() * 4);
  await doc.send(
    new PutCommand({ TableName: "orders", Item: { pk: \`OPEN#\${shard}\`, sk: orderId, total } }),
  );
}
`,
      'src/imports/bulk-import.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function importOrder(orderId: string, total: number) {
  const shard = Math.floor(Math.random() * 8);
  await doc.send(
    new PutCommand({ TableName: "orders", Item: { pk: \`OPEN#\${shard}\`, sk: orderId, total } }), // expect SL007:error
  );
}
`,
    },
  },
  {
    name: 'a hard-coded shard list in a reader misses the last shard of the writer',
    files: {
      'package.json': '{ "name": "inbox" }\n',
      'src/inbox/writer.ts': `import { randomInt } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function notifyAll(messageId: string, text: string) {
  await doc.send(
    new PutCommand({ TableName: "inbox", Item: { pk: \`BROADCAST#\${randomInt(4)}\`, sk: messageId, text } }),
  );
}
`,
      'src/inbox/reader.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function latestBroadcasts() {
  const results = [];
  for (const shard of [0, 1, 2]) {
    const { Items = [] } = await doc.send(
      new QueryCommand({
        TableName: "inbox",
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": \`BROADCAST#\${shard}\` }, // expect SL007:error
        ScanIndexForward: false,
        Limit: 20,
      }),
    );
    results.push(...Items);
  }
  return results;
}
`,
    },
  },
];
