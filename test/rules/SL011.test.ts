import { ruleTester } from './tester';

// SL011 key-schema-mismatch: a request's key attributes against the key schema infrastructure code declares.

/** A SAM app: an API function with the table's name in its environment, a pk/sk table with one GSI. */
const SAM_TEMPLATE = `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Parameters:
  Stage:
    Type: String
    Default: dev
Globals:
  Function:
    Runtime: nodejs20.x
    Environment:
      Variables:
        TABLE_NAME: !Ref OrdersTable
Resources:
  OrdersFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: src/
      Handler: handlers/orders.handler
      Policies:
        - DynamoDBCrudPolicy:
            TableName: !Ref OrdersTable
      Events:
        Get:
          Type: HttpApi
          Properties:
            Path: /orders/{id}
            Method: get
  OrdersTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: !Sub 'orders-\${Stage}'
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - AttributeName: pk
          AttributeType: S
        - AttributeName: sk
          AttributeType: S
        - AttributeName: customerId
          AttributeType: S
        - AttributeName: placedAt
          AttributeType: N
      KeySchema:
        - AttributeName: pk
          KeyType: HASH
        - AttributeName: sk
          KeyType: RANGE
      GlobalSecondaryIndexes:
        - IndexName: byCustomer
          KeySchema:
            - AttributeName: customerId
              KeyType: HASH
            - AttributeName: placedAt
              KeyType: RANGE
          Projection:
            ProjectionType: ALL
      StreamSpecification:
        StreamViewType: NEW_IMAGE
Outputs:
  TableArn:
    Value: !GetAtt OrdersTable.Arn
`;

const CLIENT = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
`;

/** Two Serverless services of a monorepo, each setting TABLE_NAME to its own table with its own keys. */
const usersService = `service: users

provider:
  name: aws
  runtime: python3.12
  environment:
    TABLE_NAME: \${self:service}-\${sls:stage}

functions:
  getUser:
    handler: handler.get_user
    events:
      - httpApi: 'GET /users/{userId}'

resources:
  Resources:
    UsersTable:
      Type: AWS::DynamoDB::Table
      Properties:
        TableName: \${self:service}-\${sls:stage}
        BillingMode: PAY_PER_REQUEST
        AttributeDefinitions:
          - AttributeName: userId
            AttributeType: S
        KeySchema:
          - AttributeName: userId
            KeyType: HASH
`;

const ordersService = `service: orders

provider:
  name: aws
  runtime: python3.12
  environment:
    TABLE_NAME: \${self:service}-\${sls:stage}

functions:
  getOrder:
    handler: handler.get_order
    events:
      - httpApi: 'GET /orders/{orderId}'

resources:
  Resources:
    OrdersTable:
      Type: AWS::DynamoDB::Table
      Properties:
        TableName: \${self:service}-\${sls:stage}
        BillingMode: PAY_PER_REQUEST
        AttributeDefinitions:
          - AttributeName: orderId
            AttributeType: S
          - AttributeName: lineNo
            AttributeType: N
        KeySchema:
          - AttributeName: orderId
            KeyType: HASH
          - AttributeName: lineNo
            KeyType: RANGE
`;

/** One service deployed from a file per stage; the dev copy, which alone adds `byOwner`, is malformed YAML. */
const stageFile = (stage: string, indexes: string[]) => `service: listings-${stage}

provider:
  name: aws
  runtime: nodejs20.x
  stage: ${stage}
functions:
  search:
    handler: src/search.handler
    events:
      - http:
          path: /listings
          method: get

resources:
  Resources:
    ListingsTable:
      Type: AWS::DynamoDB::Table
      Properties:
        TableName: listings-\${sls:stage}
        BillingMode: PAY_PER_REQUEST
        AttributeDefinitions:
          - AttributeName: id
            AttributeType: S
          - AttributeName: status
            AttributeType: S
          - AttributeName: ownerId
            AttributeType: S
        KeySchema:
          - AttributeName: id
            KeyType: HASH
        GlobalSecondaryIndexes:
${indexes
  .map(
    (name) => `          - IndexName: ${name}
            KeySchema:
              - AttributeName: ${name === 'byOwner' ? 'ownerId' : 'status'}
                KeyType: HASH
            Projection:
              ProjectionType: ALL
`,
  )
  .join('')}`;

const stageFiles = {
  'sls/serverless.prod.yml': stageFile('prod', ['byStatus']),
  // A line pasted at column 0 in the middle of a mapping: the whole file fails to parse.
  'sls/serverless.dev.yml': stageFile('dev', ['byStatus', 'byOwner']).replace('resources:', 'TODO restore\nresources:'),
};

const searchHandler = (index: string, attribute: string) => `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { queryStringParameters: Record<string, string> }) => {
  const out = await ddb.send(
    new QueryCommand({
      TableName: 'listings-prod',
      IndexName: '${index}',
      KeyConditionExpression: '${attribute} = :v',
      ExpressionAttributeValues: { ':v': event.queryStringParameters.v },
    }),
  );
  return out.Items;
};
`;

ruleTester('SL011', {
  valid: [
    {
      name: 'an index only a stage file that fails to parse defines: not called undefined',
      files: { ...stageFiles, 'src/search.ts': searchHandler('byOwner', 'ownerId') },
    },
    {
      name: 'SAM: gets, deletes and queries that name the table and index keys exactly (aliases too)',
      files: {
        'template.yaml': SAM_TEMPLATE,
        'src/lib/client.ts': CLIENT,
        'src/handlers/orders.ts': `import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../lib/client';

