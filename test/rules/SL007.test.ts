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
  ],
});
