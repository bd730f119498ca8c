import { ruleTester } from './tester';
import { TICKET_COUNTER, TICKET_RESET } from './counter-shapes';

ruleTester('SL001', {
  valid: [
    {
      // The reset is the counter's (SL004 names it as a related location): a shard suffix on it alone would split the item.
      name: 'a handler resetting the counter item another handler increments',
      files: { 'functions/nextTicket.js': TICKET_COUNTER, 'functions/resetTicket.js': TICKET_RESET },
    },
    {
      name: 'a pydantic entry keyed by the id the request names, dumped with model_dump() (Powertools style)',
      files: {
        'product/handlers/create_product.py': `import os

import boto3
from pydantic import BaseModel


class ProductEntry(BaseModel):
    id: str
    name: str
    price: int


table = boto3.resource("dynamodb").Table(os.environ["TABLE_NAME"])


def lambda_handler(event, context):
    body = event["body"]
    entry = ProductEntry(id=body["id"], name=body["name"], price=body["price"])
    table.put_item(Item=entry.model_dump(), ConditionExpression="attribute_not_exists(id)")
    return {"statusCode": 201}
`,
      },
    },
    {
      name: 'a Lambda handler keyed by the user it is called for',
      files: {
        'src/handlers/save-profile.ts': `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { pathParameters: { userId: string }; body: string }) => {
  const profile = JSON.parse(event.body);
  await ddb.send(
    new PutCommand({
      TableName: process.env.PROFILES_TABLE,
      Item: { pk: \`USER#\${event.pathParameters.userId}\`, sk: 'PROFILE', ...profile },
    }),
  );
  return { statusCode: 204 };
};
`,
      },
    },
    {
      name: 'a leaderboard written with a random shard suffix',
      files: {
        'src/scores.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from './client';

const BOARD_SHARDS = 10;

export async function recordScore(playerId: string, score: number) {
  const shard = Math.floor(Math.random() * BOARD_SHARDS);
  await ddb.send(new PutCommand({ TableName: 'leaderboard', Item: { PK: \`BOARD#global#\${shard}\`, SK: playerId, score } }));
}
`,
      },
    },
    {
      name: 'a pytest test that reads one sample customer',
      files: {
        'tests/test_customers.py': `import boto3
import pytest


@pytest.fixture
def table():
    return boto3.resource("dynamodb").Table("customers")


def test_reads_customer(table):
    item = table.get_item(Key={"pk": "CUSTOMER#1001"})["Item"]
    assert item["name"] == "Ada"
`,
      },
    },
  ],
  invalid: [
    {
      // Only a test increments it: the handler's write is judged as a constant key of its own.
      name: 'a handler setting an item only a test increments',
      files: {
        'functions/resetTicket.js': TICKET_RESET,
        'test/nextTicket.test.js': TICKET_COUNTER.replace(
          'exports.handler = async () =>',
          "it('counts', async () =>",
        ).replace(/};\n$/, '});\n'),
      },
      errors: [{ line: 10, severity: 'error', messageId: 'constantWrite' }],
    },
    {
      name: 'a pydantic model imported from the models module: its default partition key, at the call that makes the item',
      files: {
        'app/handlers/views.py': `import os

import boto3

from app.models import PageView

table = boto3.resource("dynamodb").Table(os.environ["TABLE_NAME"])


def lambda_handler(event, context):
    view = PageView(sk=event["requestContext"]["requestId"], path=event["rawPath"])
    table.put_item(Item=view.model_dump())
    return {"statusCode": 204}
`,
        'app/models.py': `from pydantic import BaseModel


class PageView(BaseModel):
    pk: str = "VIEWS#all"
    sk: str
    path: str
`,
      },
      errors: [{ file: 'app/handlers/views.py', line: 11, severity: 'error', messageId: 'constantWrite' }],
    },
    {
      name: 'a pydantic model whose partition key is a class default, and a dataclass dumped with asdict()',
      files: {
        'metrics/handler.py': `import os
from dataclasses import asdict, dataclass

import boto3
from pydantic import BaseModel


class PageView(BaseModel):
    pk: str = "VIEWS#all"
    sk: str
    path: str


@dataclass
class Signup:
    sk: str
    plan: str
    pk: str = "SIGNUPS"


table = boto3.resource("dynamodb").Table(os.environ["TABLE_NAME"])


def lambda_handler(event, context):
    request_id = event["requestContext"]["requestId"]
    table.put_item(Item=PageView(sk=request_id, path=event["rawPath"]).model_dump())
    table.put_item(Item=asdict(Signup(sk=request_id, plan="free")))
    return {"statusCode": 204}
`,
      },
      errors: [
        { line: 9, severity: 'error', messageId: 'constantWrite' },
        { line: 18, severity: 'error', messageId: 'constantWrite' },
      ],
    },
    {
      name: 'a repository class that writes every post under one feed key',
      files: {
        'src/posts/repository.ts': `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

export class PostRepository {
  constructor(private readonly ddb: DynamoDBDocumentClient) {}

  async add(post: { id: string; body: string; createdAt: string }) {
    await this.ddb.send(
      new PutCommand({
        TableName: 'posts',
        Item: { PK: 'FEED#recent', SK: post.createdAt, id: post.id, body: post.body },
      }),
    );
  }
}
`,
      },
      errors: [{ line: 10, severity: 'error', messageId: 'constantWrite' }],
    },
    {
      name: 'a handler reading a config item whose key comes from a constants module',
      files: {
        'src/constants.ts': `export const CONFIG_KEY = 'CONFIG#global';
export const TABLE = 'settings';
`,
        'src/handlers/get-config.ts': `import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';
import { CONFIG_KEY, TABLE } from '../constants';

export const handler = async () => {
  const { Item } = await ddb.send(new GetCommand({ TableName: TABLE, Key: { pk: CONFIG_KEY } }));
  return { statusCode: 200, body: JSON.stringify(Item) };
};
`,
      },
      errors: [{ file: 'src/handlers/get-config.ts', line: 6, severity: 'error', messageId: 'readHot' }],
    },
    {
      name: 'a config loader every handler calls, seeded by a script: read-hot, the seed a note',
      files: {
        'src/config.ts': `import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from './client';

export async function loadConfig() {
  const out = await ddb.send(new GetCommand({ TableName: 'settings', Key: { pk: 'global-config' } }));
  return out.Item ?? {};
}
`,
        'scripts/seed-config.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../src/client';

async function main() {
  await ddb.send(new PutCommand({ TableName: 'settings', Item: { pk: 'global-config', maxUpload: 10 } }));
}

main();
`,
      },
      errors: [
        { file: 'scripts/seed-config.ts', line: 5, severity: 'info', messageId: 'rarelyWritten' },
        { file: 'src/config.ts', line: 5, severity: 'error', messageId: 'readHot' },
      ],
    },
    {
      name: 'a boto3 feed read and appended to by request handlers: hot both ways',
      files: {
        'app/feed.py': `import time

import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("feed")


def post(text):
    table.put_item(Item={"pk": "FEED#public", "sk": str(time.time_ns()), "text": text})


def latest():
    return table.query(KeyConditionExpression=Key("pk").eq("FEED#public"), Limit=20)["Items"]
`,
      },
      errors: [
        { line: 10, severity: 'error', messageId: 'hotBothWrite' },
        { line: 14, severity: 'error', messageId: 'hotBothRead' },
      ],
    },
    {
      name: 'a boto3 service module appending every event to one stream key',
      files: {
        'app/events.py': `import time

import boto3

STREAM_KEY = "STREAM#main"
table = boto3.resource("dynamodb").Table("streams")


def append_event(event_type, payload):
    table.put_item(
        Item={
            "pk": STREAM_KEY,
            "sk": f"{time.time_ns()}",
            "type": event_type,
            "payload": payload,
        }
    )
`,
      },
      errors: [{ line: 12, severity: 'error', messageId: 'constantWrite' }],
    },
    {
      name: 'a vitest test writing to the shared leaderboard key: noted at info',
      files: {
        'src/leaderboard.test.ts': `import { describe, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from './client';

describe('leaderboard', () => {
  it('stores a score', async () => {
    await ddb.send(new PutCommand({ TableName: 'leaderboard', Item: { PK: 'LEADERBOARD#GLOBAL', SK: 'p1', score: 3 } }));
  });
});
`,
      },
      errors: [{ line: 7, severity: 'info' }],
    },
  ],
});
