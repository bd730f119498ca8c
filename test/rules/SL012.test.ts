import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ruleTester, withIndexed } from './tester';

// SL012 hot-index-key: an index defined in infrastructure code whose partition key the writes fill
// with a constant, a time bucket or a few values.

/** A support-desk table: tickets by id, and a sparse GSI of the tickets by status. */
const TICKETS_TEMPLATE = `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Resources:
  OpenTicketFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: src/
      Handler: open.handler
      Runtime: nodejs20.x
      Environment:
        Variables:
          TICKETS_TABLE: !Ref TicketsTable
      Events:
        Open:
          Type: Api
          Properties:
            Path: /tickets
            Method: post
  TicketsTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: !Join ['-', [tickets, !Ref AWS::StackName]]
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - AttributeName: ticketId
          AttributeType: S
        - AttributeName: status
          AttributeType: S
        - AttributeName: customerId
          AttributeType: S
      KeySchema:
        - AttributeName: ticketId
          KeyType: HASH
      GlobalSecondaryIndexes:
        - IndexName: byStatus
          KeySchema:
            - AttributeName: status
              KeyType: HASH
          Projection:
            ProjectionType: KEYS_ONLY
        - IndexName: byCustomer
          KeySchema:
            - AttributeName: customerId
              KeyType: HASH
          Projection:
            ProjectionType: ALL
`;

const OPEN_TICKET = `import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { body: string }) => {
  const { customerId, subject } = JSON.parse(event.body);
  const ticketId = randomUUID();
  await ddb.send(
    new PutCommand({
      TableName: process.env.TICKETS_TABLE,
      Item: { ticketId, customerId, subject, status: 'OPEN', openedAt: new Date().toISOString() },
    }),
  );
  return { statusCode: 201, body: JSON.stringify({ ticketId }) };
};
`;

