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
];
