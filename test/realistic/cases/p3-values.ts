import type { Case } from '../case';

/** Loop-varying values and empty placeholders are not constant keys. */
export const cases: Case[] = [
  {
    name: 'Python loop hashing the loop index into the key',
    files: {
      'requirements.txt': 'boto3\n',
      'app/load.py': `import hashlib
import boto3

table = boto3.resource("dynamodb").Table("load")


def write_many(n):
    for i in range(n):
        pk = hashlib.md5(f"k{i}".encode()).hexdigest()
        table.put_item(Item={"pk": pk, "n": i})
`,
    },
  },
  {
    name: 'JS for loop building keys from the index',
    files: {
      'package.json': '{ "name": "l" }\n',
      'src/fill.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function fill(count: number) {
  for (let i = 0; i < count; i++) {
    await doc.send(new PutCommand({ TableName: "fill", Item: { pk: \`ITEM#\${i}\`, sk: "A" } }));
  }
}
`,
    },
  },
  {
    name: 'empty string placeholder then the real key',
    files: {
      'requirements.txt': 'boto3\n',
      'app/assign.py': `import boto3

table = boto3.resource("dynamodb").Table("things")


def save(thing):
    key = ""
    key = f"THING#{thing['id']}"
    table.put_item(Item={"pk": key, **thing})
`,
    },
  },
  {
    name: 'JS loop over a list of ids',
    files: {
      'package.json': '{ "name": "ids" }\n',
      'src/batch.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();

exports.touchAll = async (ids) => {
  for (const id of ids) {
    await db.update({ TableName: "items", Key: { id }, UpdateExpression: "SET seen = :t", ExpressionAttributeValues: { ":t": Date.now() } }).promise();
  }
};
`,
    },
  },
  {
    name: 'Python enumerate over records',
    files: {
      'requirements.txt': 'boto3\n',
      'app/rows.py': `import boto3

table = boto3.resource("dynamodb").Table("rows")


def store(records):
    for idx, rec in enumerate(records):
        table.put_item(Item={"pk": f"ROW#{idx}", "data": rec})
`,
    },
  },
];
