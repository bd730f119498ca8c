import type { Case } from '../case';

/** A parameter's value comes from all its callers: one demo or test caller does not make it constant. */
export const cases: Case[] = [
  {
    name: 'Python function called once from __main__ with a sample team',
    files: {
      'requirements.txt': 'boto3\n',
      'app/teams.py': `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("teams")


def members(team_id):
    return table.query(KeyConditionExpression=Key("pk").eq(team_id))["Items"]


if __name__ == "__main__":
    print(members("team-42"))
`,
    },
  },
  {
    name: 'TS service called by a test with a fixed user',
    files: {
      'package.json': '{ "name": "svc" }\n',
      'src/profile.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export function getProfile(userId: string) {
  return doc.send(new GetCommand({ TableName: "profiles", Key: { pk: userId } }));
}
`,
      'test/profile.test.ts': `import { test } from "node:test";
import { getProfile } from "../src/profile";

test("reads a profile", async () => {
  await getProfile("USER#1");
});
`,
    },
  },
  {
    name: 'JS handler passing the path parameter to a helper also used by a seed script',
    files: {
      'package.json': '{ "name": "api" }\n',
      'src/repo.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient();

exports.getOrder = (orderId) => db.get({ TableName: "orders", Key: { orderId } }).promise();
`,
      'src/handler.js': `const { getOrder } = require("./repo");

exports.handler = async (event) => getOrder(event.pathParameters.orderId);
`,
      'scripts/seed.js': `const { getOrder } = require("../src/repo");

getOrder("order-0001").then(console.log);
`,
    },
  },
  {
    name: 'Python repository method called by a unittest with a sample album',
    files: {
      'requirements.txt': 'boto3\n',
      'music/repo.py': `import boto3


class Albums:
    def __init__(self):
        self.table = boto3.resource("dynamodb").Table("music")

    def get(self, artist, title):
        return self.table.get_item(Key={"Artist": artist, "AlbumTitle": title}).get("Item")
`,
      'tests/test_repo.py': `import unittest
from music.repo import Albums


class AlbumsTest(unittest.TestCase):
    def test_get(self):
        Albums().get("No One You Know", "Somewhat Famous")
`,
    },
  },
  {
    name: 'entity-named parameter given a literal by one caller in app code',
    files: {
      'package.json': '{ "name": "x" }\n',
      'src/accounts.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export function account(accountId: string) {
  return doc.send(new GetCommand({ TableName: "accounts", Key: { pk: \`ACCT#\${accountId}\` } }));
}

export function whoami(req: { user: { accountId: string } }) {
  return account(req.user.accountId);
}
`,
    },
  },
  {
    name: 'Python CLI main with argparse-provided key',
    files: {
      'requirements.txt': 'boto3\n',
      'tools/show_user.py': `import argparse
import boto3

table = boto3.resource("dynamodb").Table("users")


def show(user_id):
    print(table.get_item(Key={"user_id": user_id}).get("Item"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("user_id")
    show(parser.parse_args().user_id)


if __name__ == "__main__":
    main()
`,
    },
  },
  {
    name: 'Python DAO method named get next to dict and HTTP .get calls',
    files: {
      'requirements.txt': 'boto3\nrequests\n',
      'orders/dao.py': `import os

import boto3
import requests


class Orders:
    def __init__(self):
        self.table = boto3.resource("dynamodb").Table(os.environ.get("ORDERS_TABLE", "orders"))

    def get(self, order_id):
        item = self.table.get_item(Key={"order_id": order_id}).get("Item")
        return item or {}

    def with_rates(self, order_id):
        order = self.get(order_id)
        rates = requests.get("https://rates.example.com/latest").json()
        return {**order, "rate": rates.get("EUR")}
`,
    },
  },
  {
    name: 'Python optional filters defaulting to None',
    files: {
      'requirements.txt': 'boto3\n',
      'app/history.py': `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("history")


def history(user_id=None, since=None):
    cond = Key("pk").eq(f"USER#{user_id}")
    if since:
        cond = cond & Key("sk").gte(since)
    return table.query(KeyConditionExpression=cond)["Items"]
`,
    },
  },
];
