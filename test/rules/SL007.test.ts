import { ruleTester } from './tester';

/** A boto3 writer that shards a key over 1..10 (`randint` includes both ends), its count in a settings module. */
const SETTINGS = `SHARD_COUNT = 10
TABLE_NAME = "events"
`;
const WRITER = `import random

import boto3

from settings import SHARD_COUNT, TABLE_NAME

table = boto3.resource("dynamodb").Table(TABLE_NAME)


def put_event(event_id, body):
    shard = random.randint(1, SHARD_COUNT)
    table.put_item(Item={"pk": f"EVENTS#{shard}", "sk": event_id, "body": body})
`;

/** A Lambda's page-view counter spread over VIEW_SHARDS items, its count exported for the readers. */
const COUNT_VIEW = `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

export const VIEW_SHARDS = 10;

export async function countView() {
  const shard = Math.floor(Math.random() * VIEW_SHARDS);
  await ddb.send(
    new UpdateCommand({
      TableName: 'site-stats',
      Key: { pk: \`VIEWS#\${shard}\` },
      UpdateExpression: 'ADD hits :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}
`;

// SL007 shard-range-mismatch: writers and readers of one key disagree on the shard set.
ruleTester('SL007', {
  valid: [
    {
      name: 'a reader looping over the same 1..10 shards',
      files: {
        'app/settings.py': SETTINGS,
        'app/writer.py': WRITER,
        'app/reader.py': `import boto3
from boto3.dynamodb.conditions import Key

from settings import SHARD_COUNT, TABLE_NAME

table = boto3.resource("dynamodb").Table(TABLE_NAME)


def all_events():
    items = []
    for shard in range(1, SHARD_COUNT + 1):
        kwargs = {"KeyConditionExpression": Key("pk").eq(f"EVENTS#{shard}")}
        while True:
            page = table.query(**kwargs)
            items.extend(page["Items"])
            if "LastEvaluatedKey" not in page:
                break
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    return items
`,
      },
    },
    {
      name: 'a TypeScript reader reading every shard of a page-view counter and the item before it',
      files: {
        'src/views/count-view.ts': COUNT_VIEW,
        'src/views/total-views.ts': `import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';
import { VIEW_SHARDS } from './count-view';

export async function totalViews(): Promise<number> {
  const shardKeys = Array.from({ length: VIEW_SHARDS }, (_, shard) => \`VIEWS#\${shard}\`);
  const results = await Promise.all(
    ['VIEWS', ...shardKeys].map((pk) => ddb.send(new GetCommand({ TableName: 'site-stats', Key: { pk } }))),
  );
  return results.reduce((sum, r) => sum + Number(r.Item?.hits ?? 0), 0);
}
`,
      },
    },
  ],
  invalid: [
    {
      name: 'a reader looping 0..9 over keys written 1..10',
      files: {
        'app/settings.py': SETTINGS,
        'app/writer.py': WRITER,
        'app/reader.py': `import boto3
from boto3.dynamodb.conditions import Key

from settings import SHARD_COUNT, TABLE_NAME

table = boto3.resource("dynamodb").Table(TABLE_NAME)


def all_events():
    items = []
    for shard in range(SHARD_COUNT):
        kwargs = {"KeyConditionExpression": Key("pk").eq(f"EVENTS#{shard}")}
        while True:
            page = table.query(**kwargs)
            items.extend(page["Items"])
            if "LastEvaluatedKey" not in page:
                break
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    return items
`,
      },
      errors: [{ file: 'app/reader.py', line: 12, severity: 'error', messageId: 'readerMisses' }],
    },
    {
      name: 'two TypeScript writers of one key with different shard counts',
      files: {
        'src/likes/writer.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

export async function like(postId: string, userId: string) {
  const shard = Math.floor(Math.random() * 10);
  await ddb.send(new PutCommand({ TableName: 'likes', Item: { pk: \`LIKES#\${shard}\`, sk: \`\${postId}#\${userId}\` } }));
}
`,
        'src/likes/import-job.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

export async function importLike(postId: string, userId: string) {
  const shard = Math.floor(Math.random() * 4);
  await ddb.send(new PutCommand({ TableName: 'likes', Item: { pk: \`LIKES#\${shard}\`, sk: \`\${postId}#\${userId}\` } }));
}
`,
      },
      errors: [{ file: 'src/likes/writer.ts', line: 6, severity: 'error', messageId: 'writersDisagree' }],
    },
    {
      name: 'a TypeScript reader of a counter whose shard list is shorter than the writer spreads over',
      files: {
        'src/views/count-view.ts': COUNT_VIEW,
        'src/views/total-views.ts': `import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

export async function totalViews(): Promise<number> {
  const shardKeys = Array.from({ length: 8 }, (_, shard) => \`VIEWS#\${shard}\`);
  const results = await Promise.all(
    ['VIEWS', ...shardKeys].map((pk) => ddb.send(new GetCommand({ TableName: 'site-stats', Key: { pk } }))),
  );
  return results.reduce((sum, r) => sum + Number(r.Item?.hits ?? 0), 0);
}
`,
      },
      errors: [{ file: 'src/views/total-views.ts', line: 5, severity: 'error', messageId: 'readerMisses' }],
    },
    {
      name: 'a boto3 BatchGetItem reader of a counter, paged by 100 keys, reading fewer shards than written',
      files: {
        'counter/app.py': `import os
import random

import boto3

client = boto3.client("dynamodb")
TABLE = os.environ["COUNTER_TABLE"]
SHARDS = 10


def lambda_handler(event, context):
    client.update_item(
        TableName=TABLE,
        Key={"id": {"S": f"visits#{random.randrange(SHARDS)}"}},
        UpdateExpression="ADD visits :one",
        ExpressionAttributeValues={":one": {"N": "1"}},
    )
    return {"statusCode": 200, "body": str(total_visits())}


def total_visits():
    ids = ["visits"] + [f"visits#{shard}" for shard in range(8)]
    keys = [{"id": {"S": key}} for key in ids]
    total = 0
    for start in range(0, len(keys), 100):
        got = client.batch_get_item(RequestItems={TABLE: {"Keys": keys[start : start + 100]}})
        total += sum(int(i["visits"]["N"]) for i in got["Responses"].get(TABLE, []))
    return total
`,
      },
      errors: [{ file: 'counter/app.py', line: 22, severity: 'error', messageId: 'readerMisses' }],
    },
  ],
});