const TableName = process.env.TABLE_NAME;

export const handler = async (event: { pathParameters: { id: string }; customerId: string }) => {
  const id = event.pathParameters.id;
  const order = await ddb.send(new GetCommand({ TableName, Key: { pk: \`ORDER#\${id}\`, sk: 'META' } }));
  await ddb.send(new DeleteCommand({ TableName, Key: { sk: 'DRAFT', pk: \`ORDER#\${id}\` } }));
  const history = await ddb.send(
    new QueryCommand({
      TableName,
      IndexName: 'byCustomer',
      KeyConditionExpression: '#c = :c AND placedAt > :since',
      ExpressionAttributeNames: { '#c': 'customerId' },
      ExpressionAttributeValues: { ':c': event.customerId, ':since': 0 },
    }),
  );
  const lines = await ddb.send(
    new QueryCommand({
      TableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :line)',
      ExpressionAttributeValues: { ':pk': \`ORDER#\${id}\`, ':line': 'LINE#' },
    }),
  );
  return { order, history, lines };
};
`,
      },
    },
    {
      name: 'a monorepo: two services set TABLE_NAME to different tables, each keyed its own way',
      files: {
        'services/users/serverless.yml': usersService,
        'services/users/handler.py': `import os

import boto3

table = boto3.resource("dynamodb").Table(os.environ["TABLE_NAME"])


def get_user(event, context):
    return table.get_item(Key={"userId": event["pathParameters"]["userId"]}).get("Item")
`,
        'services/orders/serverless.yml': ordersService,
        'services/orders/handler.py': `import os

import boto3

table = boto3.resource("dynamodb").Table(os.environ["TABLE_NAME"])


def get_order(event, context):
    order_id = event["pathParameters"]["orderId"]
    return table.get_item(Key={"orderId": order_id, "lineNo": 0}).get("Item")
`,
      },
    },
    {
      name: 'a module both services import: its table is one of two, so its key is not judged',
      files: {
        'services/users/serverless.yml': usersService
          .replace('python3.12', 'nodejs20.x')
          .replace('handler.get_user', 'src/get.handler'),
        'services/users/src/get.ts': `import { lookup } from '../../shared/lookup';

export const handler = async (event: { pathParameters: { userId: string } }) => lookup(event.pathParameters.userId);
`,
        'services/orders/serverless.yml': ordersService
          .replace('python3.12', 'nodejs20.x')
          .replace('handler.get_order', 'src/get.handler'),
        'services/orders/src/get.ts': `import { lookup } from '../../shared/lookup';

export const handler = async (event: { pathParameters: { orderId: string } }) => lookup(event.pathParameters.orderId);
`,
        'services/shared/lookup.ts': `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function lookup(id: string) {
  const { Item } = await ddb.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { id } }));
  return Item;
}
`,
      },
    },
    {
      name: 'indexes added under a condition are not all known: a query on another index is not judged',
      files: {
        'template.yaml': `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Conditions:
  WithSearch: !Equals [!Ref AWS::Region, us-east-1]
Resources:
  SearchFunction:
    Type: AWS::Serverless::Function
    Properties:
      Handler: search.handler
      Runtime: python3.12
      Environment:
        Variables:
          TABLE: !Ref ItemsTable
  ItemsTable:
    Type: AWS::DynamoDB::Table
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - AttributeName: id
          AttributeType: S
      KeySchema:
        - AttributeName: id
          KeyType: HASH
      GlobalSecondaryIndexes: !If
        - WithSearch
        - - IndexName: byTitle
            KeySchema:
              - AttributeName: title
                KeyType: HASH
            Projection:
              ProjectionType: KEYS_ONLY
        - !Ref AWS::NoValue
`,
        'search.py': `import os

import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table(os.environ["TABLE"])


def handler(event, context):
    return table.query(IndexName="byTitle", KeyConditionExpression=Key("title").eq(event["title"]))["Items"]
`,
      },
    },
    {
      name: 'a literal table name no template declares',
      files: {
        'app.py': `import boto3

table = boto3.resource("dynamodb").Table("sessions")


def load(session_id):
    return table.get_item(Key={"sid": session_id, "v": 1})
`,
      },
    },
  ],
  invalid: [
    {
      name: 'an index no stage file names, the malformed one included',
      files: { ...stageFiles, 'src/search.ts': searchHandler('byRegion', 'region') },
      errors: [{ file: 'src/search.ts', line: 10, severity: 'error', messageId: 'unknownIndex' }],
    },
    {
      name: 'SAM: a Key naming an attribute that is not a key, a Key without the sort key, an index the table lacks',
      files: {
        'src/handlers/orders.ts': `import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../lib/client';

const TableName = process.env.TABLE_NAME;

export const handler = async (event: { pathParameters: { id: string }; customerId: string }) => {
  const id = event.pathParameters.id;
  const order = await ddb.send(new GetCommand({ TableName, Key: { orderId: id } }));
  await ddb.send(new DeleteCommand({ TableName, Key: { pk: \`ORDER#\${id}\` } }));
  const history = await ddb.send(
    new QueryCommand({
      TableName,
      IndexName: 'customer-index',
      KeyConditionExpression: 'customerId = :c',
      ExpressionAttributeValues: { ':c': event.customerId },
    }),
  );
  return { order, history };
};
`,
        'template.yaml': SAM_TEMPLATE,
        'src/lib/client.ts': CLIENT,
      },
      errors: [
        { line: 8, severity: 'error', messageId: 'keyNotInSchema' },
        { line: 9, severity: 'error', messageId: 'keyMissing' },
        { line: 13, severity: 'error', messageId: 'unknownIndex' },
      ],
    },
    {
      name: 'Serverless resources: a boto3 query on an attribute that is not the key, without an IndexName',
      files: {
        'handler.py': `import os

import boto3
from boto3.dynamodb.conditions import Key

dynamodb = boto3.resource("dynamodb")
orders = dynamodb.Table(os.environ["TABLE_NAME"])


def get_order(event, context):
    customer = event["queryStringParameters"]["customer"]
    resp = orders.query(KeyConditionExpression=Key("customerId").eq(customer))
    return resp["Items"]
`,
        'serverless.yml': ordersService,
      },
      errors: [{ line: 12, severity: 'error', messageId: 'queryNotOnKey' }],
    },
    {
      name: 'a Terraform module: a Lambda reads its table with the key names of another design',
      files: {
        'src/lookup/app.py': `import os

import boto3

client = boto3.client("dynamodb")


def handler(event, context):
    resp = client.get_item(
        TableName=os.environ["LINKS_TABLE"],
        Key={"PK": {"S": "LINK#" + event["code"]}, "SK": {"S": "META"}},
    )
    return resp.get("Item")
`,
        'infra/variables.tf': `variable "stage" {
  type = string
}
`,
        'infra/main.tf': `data "archive_file" "lookup" {
  type        = "zip"
  source_dir  = "\${path.module}/../src/lookup"
  output_path = "\${path.module}/build/lookup.zip"
}

resource "aws_lambda_function" "lookup" {
  function_name = "links-lookup-\${var.stage}"
  filename      = data.archive_file.lookup.output_path
  handler       = "app.handler"
  runtime       = "python3.12"
  role          = aws_iam_role.lookup.arn

  environment {
    variables = {
      LINKS_TABLE = aws_dynamodb_table.links.name
    }
  }
}

resource "aws_dynamodb_table" "links" {
  name         = "links-\${var.stage}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "code"

  attribute {
    name = "code"
    type = "S"
  }
}
`,
      },
      errors: [{ line: 11, severity: 'error', messageId: 'keyNotInSchema' }],
    },
    {
      name: 'a CDK app: the stack names the key PK, the handler writes pk',
      files: {
        'lambda/profile.ts': `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { userId: string; name: string }) => {
  await ddb.send(
    new UpdateCommand({
      TableName: process.env.PROFILES_TABLE,
      Key: { pk: \`USER#\${event.userId}\` },
      UpdateExpression: 'SET #n = :n',
      ExpressionAttributeNames: { '#n': 'name' },
      ExpressionAttributeValues: { ':n': event.name },
    }),
  );
};
`,
        'cdk.json': '{ "app": "npx ts-node bin/app.ts" }\n',
        'lib/profiles-stack.ts': `import * as path from 'node:path';
import { Stack, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';

export class ProfilesStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const profiles = new dynamodb.TableV2(this, 'Profiles', {
      partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING },
    });
    const fn = new NodejsFunction(this, 'ProfileFn', {
      entry: path.join(__dirname, '../lambda/profile.ts'),
      environment: { PROFILES_TABLE: profiles.tableName },
    });
    profiles.grantReadWriteData(fn);
  }
}
`,
      },
      errors: [{ line: 10, severity: 'error', messageId: 'keyNotInSchema' }],
    },
  ],
});
