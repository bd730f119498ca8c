import type { Case } from '../case';

/** Every reaching definition is an alternative: flag when any branch is hot. */
export const cases: Case[] = [
  {
    name: 'Python if/else choosing an everyone partition',
    files: {
      'requirements.txt': 'boto3\n',
      'app/announce.py': `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("announcements")


def announcements(mode, team_id):
    if mode == "all":
        cond = Key("pk").eq("EVERYONE")  # expect SL001:error
    else:
        cond = Key("pk").eq(f"TEAM#{team_id}")
    return table.query(KeyConditionExpression=cond)["Items"]
`,
    },
  },
  {
    name: 'TS ternary between a user key and a public key',
    files: {
      'package.json': '{ "name": "posts" }\n',
      'src/posts.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function posts(userId?: string) {
  const pk = userId ? \`USER#\${userId}\` : "PUBLIC"; // expect SL001:error
  return doc.send(
    new QueryCommand({
      TableName: "posts",
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": pk },
    }),
  );
}
`,
    },
  },
  {
    name: 'JS let reassigned in an if',
    files: {
      'package.json': '{ "name": "pricing" }\n',
      'src/price.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();

exports.priceList = async (region) => {
  let pk = "PRICES#" + region;
  if (!region) {
    pk = "PRICES#DEFAULT"; // expect SL001:error
  }
  return db.get({ TableName: "pricing", Key: { pk } }).promise();
};
`,
    },
  },
  {
    name: 'Python branches both keyed by entities (no finding)',
    files: {
      'requirements.txt': 'boto3\n',
      'app/lookup.py': `import boto3

table = boto3.resource("dynamodb").Table("accounts")


def lookup(email=None, account_id=None):
    if email:
        key = {"pk": f"EMAIL#{email}"}
    else:
        key = {"pk": f"ACCOUNT#{account_id}"}
    return table.get_item(Key=key).get("Item")
`,
    },
  },
  {
    name: 'Python try/except fallback to a shared partition',
    files: {
      'requirements.txt': 'boto3\n',
      'app/geo.py': `import boto3

table = boto3.resource("dynamodb").Table("geo")


def region_for(ip_lookup, ip):
    try:
        pk = f"COUNTRY#{ip_lookup(ip)}"
    except KeyError:
        pk = "COUNTRY#UNKNOWN"  # expect SL001:error
    return table.get_item(Key={"pk": pk}).get("Item")
`,
    },
  },
  {
    name: 'TS Lambda handler defaulting a missing query parameter to a catch-all partition',
    files: {
      'package.json': '{ "name": "catalog" }\n',
      'src/handlers/list.ts': `import type { APIGatewayProxyEvent } from "aws-lambda";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: APIGatewayProxyEvent) => {
  const category = event.queryStringParameters?.category ?? "ALL"; // expect SL001:error
  const out = await doc.send(
    new QueryCommand({
      TableName: process.env.PRODUCTS_TABLE,
      KeyConditionExpression: "category = :c",
      ExpressionAttributeValues: { ":c": category },
    }),
  );
  return { statusCode: 200, body: JSON.stringify(out.Items) };
};
`,
    },
  },
  {
    name: 'JS switch whose default case writes a shared partition',
    files: {
      'package.json': '{ "name": "audit" }\n',
      'lib/audit.js': `const { DynamoDBClient } = require("@aws-sdk/client-dynamodb");
const { DynamoDBDocumentClient, PutCommand } = require("@aws-sdk/lib-dynamodb");

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

async function record(actor, action) {
  let pk;
  switch (actor.kind) {
    case "user":
      pk = \`USER#\${actor.userId}\`;
      break;
    case "service":
      pk = \`SERVICE#\${actor.serviceId}\`;
      break;
    default:
      pk = "AUDIT#SYSTEM"; // expect SL001:error
  }
  await doc.send(new PutCommand({ TableName: "audit", Item: { pk, sk: \`\${Date.now()}#\${action}\` } })); // expect SL005:info
}

module.exports = { record };
`,
    },
  },
  {
    name: 'Python elif chain with a global scope',
    files: {
      'requirements.txt': 'boto3\n',
      'svc/quotas.py': `import boto3

table = boto3.resource("dynamodb").Table("quotas")


def consume(scope, org_id, user_id):
    if scope == "org":
        pk = f"ORG#{org_id}"
    elif scope == "user":
        pk = f"USER#{user_id}"
    else:
        pk = "QUOTA#GLOBAL"  # expect SL004:warning
    table.update_item(
        Key={"pk": pk},
        UpdateExpression="ADD used :one",
        ExpressionAttributeValues={":one": 1},
    )
`,
    },
  },
  {
    name: 'Python tenant falling back to a default tenant with or',
    files: {
      'requirements.txt': 'boto3\n',
      'api/settings.py': `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("settings")


def load_settings(request):
    tenant = request.headers.get("X-Tenant-Id") or "default"  # expect SL001:error
    resp = table.query(KeyConditionExpression=Key("tenant").eq(tenant))
    return {item["name"]: item["value"] for item in resp["Items"]}
`,
    },
  },
  {
    name: 'TS if/else choosing between two entity keys (no finding)',
    files: {
      'package.json': '{ "name": "sessions" }\n',
      'src/sessions.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function session(token: string | undefined, deviceId: string) {
  let key: Record<string, string>;
  if (token) {
    key = { pk: \`TOKEN#\${token}\` };
  } else {
    key = { pk: \`DEVICE#\${deviceId}\` };
  }
  const out = await doc.send(new GetCommand({ TableName: "sessions", Key: key }));
  return out.Item;
}
`,
    },
  },
  {
    name: 'Python default assigned before an if/else that always replaces it (no finding)',
    files: {
      'requirements.txt': 'boto3\n',
      'app/inbox.py': `import boto3

table = boto3.resource("dynamodb").Table("inbox")


def unread(user_id, team_id, for_team):
    pk = "INBOX#ALL"
    if for_team:
        pk = f"TEAM#{team_id}"
    else:
        pk = f"USER#{user_id}"
    return table.get_item(Key={"pk": pk}).get("Item")
`,
    },
  },
];
