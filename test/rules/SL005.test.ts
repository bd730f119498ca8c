import { ruleTester } from './tester';

// SL005 monotonic-sort-key: a timestamp sort key under a concentrated partition key.
ruleTester('SL005', {
  valid: [
    {
      name: 'a per-device reading sorted by time',
      files: {
        'src/telemetry/readings.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

export async function saveReading(deviceId: string, value: number) {
  await ddb.send(
    new PutCommand({
      TableName: 'telemetry',
      Item: { pk: \`DEVICE#\${deviceId}\`, sk: new Date().toISOString(), value },
    }),
  );
}
`,
      },
    },
  ],
  invalid: [
    {
      name: 'a global activity feed sorted by the time of each post',
      files: {
        'src/feed/publisher.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

const FEED = 'FEED#global';

export async function publish(postId: string) {
  await ddb.send(
    new PutCommand({
      TableName: 'feed',
      Item: {
        pk: FEED,
        sk: Date.now(),
        postId,
      },
    }),
  );
}
`,
      },
      errors: [{ line: 12, severity: 'info', messageId: 'monotonicSortKey' }],
    },
    {
      name: 'a boto3 job log under one constant key, sorted by timestamp',
      files: {
        'app/jobs.py': `from datetime import datetime, timezone

import boto3

table = boto3.resource("dynamodb").Table("jobs")


def log_run(job_name):
    table.put_item(
        Item={
            "pk": "JOBLOG#main",
            "sk": datetime.now(timezone.utc).isoformat(),
            "job": job_name,
        }
    )
`,
      },
      errors: [{ line: 12, severity: 'info' }],
    },
  ],
});
