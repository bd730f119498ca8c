import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ruleTester, withIndexed } from './tester';

// SL013 contributor-insights-off: a table with hot-key findings whose definition leaves Contributor Insights off.

const template = (insights: string) => `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Resources:
  SubmitScoreFunction:
    Type: AWS::Serverless::Function
    Properties:
      Handler: src/submit.handler
      Runtime: nodejs20.x
      Environment:
        Variables:
          SCORES_TABLE: !Ref ScoresTable
      Events:
        Submit:
          Type: HttpApi
          Properties:
            Path: /scores
            Method: post
  ScoresTable:
    Type: AWS::DynamoDB::Table
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - AttributeName: PK
          AttributeType: S
        - AttributeName: SK
          AttributeType: S
      KeySchema:
        - AttributeName: PK
          KeyType: HASH
        - AttributeName: SK
          KeyType: RANGE${insights}
`;

const submit = (pk: string) => `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { body: string }) => {
  const { playerId, score } = JSON.parse(event.body);
  await ddb.send(
    new PutCommand({
      TableName: process.env.SCORES_TABLE,
      Item: { PK: ${pk}, SK: \`\${String(score).padStart(10, '0')}#\${playerId}\`, playerId, score },
    }),
  );
  return { statusCode: 204 };
};
`;

const terraform = (insights: string) => `variable "stage" {
  type    = string
  default = "dev"
}

data "archive_file" "ingest" {
  type        = "zip"
  source_dir  = "\${path.module}/../src/ingest"
  output_path = "\${path.module}/build/ingest.zip"
}

resource "aws_lambda_function" "ingest" {
  function_name = "metrics-ingest-\${var.stage}"
  filename      = data.archive_file.ingest.output_path
  handler       = "app.handler"
  runtime       = "python3.12"
  role          = "arn:aws:iam::123456789012:role/ingest"

  environment {
    variables = {
      METRICS_TABLE = aws_dynamodb_table.metrics.name
    }
  }
}

resource "aws_dynamodb_table" "metrics" {
  name         = "metrics-\${var.stage}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "bucket"
  range_key    = "ts"

  attribute {
    name = "bucket"
    type = "S"
  }

  attribute {
    name = "ts"
    type = "S"
  }
}
${insights}`;

const INGEST = `import os
from datetime import datetime, timezone

import boto3

table = boto3.resource("dynamodb").Table(os.environ["METRICS_TABLE"])


def handler(event, context):
    now = datetime.now(timezone.utc)
    table.put_item(Item={"bucket": now.strftime("%Y-%m-%dT%H"), "ts": now.isoformat(), "value": event["value"]})
`;

ruleTester('SL013', {
  valid: [
    {
      name: 'SAM: the hot table has Contributor Insights on in THROTTLED_KEYS mode',
      files: {
        'template.yaml': template(`
      ContributorInsightsSpecification:
        Enabled: true
        Mode: THROTTLED_KEYS`),
        'src/submit.ts': submit("'LEADERBOARD#global'"),
      },
    },
    {
      name: 'SAM: Contributor Insights off, but no key of the table is hot',
      files: {
        'template.yaml': template(''),
        'src/submit.ts': submit('`PLAYER#${playerId}`'),
      },
    },
    {
      name: 'Terraform: an aws_dynamodb_contributor_insights resource names the table',
      files: {
        'infra/main.tf': terraform(`
resource "aws_dynamodb_contributor_insights" "metrics" {
  table_name = aws_dynamodb_table.metrics.name
  mode       = "THROTTLED_KEYS"
}
`),
        'src/ingest/app.py': INGEST,
      },
    },
  ],
  invalid: [
    {
      name: 'SAM: a constant leaderboard key on a table that says nothing of Contributor Insights',
      files: {
        'template.yaml': template(''),
        'src/submit.ts': submit("'LEADERBOARD#global'"),
      },
      errors: [{ line: 19, endLine: 19, severity: 'info', messageId: 'insightsOff' }],
    },
    {
      name: 'Terraform: an hourly bucket key, and no Contributor Insights resource for the table',
      files: {
        'infra/main.tf': terraform(''),
        'src/ingest/app.py': INGEST,
      },
      errors: [{ line: 26, endLine: 26, severity: 'info', messageId: 'insightsOff' }],
    },
    {
      name: 'a CDK app that turns Contributor Insights off on a table with a counter item',
      files: {
        'lib/votes-stack.ts': `import * as path from 'node:path';
import { Stack, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';

export class VotesStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const counters = new dynamodb.Table(this, 'Counters', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      contributorInsightsEnabled: false,
    });
    const vote = new NodejsFunction(this, 'Vote', {
      entry: path.join(__dirname, '../lambda/vote.ts'),
      environment: { COUNTERS_TABLE: counters.tableName },
    });
    counters.grantReadWriteData(vote);
  }
}
`,
        'lambda/vote.ts': `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async () => {
  await ddb.send(
    new UpdateCommand({
      TableName: process.env.COUNTERS_TABLE,
      Key: { pk: 'VOTES#total' },
      UpdateExpression: 'ADD #n :one',
      ExpressionAttributeNames: { '#n': 'count' },
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
};
`,
        'cdk.json': '{ "app": "npx ts-node bin/app.ts" }\n',
      },
      errors: [{ line: 10, endLine: 10, severity: 'info', messageId: 'insightsOff' }],
    },
  ],
});

test('SL013 names the hot keys as related places and says how the format turns THROTTLED_KEYS on', async () => {
  const got = await withIndexed(
    { 'template.yaml': template(''), 'src/submit.ts': submit("'LEADERBOARD#global'") },
    (index, at) => {
      const results = index.results();
      const entry = results.find((r) => r.file.endsWith('template.yaml'));
      const f = results.flatMap((r) => r.findings).find((x) => x.rule === 'SL013')!;
      return {
        entry,
        f,
        at: at(f),
        related: f.related.map((r) => `${r.file.split('/').pop()}:${r.span.startLine + 1}`),
      };
    },
  );
  assert.equal(got.entry?.infrastructure, true, 'the template is reported as a file of its own');
  assert.equal(got.at, 'template.yaml:19');
  assert.deepEqual(got.related, ['submit.ts:11']);
  assert.match(got.f.message, /^Table ScoresTable has 1 hot-key finding \(SL001 at src\/submit\.ts:11\)/);
  assert.match(got.f.message, /`ContributorInsightsSpecification: \{ Enabled: true, Mode: THROTTLED_KEYS \}`/);
});
