/**
 * A handler parses the body it received (`JSON.parse(event.body || "{}")`,
 * `json.loads(event["body"])`) and writes a key from its fields. Those are fields the caller
 * sent, as `event.body.year` would be: a `year` or a `date` the client sends is spread over
 * its values like an id, not today's bucket (SL002). Text parsed from anywhere else (a file,
 * a setting) stays what its name says.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, findingLines, summarize } from './helpers';

test('Python: a field of json.loads(event["body"]) is what the caller sent', async () => {
  const r = await analyze(
    'app.py',
    `import json
import os
from datetime import datetime

import boto3

client = boto3.client("dynamodb")


def lambda_handler(event, context):
    table = os.environ.get("DDB_TABLE")
    item = json.loads(event["body"] or "{}")
    year = str(item["year"])
    client.put_item(TableName=table, Item={"year": {"N": year}, "title": {"S": str(item["title"])}})
    return {"statusCode": 200}


def record_today(event, context):
    day = datetime.now().strftime("%Y-%m-%d")
    client.put_item(TableName="visits", Item={"day": {"S": day}, "at": {"S": event["requestContext"]["requestId"]}})
`,
  );
  assert.deepEqual(summarize(r), [
    '14 PutItem DDB_TABLE year={time} (high-cardinality)',
    '20 PutItem visits day={time} (time-bucket)',
  ]);
  assert.deepEqual(findingLines(r), ['20 SL002']);
});

test('JS: a field of JSON.parse(event.body ?? "{}") is what the caller sent; a parsed file is not', async () => {
  const r = await analyze(
    'handler.mjs',
    `import { readFileSync } from "node:fs";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const settings = JSON.parse(readFileSync("./settings.json", "utf8"));

export const handler = async (event) => {
  const data = JSON.parse(event.body ?? "{}");
  await doc.send(new PutCommand({ TableName: "bookings", Item: { pk: \`DAY#\${data.date}\`, sk: data.slot } }));
  await doc.send(new PutCommand({ TableName: "reports", Item: { pk: \`DAY#\${settings.date}\`, sk: data.slot } }));
  return { statusCode: 201 };
};
`,
  );
  assert.deepEqual(summarize(r), [
    '10 PutItem bookings pk=DAY#{time} sk={unknown} (high-cardinality)',
    '11 PutItem reports pk=DAY#{time} sk={unknown} (time-bucket)',
  ]);
  assert.deepEqual(findingLines(r), ['11 SL002']);
});