ruleTester('SL012', {
  valid: [
    {
      name: 'an index keyed by the customer id the write fills per customer',
      files: {
        'template.yaml': TICKETS_TEMPLATE,
        'src/open.ts': OPEN_TICKET.replace("status: 'OPEN', ", ''),
      },
    },
    {
      name: 'the same write to a table no template declares: the index is not known',
      files: {
        'src/open.ts': OPEN_TICKET,
      },
    },
  ],
  invalid: [
    {
      name: 'SAM: a sparse status index every open ticket is written to, never queried by name',
      files: { 'src/open.ts': OPEN_TICKET, 'template.yaml': TICKETS_TEMPLATE },
      errors: [{ line: 13, severity: 'error', messageId: 'constant' }],
    },
    {
      name: 'Serverless resources: an index of the day, written with today’s date',
      files: {
        'handler.py': `import os
from datetime import datetime, timezone

import boto3

table = boto3.resource("dynamodb").Table(os.environ["EVENTS_TABLE"])


def record(event, context):
    now = datetime.now(timezone.utc)
    table.put_item(
        Item={
            "eventId": event["id"],
            "day": now.strftime("%Y-%m-%d"),
            "at": now.isoformat(),
            "payload": event["detail"],
        }
    )
`,
        'serverless.yml': `service: audit

provider:
  name: aws
  runtime: python3.12
  environment:
    EVENTS_TABLE: \${self:custom.eventsTable}

custom:
  eventsTable: audit-events-\${sls:stage}

functions:
  record:
    handler: handler.record
    events:
      - eventBridge:
          pattern:
            source:
              - billing

resources:
  Resources:
    EventsTable:
      Type: AWS::DynamoDB::Table
      Properties:
        TableName: \${self:custom.eventsTable}
        BillingMode: PAY_PER_REQUEST
        AttributeDefinitions:
          - AttributeName: eventId
            AttributeType: S
          - AttributeName: day
            AttributeType: S
          - AttributeName: at
            AttributeType: S
        KeySchema:
          - AttributeName: eventId
            KeyType: HASH
        GlobalSecondaryIndexes:
          - IndexName: byDay
            KeySchema:
              - AttributeName: day
                KeyType: HASH
              - AttributeName: at
                KeyType: RANGE
            Projection:
              ProjectionType: ALL
`,
      },
      errors: [{ line: 14, severity: 'warning', messageId: 'timeBucket' }],
    },
    {
      name: 'Serverless: the table kept in its own file (${file(...)}), an index by auction status',
      files: {
        'src/handlers/createAuction.js': `const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');
const { DynamoDBDocumentClient, PutCommand } = require('@aws-sdk/lib-dynamodb');
const { randomUUID } = require('node:crypto');

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

module.exports.handler = async (event) => {
  const { title } = JSON.parse(event.body);
  const auction = { id: randomUUID(), title, status: 'OPEN', endingAt: new Date(Date.now() + 3600e3).toISOString() };
  await ddb.send(new PutCommand({ TableName: process.env.AUCTIONS_TABLE_NAME, Item: auction }));
  return { statusCode: 201, body: JSON.stringify(auction) };
};
`,
        'serverless.yml': `service: auctions

provider:
  name: aws
  runtime: nodejs20.x
  environment:
    AUCTIONS_TABLE_NAME: \${self:custom.AuctionsTable.name}

resources:
  Resources:
    AuctionsTable: \${file(resources/AuctionsTable.yml):AuctionsTable}

functions:
  createAuction:
    handler: src/handlers/createAuction.handler
    events:
      - http:
          method: POST
          path: /auction

custom:
  AuctionsTable:
    name: !Ref AuctionsTable
`,
        'resources/AuctionsTable.yml': `AuctionsTable:
  Type: AWS::DynamoDB::Table
  Properties:
    TableName: AuctionsTable-\${self:provider.stage}
    BillingMode: PAY_PER_REQUEST
    AttributeDefinitions:
      - AttributeName: id
        AttributeType: S
      - AttributeName: status
        AttributeType: S
      - AttributeName: endingAt
        AttributeType: S
    KeySchema:
      - AttributeName: id
        KeyType: HASH
    GlobalSecondaryIndexes:
      - IndexName: statusAndEndDate
        KeySchema:
          - AttributeName: status
            KeyType: HASH
          - AttributeName: endingAt
            KeyType: RANGE
        Projection:
          ProjectionType: ALL
`,
      },
      errors: [{ line: 9, severity: 'error', messageId: 'constant' }],
    },
    {
      name: 'a Terraform module: an index by plan tier, set by an update',
      files: {
        'src/upgrade/app.py': `import os

import boto3

table = boto3.resource("dynamodb").Table(os.environ["ACCOUNTS_TABLE"])


def handler(event, context):
    table.update_item(
        Key={"accountId": event["accountId"]},
        UpdateExpression="SET #tier = :tier",
        ExpressionAttributeNames={"#tier": "tier"},
        ExpressionAttributeValues={":tier": event["tier"]},
    )
`,
        'infra/main.tf': `variable "stage" {
  type    = string
  default = "dev"
}

data "archive_file" "upgrade" {
  type        = "zip"
  source_dir  = "\${path.module}/../src/upgrade"
  output_path = "\${path.module}/build/upgrade.zip"
}

resource "aws_lambda_function" "upgrade" {
  function_name = "upgrade-\${var.stage}"
  filename      = data.archive_file.upgrade.output_path
  handler       = "app.handler"
  runtime       = "python3.12"
  role          = "arn:aws:iam::123456789012:role/upgrade"

  environment {
    variables = {
      ACCOUNTS_TABLE = aws_dynamodb_table.accounts.name
    }
  }
}

resource "aws_dynamodb_table" "accounts" {
  name         = "accounts-\${var.stage}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "accountId"

  attribute {
    name = "accountId"
    type = "S"
  }

  attribute {
    name = "tier"
    type = "S"
  }

  global_secondary_index {
    name            = "byTier"
    hash_key        = "tier"
    projection_type = "KEYS_ONLY"
  }
}
`,
      },
      errors: [{ file: 'src/upgrade/app.py', line: 13, severity: 'warning', messageId: 'fewValues' }],
    },
  ],
});

test('SL012 replaces the index write’s SL001 and points at the index in the template', async () => {
  const got = await withIndexed({ 'src/open.ts': OPEN_TICKET, 'template.yaml': TICKETS_TEMPLATE }, (index, at) =>
    index
      .results()
      .flatMap((r) => r.findings)
      .filter((f) => f.file.endsWith('open.ts'))
      .map((f) => ({ at: at(f), rule: f.rule, f })),
  );
  assert.deepEqual(
    got.map((g) => `${g.at} ${g.rule}`),
    ['src/open.ts:13 SL012'],
  );
  const f = got[0].f;
  assert.match(
    f.message,
    /^Index "byStatus" of table tickets-\{\$AWS::StackName\} \(template\.yaml:35\) is keyed by `status`/,
  );
  assert.match(f.message, /every write of this item goes to one index partition too/);
  const related = f.related.find((r) => r.message === 'index "byStatus" is defined here');
  assert.ok(related && related.file.endsWith('template.yaml') && related.span.startLine === 34);
  assert.deepEqual(
    f.fixes.map((x) => x.kind),
    ['add-shard-suffix'],
  );
});
