import { ruleTester } from './tester';

// SL010 shard-evaluated-once: a random shard chosen once per process, not per request.
ruleTester('SL010', {
  valid: [
    {
      name: 'a handler that draws its shard per request',
      files: {
        'src/handlers/track.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

const SHARDS = 10;

export const handler = async (event: { body: string }) => {
  const shard = Math.floor(Math.random() * SHARDS);
  await ddb.send(new PutCommand({ TableName: 'clicks', Item: { pk: \`CLICKS#\${shard}\`, sk: Date.now(), body: event.body } }));
  return { statusCode: 202 };
};
`,
      },
    },
  ],
  invalid: [
    {
      name: 'a Lambda module that draws its shard when the container starts',
      files: {
        'src/handlers/track.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

const SHARD = Math.floor(Math.random() * 10);

export const handler = async (event: { body: string }) => {
  await ddb.send(new PutCommand({ TableName: 'clicks', Item: { pk: \`CLICKS#\${SHARD}\`, sk: Date.now(), body: event.body } }));
  return { statusCode: 202 };
};
`,
      },
      errors: [{ line: 7, severity: 'error', messageId: 'chosenOnce' }],
    },
    {
      name: 'a Python repository class whose shard is a class attribute',
      files: {
        'app/repository.py': `import random

import boto3


class VoteRepository:
    SHARD = random.randint(0, 9)

    def __init__(self):
        self.table = boto3.resource("dynamodb").Table("votes")

    def add_vote(self, poll_id, choice):
        self.table.put_item(Item={"pk": f"VOTES#{self.SHARD}", "sk": f"{poll_id}#{choice}"})
`,
      },
      errors: [{ line: 13, severity: 'error' }],
    },
  ],
});
