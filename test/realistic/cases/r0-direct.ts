import type { Case } from '../case';

/** The access written in place, in every SDK style: the baseline every other shape builds on. */
export const cases: Case[] = [
  {
    name: 'lib-dynamodb PutCommand with a constant feed key in a service',
    files: {
      'package.json': '{ "name": "activity" }\n',
      'src/activity.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function recordActivity(userId: string, action: string) {
  await doc.send(
    new PutCommand({
      TableName: process.env.ACTIVITY_TABLE,
      Item: {
        pk: "FEED#global", // expect SL001:error
        sk: \`\${Date.now()}#\${userId}\`, // expect SL005:info
        action,
      },
    }),
  );
}
`,
    },
  },
  {
    name: 'low-level client GetItemCommand reading one settings item per request',
    files: {
      'package.json': '{ "name": "settings" }\n',
      'src/settings.js': `const { DynamoDBClient, GetItemCommand } = require("@aws-sdk/client-dynamodb");

const client = new DynamoDBClient({});

async function loadFlags(tenantId) {
  const out = await client.send(
    new GetItemCommand({
      TableName: "app-config",
      Key: { pk: { S: "CONFIG" }, sk: { S: "flags" } }, // expect SL001:error
    }),
  );
  return { tenantId, flags: out.Item };
}

module.exports = { loadFlags };
`,
    },
  },
  {
    name: 'v2 DocumentClient update of a page-view counter',
    files: {
      'package.json': '{ "name": "views" }\n',
      'lib/views.js': `const AWS = require("aws-sdk");
const docClient = new AWS.DynamoDB.DocumentClient();

exports.countView = async (page) => {
  await docClient
    .update({
      TableName: "site-stats",
      Key: { id: "views" }, // expect SL004:warning
      UpdateExpression: "ADD hits :one",
      ExpressionAttributeValues: { ":one": 1 },
    })
    .promise();
  return page;
};
`,
    },
  },
  {
    name: 'boto3 resource query of one shared partition',
    files: {
      'requirements.txt': 'boto3\n',
      'app/news.py': `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("news")


def latest_headlines(limit):
    resp = table.query(
        KeyConditionExpression=Key("pk").eq("HEADLINES"),  # expect SL001:error
        ScanIndexForward=False,
        Limit=limit,
    )
    return resp["Items"]
`,
    },
  },
  {
    name: 'boto3 client put_item with a date bucket partition',
    files: {
      'requirements.txt': 'boto3\n',
      'app/audit.py': `import datetime
import uuid
import boto3

ddb = boto3.client("dynamodb")


def audit(actor, what):
    day = datetime.date.today().isoformat()
    ddb.put_item(
        TableName="audit-log",
        Item={
            "pk": {"S": f"AUDIT#{day}"},  # expect SL002:warning
            "sk": {"S": str(uuid.uuid4())},
            "actor": {"S": actor},
            "what": {"S": what},
        },
    )
`,
    },
  },
  {
    name: 'boto3 resource put keyed by the user id (no finding)',
    files: {
      'requirements.txt': 'boto3\n',
      'app/profiles.py': `import boto3

table = boto3.resource("dynamodb").Table("profiles")


def save_profile(user_id, display_name):
    table.put_item(Item={"pk": f"USER#{user_id}", "sk": "PROFILE", "name": display_name})
`,
    },
  },
  {
    name: 'lib-dynamodb query by status only',
    files: {
      'package.json': '{ "name": "tickets" }\n',
      'src/tickets.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function openTickets(status: "OPEN" | "CLOSED") {
  const res = await ddb.send(
    new QueryCommand({
      TableName: "tickets",
      KeyConditionExpression: "ticketStatus = :s",
      ExpressionAttributeValues: { ":s": status }, // expect SL003:warning
    }),
  );
  return res.Items ?? [];
}
`,
    },
  },
  {
    name: 'v2 DocumentClient put keyed by a uuid (no finding)',
    files: {
      'package.json': '{ "name": "orders" }\n',
      'src/orders.js': `const AWS = require("aws-sdk");
const { v4: uuid } = require("uuid");
const db = new AWS.DynamoDB.DocumentClient();

module.exports.createOrder = async (customerId, lines) => {
  const orderId = uuid();
  await db.put({ TableName: "orders", Item: { orderId, customerId, lines } }).promise();
  return orderId;
};
`,
    },
  },
];
