import type { Case } from '../case';

/** Legacy request parameters: KeyConditions, AttributeUpdates, Expected, QueryFilter. */
export const cases: Case[] = [
  {
    name: 'boto3 client query with KeyConditions EQ',
    files: {
      'requirements.txt': 'boto3\n',
      'legacy/reports.py': `import boto3

client = boto3.client("dynamodb")


def daily_reports():
    return client.query(
        TableName="reports",
        KeyConditions={
            "pk": {
                "ComparisonOperator": "EQ",
                "AttributeValueList": [{"S": "REPORTS"}],  # expect SL001:error
            }
        },
    )["Items"]
`,
    },
  },
  {
    name: 'v2 DocumentClient query with KeyConditions',
    files: {
      'package.json': '{ "name": "legacy" }\n',
      'src/legacy.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();

exports.pending = () =>
  db
    .query({
      TableName: "jobs",
      KeyConditions: {
        state: { ComparisonOperator: "EQ", AttributeValueList: ["PENDING"] }, // expect SL001:error
      },
    })
    .promise();
`,
    },
  },
  {
    name: 'AttributeUpdates ADD on one counter item',
    files: {
      'requirements.txt': 'boto3\n',
      'legacy/counter.py': `import boto3

table = boto3.resource("dynamodb").Table("counters")


def next_invoice_number():
    out = table.update_item(
        Key={"name": "invoice"},  # expect SL004:warning
        AttributeUpdates={"value": {"Action": "ADD", "Value": 1}},
        ReturnValues="UPDATED_NEW",
    )
    return int(out["Attributes"]["value"])
`,
    },
  },
  {
    name: 'KeyConditions keyed by the customer (no finding)',
    files: {
      'requirements.txt': 'boto3\n',
      'legacy/history.py': `import boto3

client = boto3.client("dynamodb")


def history(customer_id):
    return client.query(
        TableName="history",
        KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": customer_id}]}},
    )["Items"]
`,
    },
  },
  {
    name: 'Expected on a put to one lock item',
    files: {
      'package.json': '{ "name": "locks" }\n',
      'src/lock.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();

exports.acquire = (owner) =>
  db
    .put({
      TableName: "locks",
      Item: { id: "global-lock", owner }, // expect SL001:error
      Expected: { id: { Exists: false } },
    })
    .promise();
`,
    },
  },
];
