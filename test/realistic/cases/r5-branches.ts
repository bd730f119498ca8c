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
        cond = Key("pk").eq("EVERYONE")  # expect SL001
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
  const pk = userId ? \`USER#\${userId}\` : "PUBLIC"; // expect SL001
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
    pk = "PRICES#DEFAULT"; // expect SL001
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
        pk = "COUNTRY#UNKNOWN"  # expect SL001
    return table.get_item(Key={"pk": pk}).get("Item")
`,
    },
  },
];
