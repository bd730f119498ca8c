import { ruleTester } from './tester';

// SL002 time-bucket-partition-key: every write in the current day or hour goes to one key.
ruleTester('SL002', {
  valid: [
    {
      name: 'a daily metrics key with a random shard suffix',
      files: {
        'src/metrics/writer.ts': `import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

const SHARDS = 8;

export async function recordMetric(name: string, value: number) {
  const day = new Date().toISOString().slice(0, 10);
  const shard = Math.floor(Math.random() * SHARDS);
  await ddb.send(new PutCommand({ TableName: 'metrics', Item: { pk: \`METRICS#\${day}#\${shard}\`, sk: name, value } }));
}
`,
      },
    },
    {
      name: 'a report handler that only reads the day the request names',
      files: {
        'reports/handler.py': `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("sales")


def lambda_handler(event, context):
    day = event["pathParameters"]["day"]
    return table.query(KeyConditionExpression=Key("pk").eq(f"SALES#{day}"))["Items"]
`,
      },
    },
  ],
  invalid: [
    {
      name: 'a per-day clicks key whose own separator is "-": the message suggests the suffix the fix writes',
      files: {
        'src/clicks.js': `const { DynamoDBDocumentClient, PutCommand } = require('@aws-sdk/lib-dynamodb');
const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

exports.handler = async (event) => {
  const day = new Date().toISOString().slice(0, 10);
  await doc.send(new PutCommand({ TableName: 'clicks', Item: { pk: \`clicks-\${day}\`, sk: event.requestContext.requestId } }));
  return { statusCode: 302, headers: { Location: event.queryStringParameters.to } };
};
`,
      },
      errors: [{ line: 8, severity: 'warning', messageId: 'timeBucketWrite', says: '("clicks-{time}-<shard>")' }],
    },
    {
      name: 'an audit service writing every entry under today',
      files: {
        'src/audit/service.ts': `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

export class AuditService {
  constructor(private readonly ddb: DynamoDBDocumentClient) {}

  async record(entry: { id: string; actor: string }) {
    const day = new Date().toISOString().split('T')[0];
    await this.ddb.send(
      new PutCommand({ TableName: 'audit', Item: { pk: \`AUDIT#\${day}\`, sk: entry.id, actor: entry.actor } }),
    );
  }
}
`,
      },
      errors: [{ line: 9, severity: 'warning', messageId: 'timeBucketWrite' }],
    },
    {
      name: 'a boto3 click logger keyed by the current hour',
      files: {
        'app/clicks.py': `from datetime import datetime, timezone

import boto3

table = boto3.resource("dynamodb").Table("clicks")


def log_click(link_id, user_id):
    hour = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H")
    table.put_item(Item={"pk": f"CLICKS#{hour}", "sk": f"{link_id}#{user_id}"})
`,
      },
      errors: [{ line: 10, severity: 'warning' }],
    },
  ],
});
