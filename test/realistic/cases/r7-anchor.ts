import type { Case } from '../case';

/** A key declared earlier: the finding sits where it enters the request. */
export const cases: Case[] = [
  {
    name: 'expression value from a variable declared above',
    files: {
      'package.json': '{ "name": "kinds" }\n',
      'src/kinds.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function allWidgets() {
  const kind = "WIDGET";
  return doc.send(
    new QueryCommand({
      TableName: "things",
      KeyConditionExpression: "pk = :k",
      ExpressionAttributeValues: { ":k": kind }, // expect SL001:error
    }),
  );
}
`,
    },
  },
  {
    name: 'module constant used as the Key value',
    files: {
      'requirements.txt': 'boto3\n',
      'app/rates.py': `import boto3

RATES_KEY = "FX_RATES"
table = boto3.resource("dynamodb").Table("fx")


def rates():
    return table.get_item(
        Key={"pk": RATES_KEY}  # expect SL001:error
    ).get("Item")
`,
    },
  },
  {
    name: 'boto3 Key condition from a variable',
    files: {
      'requirements.txt': 'boto3\n',
      'app/queue.py': `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("work")


def pending():
    partition = "PENDING_WORK"
    return table.query(
        KeyConditionExpression=Key("pk").eq(partition)  # expect SL001:error
    )["Items"]
`,
    },
  },
  {
    name: 'imported constant in a put Item',
    files: {
      'package.json': '{ "name": "k" }\n',
      'src/constants.ts': `export const STATS_PK = "STATS";
`,
      'src/stats.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { STATS_PK } from "./constants";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function snapshot(at: number, data: unknown) {
  await doc.send(
    new PutCommand({
      TableName: "stats",
      Item: {
        pk: STATS_PK, // expect SL001:error
        sk: at, // expect SL005:info
        data,
      },
    }),
  );
}
`,
    },
  },
  {
    name: 'params object built before the call',
    files: {
      'package.json': '{ "name": "p" }\n',
      'src/params.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();

exports.openOrders = () => {
  const params = {
    TableName: "orders",
    KeyConditionExpression: "pk = :p",
    ExpressionAttributeValues: { ":p": "OPEN_ORDERS" }, // expect SL001:error
  };
  return db.query(params).promise();
};
`,
    },
  },
];
