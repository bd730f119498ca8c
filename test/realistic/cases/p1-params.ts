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
];
