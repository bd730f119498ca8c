import type { Case } from '../case';

/** Tests, SDK how-to examples, scripts and loaders that touch one sample item: no error, no warning. */
export const cases: Case[] = [
  {
    name: 'SDK v3 example: main() with a sample coffee name',
    files: {
      'package.json': '{ "name": "examples", "type": "module" }\n',
      'examples/get-item.js': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";

const client = new DynamoDBClient({});
const docClient = DynamoDBDocumentClient.from(client);

export const main = async () => {
  const command = new GetCommand({
    TableName: "CoffeeTable",
    Key: { CoffeeName: "Cappuccino" },
  });
  const response = await docClient.send(command);
  console.log(response);
  return response;
};
`,
    },
  },
  {
    name: 'boto3 tutorial script with __main__ and a sample movie',
    files: {
      'requirements.txt': 'boto3\n',
      'movies_put.py': `import boto3

dynamodb = boto3.resource("dynamodb")


def put_movie(title, year):
    table = dynamodb.Table("Movies")
    return table.put_item(Item={"year": year, "title": title, "info": {"rating": 7}})


def get_movie():
    table = dynamodb.Table("Movies")
    return table.get_item(Key={"year": 2015, "title": "The Big New Movie"})


if __name__ == "__main__":
    put_movie("The Big New Movie", 2015)
    print(get_movie())
`,
    },
  },
  {
    name: 'pytest with moto reading one user by email',
    files: {
      'requirements.txt': 'boto3\npytest\nmoto\n',
      'tests/test_users.py': `import boto3
import pytest
from moto import mock_aws


@mock_aws
def test_get_user():
    table = boto3.resource("dynamodb", region_name="us-east-1").Table("users")
    table.put_item(Item={"pk": "alice@example.com", "name": "Alice"})
    assert table.get_item(Key={"pk": "alice@example.com"})["Item"]["name"] == "Alice"
`,
    },
  },
  {
    name: 'jest test of a repository with a fixed tenant',
    files: {
      'package.json': '{ "name": "t" }\n',
      '__tests__/repo.test.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, GetCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: "http://localhost:8000" }));

describe("repo", () => {
  it("round-trips", async () => {
    await doc.send(new PutCommand({ TableName: "t", Item: { pk: "TENANT#1001", sk: "META" } }));
    const got = await doc.send(new GetCommand({ TableName: "t", Key: { pk: "TENANT#1001", sk: "META" } }));
    expect(got.Item).toBeDefined();
  });
});
`,
    },
  },
  {
    name: 'seed script loading sample items at top level',
    files: {
      'requirements.txt': 'boto3\n',
      'scripts/seed.py': `import boto3

table = boto3.resource("dynamodb").Table("products")

table.put_item(Item={"pk": "PRODUCT#1", "name": "Lamp"})
table.put_item(Item={"pk": "PRODUCT#2", "name": "Desk"})
`,
    },
  },
  {
    name: 'conftest fixture creating a sample item',
    files: {
      'requirements.txt': 'boto3\n',
      'conftest.py': `import boto3
import pytest


@pytest.fixture
def order(ddb_table):
    ddb_table.put_item(Item={"pk": "ORDER#123", "sk": "META", "total": 10})
    return ddb_table.get_item(Key={"pk": "ORDER#123", "sk": "META"})["Item"]
`,
    },
  },
  {
    name: 'handler in a folder named examples is application code',
    files: {
      'package.json': '{ "name": "ex" }\n',
      'examples/api/handler.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async () => {
  await doc.send(
    new UpdateCommand({
      TableName: "hits",
      Key: { pk: "TOTAL" }, // expect SL004:warning
      UpdateExpression: "ADD n :one",
      ExpressionAttributeValues: { ":one": 1 },
    }),
  );
  return { statusCode: 204 };
};
`,
    },
  },
  {
    name: 'v2 sample script with top-level call and a sample id',
    files: {
      'package.json': '{ "name": "s" }\n',
      'samples/query.js': `const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient({ region: "us-west-2" });

db.query(
  {
    TableName: "Music",
    KeyConditionExpression: "Artist = :a",
    ExpressionAttributeValues: { ":a": "Acme Band" },
  },
  (err, data) => console.log(err || data.Items),
);
`,
    },
  },
  {
    name: 'migration script writing one config item (info at most)',
    files: {
      'package.json': '{ "name": "m" }\n',
      'migrations/001-config.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

async function run() {
  await doc.send(new PutCommand({ TableName: "app", Item: { pk: "CONFIG", sk: "v1", limits: { rps: 10 } } }));
}

run();
`,
    },
  },
  {
    name: 'boto3 client how-to at module top level',
    files: {
      'requirements.txt': 'boto3\n',
      'getting_started.py': `import boto3

client = boto3.client("dynamodb")

client.put_item(TableName="employees", Item={"id": {"N": "1"}, "name": {"S": "Jack"}})
print(client.get_item(TableName="employees", Key={"id": {"N": "1"}}))
`,
    },
  },
  {
    name: 'mocha test with a UUID sample key',
    files: {
      'package.json': '{ "name": "mt" }\n',
      'test/orders.spec.js': `const { expect } = require("chai");
const AWS = require("aws-sdk");
const db = new AWS.DynamoDB.DocumentClient({ endpoint: "http://localhost:8000" });

describe("orders", function () {
  it("stores an order", async function () {
    await db.put({ TableName: "orders", Item: { id: "3f2b9a1e-6c1d-4e0b-9a55-0f5d2c7e8b11" } }).promise();
    const r = await db.get({ TableName: "orders", Key: { id: "3f2b9a1e-6c1d-4e0b-9a55-0f5d2c7e8b11" } }).promise();
    expect(r.Item).to.exist;
  });
});
`,
    },
  },
  {
    name: 'Lambda in samples/ writing one global counter per request',
    files: {
      'requirements.txt': 'boto3\n',
      'samples/visits/app.py': `import boto3

table = boto3.resource("dynamodb").Table("visits")


def lambda_handler(event, context):
    table.update_item(
        Key={"pk": "GLOBAL"},  # expect SL004:warning
        UpdateExpression="ADD visits :one",
        ExpressionAttributeValues={":one": 1},
    )
    return {"statusCode": 200}
`,
    },
  },
  {
    name: 'unittest reading a sample person by name',
    files: {
      'requirements.txt': 'boto3\n',
      'tests/test_people.py': `import unittest
import boto3


class PeopleTest(unittest.TestCase):
    def setUp(self):
        self.table = boto3.resource("dynamodb", endpoint_url="http://localhost:8000").Table("people")

    def test_lookup(self):
        self.table.put_item(Item={"name": "John Smith", "age": 42})
        self.assertEqual(self.table.get_item(Key={"name": "John Smith"})["Item"]["age"], 42)
`,
    },
  },
  {
    name: 'data loader in seed/ writing a list of sample users',
    files: {
      'package.json': '{ "name": "seed" }\n',
      'seed/users.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

await doc.send(new PutCommand({ TableName: "users", Item: { pk: "USER#alice", email: "alice@example.com" } }));
await doc.send(new PutCommand({ TableName: "users", Item: { pk: "USER#bob", email: "bob@example.com" } }));
`,
    },
  },
];
