import type { Case } from '../case';

/** Requests built by mutation: keys set after the object is made, batches pushed in a loop. */
export const cases: Case[] = [
  {
    name: 'Python dict filled key by key',
    files: {
      'requirements.txt': 'boto3\n',
      'app/inbox.py': `import time
import boto3

table = boto3.resource("dynamodb").Table("mail")


def deliver(message):
    item = {}
    item["pk"] = "inbox"  # expect SL001:error
    item["sk"] = f"{time.time()}"  # expect SL005:info
    item["body"] = message
    table.put_item(Item=item)
`,
    },
  },
  {
    name: 'JS batch of PutRequests pushed in a loop',
    files: {
      'package.json': '{ "name": "ingest" }\n',
      'src/ingest.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function ingest(readings: Array<{ id: string; v: number }>) {
  const requests = [];
  for (const r of readings) {
    requests.push({ PutRequest: { Item: { pk: "READINGS", sk: r.id, v: r.v } } }); // expect SL001:error
  }
  await doc.send(new BatchWriteCommand({ RequestItems: { sensors: requests } }));
}
`,
    },
  },
  {
    name: 'Object.assign onto a base item',
    files: {
      'package.json': '{ "name": "events" }\n',
      'src/emit.js': `const { DynamoDBClient } = require("@aws-sdk/client-dynamodb");
const { DynamoDBDocumentClient, PutCommand } = require("@aws-sdk/lib-dynamodb");

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

exports.emit = async (evt) => {
  const item = { sk: evt.id, data: evt.data };
  Object.assign(item, { pk: "EVENTS" }); // expect SL001:error
  await doc.send(new PutCommand({ TableName: "events", Item: item }));
};
`,
    },
  },
  {
    name: 'dict.update with the key attributes',
    files: {
      'requirements.txt': 'boto3\n',
      'app/alerts.py': `import uuid
import boto3

table = boto3.resource("dynamodb").Table("alerts")


def raise_alert(level, text):
    item = {"text": text, "level": level}
    item.update({"pk": "ALERTS", "sk": str(uuid.uuid4())})  # expect SL001:error
    table.put_item(Item=item)
`,
    },
  },
  {
    name: 'list.append of batch requests for boto3 client',
    files: {
      'requirements.txt': 'boto3\n',
      'app/bulk.py': `import boto3

client = boto3.client("dynamodb")


def store_all(rows):
    requests = []
    for row in rows:
        requests.append({"PutRequest": {"Item": {"pk": {"S": "IMPORT"}, "sk": {"S": row["id"]}}}})  # expect SL001:error
    client.batch_write_item(RequestItems={"imports": requests})
`,
    },
  },
  {
    name: 'JS key object filled by property assignment',
    files: {
      'package.json': '{ "name": "cfg" }\n',
      'src/flags.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function flags() {
  const key: Record<string, string> = {};
  key.pk = "FLAGS"; // expect SL001:error
  key.sk = "current";
  return doc.send(new GetCommand({ TableName: "config", Key: key }));
}
`,
    },
  },
  {
    name: 'dict built by mutation with the user id (no finding)',
    files: {
      'requirements.txt': 'boto3\n',
      'app/sessions.py': `import boto3

table = boto3.resource("dynamodb").Table("sessions")


def open_session(user_id, token):
    item = {}
    item["pk"] = f"USER#{user_id}"
    item["sk"] = f"SESSION#{token}"
    table.put_item(Item=item)
`,
    },
  },
];
