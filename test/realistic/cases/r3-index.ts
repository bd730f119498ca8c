import type { Case } from '../case';

/** Writes that set a GSI's partition-key attribute write that index's partition. */
export const cases: Case[] = [
  {
    name: 'gsi1pk constant in an Item; the index is queried elsewhere',
    files: {
      'package.json': '{ "name": "games" }\n',
      'src/write.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function saveGame(gameId: string, score: number) {
  await doc.send(
    new PutCommand({
      TableName: "games",
      Item: { pk: \`GAME#\${gameId}\`, sk: "META", gsi1pk: "ALL", gsi1sk: score }, // expect SL001:error
    }),
  );
}
`,
      'src/read.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function topGames(kind: string) {
  return doc.send(
    new QueryCommand({
      TableName: "games",
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :k",
      ExpressionAttributeValues: { ":k": kind }, // expect SL003:warning
      ScanIndexForward: false,
      Limit: 10,
    }),
  );
}
`,
    },
  },
  {
    name: 'UpdateExpression SET of GSI1PK to a constant',
    files: {
      'requirements.txt': 'boto3\n',
      'app/orders.py': `import boto3

table = boto3.resource("dynamodb").Table("shop")


def mark_pending(order_id):
    table.update_item(
        Key={"PK": f"ORDER#{order_id}", "SK": "META"},
        UpdateExpression="SET #s = :s, GSI1PK = :g",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":s": "PENDING", ":g": "PENDING_ORDERS"},  # expect SL001:error
    )
`,
    },
  },
  {
    name: 'index attribute named by the table definition',
    files: {
      'requirements.txt': 'boto3\n',
      'infra/create.py': `import boto3

client = boto3.client("dynamodb")


def create():
    client.create_table(
        TableName="tasks",
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        AttributeDefinitions=[
            {"AttributeName": "id", "AttributeType": "S"},
            {"AttributeName": "queue", "AttributeType": "S"},
        ],
        GlobalSecondaryIndexes=[
            {
                "IndexName": "by-queue",
                "KeySchema": [{"AttributeName": "queue", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }
        ],
        BillingMode="PAY_PER_REQUEST",
    )
`,
      'app/tasks.py': `import uuid
import boto3

table = boto3.resource("dynamodb").Table("tasks")


def submit(payload):
    table.put_item(Item={"id": str(uuid.uuid4()), "queue": "default", "payload": payload})  # expect SL001:error
`,
    },
  },
  {
    name: 'GSI_1_PK written with the tenant id (no finding)',
    files: {
      'package.json': '{ "name": "tenants" }\n',
      'src/users.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();

exports.addUser = async (tenantId, userId) => {
  await db
    .put({ TableName: "main", Item: { PK: "USER#" + userId, SK: "META", GSI_1_PK: "TENANT#" + tenantId } })
    .promise();
};
`,
    },
  },
  {
    name: 'index partition from attribute name alone: gsi2_pk',
    files: {
      'requirements.txt': 'boto3\n',
      'app/feed.py': `import time
import boto3

table = boto3.resource("dynamodb").Table("social")


def post(user_id, text):
    table.put_item(
        Item={
            "pk": f"USER#{user_id}",
            "sk": f"POST#{time.time_ns()}",
            "gsi2_pk": "TIMELINE",  # expect SL001:error
            "gsi2_sk": f"{time.time_ns()}",  # expect SL005:info
            "text": text,
        }
    )
`,
    },
  },
  {
    name: 'index query of a constant GSI partition',
    files: {
      'package.json': '{ "name": "rank" }\n',
      'src/rank.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function ranking() {
  return doc.send(
    new QueryCommand({
      TableName: "players",
      IndexName: "by-score",
      KeyConditionExpression: "board = :b",
      ExpressionAttributeValues: { ":b": "WORLD" }, // expect SL001:error
    }),
  );
}
`,
    },
  },
  {
    name: 'transaction: a typed Put sets a day-keyed GSI partition, an Update sets a constant one',
    files: {
      'package.json': '{ "name": "matches", "dependencies": { "@aws-sdk/client-dynamodb": "^3.600.0" } }\n',
      'src/lib/dynamo.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";

export const dynamo = new DynamoDBClient({});
export const TABLE = process.env.MATCHES_TABLE ?? "";
`,
      'src/matches/record-match.ts': `import { TransactWriteItemsCommand } from "@aws-sdk/client-dynamodb";
import { dynamo, TABLE } from "../lib/dynamo";

const day = () => new Date().toISOString().slice(0, 10);

export async function recordMatch(matchId: string, playerId: string, points: number) {
  await dynamo.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        {
          Put: {
            TableName: TABLE,
            Item: {
              pk: { S: \`MATCH#\${matchId}\` },
              sk: { S: "META" },
              GSI1PK: { S: \`PLAYED#\${day()}\` }, // expect SL002:warning
              GSI1SK: { S: \`MATCH#\${matchId}\` },
              points: { N: String(points) },
            },
            ConditionExpression: "attribute_not_exists(pk)",
          },
        },
        {
          Update: {
            TableName: TABLE,
            Key: { pk: { S: \`PLAYER#\${playerId}\` }, sk: { S: "PROFILE" } },
            UpdateExpression: "ADD total :p SET GSI2PK = :ranked, GSI2SK = :score",
            ExpressionAttributeValues: {
              ":p": { N: String(points) },
              ":ranked": { S: "RANKED" }, // expect SL001:error
              ":score": { S: String(points).padStart(8, "0") },
            },
          },
        },
      ],
    }),
  );
}
`,
    },
  },
  {
    name: 'boto3 client transact_write_items: a typed Put into a constant GSI partition',
    files: {
      'requirements.txt': 'boto3\n',
      'app/tickets.py': `import uuid

import boto3

client = boto3.client("dynamodb")


def open_ticket(customer_id, subject):
    ticket_id = str(uuid.uuid4())
    client.transact_write_items(
        TransactItems=[
            {
                "Put": {
                    "TableName": "support",
                    "Item": {
                        "PK": {"S": f"TICKET#{ticket_id}"},
                        "SK": {"S": "META"},
                        "GSI1PK": {"S": "OPEN"},  # expect SL001:error
                        "GSI1SK": {"S": f"CUSTOMER#{customer_id}"},
                        "subject": {"S": subject},
                    },
                }
            },
            {
                "Update": {
                    "TableName": "support",
                    "Key": {"PK": {"S": f"CUSTOMER#{customer_id}"}, "SK": {"S": "META"}},
                    "UpdateExpression": "ADD openTickets :one",
                    "ExpressionAttributeValues": {":one": {"N": "1"}},
                }
            },
        ]
    )
`,
    },
  },
  {
    name: 'batchWrite of PutRequests whose items share one GSI partition',
    files: {
      'package.json': '{ "name": "imports" }\n',
      'src/import-rows.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();

exports.handler = async (event) => {
  const rows = JSON.parse(event.body);
  await db
    .batchWrite({
      RequestItems: {
        catalog: rows.map((row) => ({
          PutRequest: { Item: { pk: "ITEM#" + row.sku, sk: "META", gsi1pk: "CATALOG", gsi1sk: row.name } }, // expect SL001:error
        })),
      },
    })
    .promise();
};
`,
    },
  },
  {
    name: 'transaction setting a per-customer GSI partition (no finding)',
    files: {
      'package.json': '{ "name": "orders" }\n',
      'src/orders.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function placeOrder(customerId: string, orderId: string, total: number) {
  await doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: "shop",
            Item: { PK: \`ORDER#\${orderId}\`, SK: "META", GSI1PK: \`CUSTOMER#\${customerId}\`, GSI1SK: \`ORDER#\${orderId}\`, total },
          },
        },
        {
          Update: {
            TableName: "shop",
            Key: { PK: \`CUSTOMER#\${customerId}\`, SK: "META" },
            UpdateExpression: "SET lastOrder = :o, GSI2PK = :c",
            ExpressionAttributeValues: { ":o": orderId, ":c": \`CUSTOMER#\${customerId}\` },
          },
        },
      ],
    }),
  );
}
`,
    },
  },
];
