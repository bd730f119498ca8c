import type { Case } from '../case';

/** Names with format suffixes, key attribute names, JS clock arithmetic, schema hints through env templates. */
export const cases: Case[] = [
  {
    name: 'day_str parameter as the partition',
    files: {
      'requirements.txt': 'boto3\n',
      'app/visits.py': `import uuid
import boto3

table = boto3.resource("dynamodb").Table("visits")


def log_visit(day_str, page):
    table.put_item(Item={"pk": f"VISITS#{day_str}", "sk": str(uuid.uuid4()), "page": page})  # expect SL002:warning
`,
    },
  },
  {
    name: 'date_iso argument in TS',
    files: {
      'package.json': '{ "name": "sales" }\n',
      'src/sales.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { randomUUID } from "node:crypto";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function recordSale(dateIso: string, amount: number) {
  await doc.send(
    new PutCommand({
      TableName: "sales",
      Item: { pk: \`SALES#\${dateIso}\`, sk: randomUUID(), amount }, // expect SL002:warning
    }),
  );
}
`,
    },
  },
  {
    name: 'PKEY/SKEY attribute names with a constant',
    files: {
      'requirements.txt': 'boto3\n',
      'app/catalog.py': `import boto3

client = boto3.client("dynamodb")


def categories():
    return client.query(
        TableName="catalog",
        KeyConditionExpression="PKEY = :p",
        ExpressionAttributeValues={":p": {"S": "CATEGORIES"}},  # expect SL001:error
    )["Items"]
`,
    },
  },
  {
    name: 'JS clock arithmetic: a 15-minute bucket',
    files: {
      'package.json': '{ "name": "ticks" }\n',
      'src/ticks.js': `const { DynamoDBClient } = require("@aws-sdk/client-dynamodb");
const { DynamoDBDocumentClient, PutCommand } = require("@aws-sdk/lib-dynamodb");
const { randomUUID } = require("crypto");

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

exports.tick = async (value) => {
  const bucket = Math.floor(Date.now() / (15 * 60 * 1000));
  await doc.send(
    new PutCommand({ TableName: "ticks", Item: { pk: \`TICK#\${bucket}\`, sk: randomUUID(), value } }), // expect SL002:warning
  );
};
`,
    },
  },
  {
    name: 'a formatted signup date as the partition',
    files: {
      'requirements.txt': 'boto3\n',
      'app/signups.py': `import uuid
import boto3

table = boto3.resource("dynamodb").Table("signups")


def add_signup(signup_date_fmt, email):
    table.put_item(Item={"pk": signup_date_fmt, "sk": str(uuid.uuid4()), "email": email})  # expect SL002:warning
`,
    },
  },
  {
    name: 'table named by an f-string with an environment hole',
    files: {
      'requirements.txt': 'boto3\n',
      'app/stock.py': `import os
import boto3

STAGE = os.environ["STAGE"]
client = boto3.client("dynamodb")


def stock_levels():
    return client.query(
        TableName=f"inventory-{STAGE}",
        KeyConditionExpression="PK = :pk",
        ExpressionAttributeValues={":pk": {"S": "STOCK"}},  # expect SL001:error
    )["Items"]
`,
    },
  },
  {
    name: 'user_id_str is an entity (no finding)',
    files: {
      'requirements.txt': 'boto3\n',
      'app/prefs.py': `import boto3

table = boto3.resource("dynamodb").Table("prefs")


def prefs(user_id_str):
    return table.get_item(Key={"pk": user_id_str}).get("Item")
`,
    },
  },
  {
    name: 'Express route looking up each item\'s category by its name (a small set), and a user by name',
    files: {
      'package.json': '{ "name": "shop" }\n',
      'src/routes/items.ts': `import { Router } from "express";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const router = Router();

router.get("/items", async (req, res) => {
  const page = await doc.send(new QueryCommand({ TableName: "items", KeyConditionExpression: "seller_id = :s", ExpressionAttributeValues: { ":s": req.query.seller } }));
  const items = await Promise.all(
    (page.Items ?? []).map(async (item) => {
      const categoryName = item.category_name;
      const label = await doc.send(
        new QueryCommand({
          TableName: "categories",
          KeyConditionExpression: "category_name = :c",
          ExpressionAttributeValues: { ":c": categoryName }, // expect SL003:warning
        }),
      );
      return { ...item, label: label.Items?.[0]?.english_name };
    }),
  );
  res.json(items);
});

router.get("/sellers/:sellerName", async (req, res) => {
  const userName = req.params.sellerName;
  const seller = await doc.send(new GetCommand({ TableName: "sellers", Key: { seller_name: userName } }));
  res.json(seller.Item ?? null);
});

export default router;
`,
    },
  },
];
