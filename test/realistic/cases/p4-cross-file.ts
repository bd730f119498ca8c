import type { Case } from '../case';

/** Cross-file rules link only call sites that address one item collection. */
const SHARDED_WRITER_TS = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const SHARDS = 10;

export async function write(id: string, body: unknown) {
  const shard = Math.floor(Math.random() * SHARDS);
  await doc.send(new PutCommand({ TableName: process.env.TABLE, Item: { pk: \`EVENTS#\${shard}\`, sk: id, body } }));
}
`;

export const cases: Case[] = [
  {
    name: 'monorepo: two services, unknown tables, same key text',
    files: {
      'services/ingest/package.json': '{ "name": "ingest" }\n',
      'services/ingest/src/write.ts': SHARDED_WRITER_TS,
      'services/report/package.json': '{ "name": "report" }\n',
      'services/report/src/read.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function read(day: string) {
  return doc.send(
    new QueryCommand({
      TableName: process.env.REPORT_TABLE,
      KeyConditionExpression: "pk = :p",
      ExpressionAttributeValues: { ":p": "EVENTS" }, // expect SL001:error
    }),
  );
}
`,
    },
  },
  {
    name: 'one project: the same unknown-table key read unsharded',
    files: {
      'package.json': '{ "name": "one" }\n',
      'src/write.ts': SHARDED_WRITER_TS,
      'src/read.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function read() {
  return doc.send(
    new QueryCommand({
      TableName: process.env.TABLE,
      KeyConditionExpression: "pk = :p",
      ExpressionAttributeValues: { ":p": "EVENTS" }, // expect SL006:error
    }),
  );
}
`,
    },
  },
  {
    name: 'two named tables with the same key text',
    files: {
      'requirements.txt': 'boto3\n',
      'app/writer.py': `import random
import boto3

table = boto3.resource("dynamodb").Table("clicks")


def click(id):
    table.put_item(Item={"pk": f"HITS#{random.randint(0, 9)}", "sk": id})
`,
      'app/reader.py': `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("legacy_clicks")


def hits(event, context):
    return table.query(KeyConditionExpression=Key("pk").eq("HITS"))["Items"]  # expect SL001:error
`,
    },
  },
  {
    name: 'a template made only of holes does not link services',
    files: {
      'requirements.txt': 'boto3\n',
      'billing/charges.py': `import random
import boto3

table = boto3.resource("dynamodb").Table("charges")


def charge(customer_id, amount):
    table.put_item(Item={"pk": f"{customer_id}#{random.randint(0, 4)}", "amount": amount})
`,
      'shipping/parcels.py': `import boto3
from boto3.dynamodb.conditions import Key


def parcels(table_name, customer_id):
    table = boto3.resource("dynamodb").Table(table_name)
    return table.query(KeyConditionExpression=Key("pk").eq(customer_id))["Items"]
`,
    },
  },
  {
    name: 'monorepo Python services with shard ranges that differ',
    files: {
      'svc-a/requirements.txt': 'boto3\n',
      'svc-a/app.py': `import os
import random
import boto3

table = boto3.resource("dynamodb").Table(os.environ["TABLE"])


def put(id):
    table.put_item(Item={"pk": f"BOARD#{random.randint(0, 9)}", "sk": id})
`,
      'svc-b/requirements.txt': 'boto3\n',
      'svc-b/app.py': `import os
import random
import boto3

table = boto3.resource("dynamodb").Table(os.environ["TABLE"])


def put(id):
    table.put_item(Item={"pk": f"BOARD#{random.randint(1, 4)}", "sk": id})
`,
    },
  },
  {
    name: 'same named table across two files: a reader misses shards',
    files: {
      'package.json': '{ "name": "lb" }\n',
      'src/w.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function score(player: string, points: number) {
  const s = Math.floor(Math.random() * 8);
  await doc.send(new PutCommand({ TableName: "scores", Item: { pk: \`TOP#\${s}\`, sk: player, points } }));
}
`,
      'src/r.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function top() {
  const pages = [];
  for (let s = 0; s < 4; s++) {
    pages.push(
      doc.send(
        new QueryCommand({
          TableName: "scores",
          KeyConditionExpression: "pk = :p",
          ExpressionAttributeValues: { ":p": \`TOP#\${s}\` }, // expect SL007:error
          Limit: 10,
        }),
      ),
    );
  }
  return Promise.all(pages);
}
`,
    },
  },
];
