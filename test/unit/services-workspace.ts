import * as fs from 'node:fs';
import * as path from 'node:path';

const write = (root: string, file: string, lines: string[]) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), lines.join('\n') + '\n');
};
/**
 * A TypeScript service (shared table config, a repository class, two Lambda handlers) and a
 * Python one (settings module, a repository class, a handler), as such services are laid out.
 */
export function writeServices(root: string): void {
  write(root, 'src/config/tables.ts', [
    '// Table names and partition key values the services share.',
    'export const TABLES = {',
    "  leaderboard: process.env.LEADERBOARD_TABLE ?? 'leaderboard',",
    "  orders: process.env.ORDERS_TABLE ?? 'orders',",
    '} as const;',
    '',
    'export const LEADERBOARD_SHARDS = 10;',
    "export const STATUS_PENDING = 'PENDING';",
  ]);
  write(root, 'src/repositories/order-repository.ts', [
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
    "import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';",
    "import { TABLES } from '../config/tables';",
    '',
    'const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
    '',
    'export interface Order {',
    '  orderId: string;',
    '  status: string;',
    '}',
    '',
    'export class OrderRepository {',
    '  async save(order: Order): Promise<void> {',
    '    await ddb.send(',
    '      new PutCommand({',
    '        TableName: TABLES.orders,',
    '        Item: { PK: `ORDER#${order.orderId}`, GSI1PK: `STATUS#${order.status}`, ...order },',
    '      }),',
    '    );',
    '  }',
    '',
    '  async listByStatus(status: string): Promise<Order[]> {',
    '    const out = await ddb.send(',
    '      new QueryCommand({',
    '        TableName: TABLES.orders,',
    "        IndexName: 'GSI1',",
    "        KeyConditionExpression: 'GSI1PK = :pk',",
    "        ExpressionAttributeValues: { ':pk': `STATUS#${status}` },",
    '      }),',
    '    );',
    '    return (out.Items ?? []) as Order[];',
    '  }',
    '}',
  ]);
  write(root, 'src/handlers/list-pending.ts', [
    "import type { APIGatewayProxyHandler } from 'aws-lambda';",
    "import { STATUS_PENDING } from '../config/tables';",
    "import { OrderRepository } from '../repositories/order-repository';",
    '',
    'const orders = new OrderRepository();',
    '',
    'export const handler: APIGatewayProxyHandler = async () => {',
    '  const pending = await orders.listByStatus(STATUS_PENDING);',
    '  return { statusCode: 200, body: JSON.stringify(pending) };',
    '};',
  ]);
  write(root, 'src/handlers/submit-score.ts', [
    "import type { APIGatewayProxyHandler } from 'aws-lambda';",
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
    "import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';",
    "import { LEADERBOARD_SHARDS, TABLES } from '../config/tables';",
    '',
    'const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
    '',
    'export const handler: APIGatewayProxyHandler = async (event) => {',
    "  const { playerId, score } = JSON.parse(event.body ?? '{}');",
    '  const shard = Math.floor(Math.random() * LEADERBOARD_SHARDS);',
    '  await ddb.send(',
    '    new UpdateCommand({',
    '      TableName: TABLES.leaderboard,',
    '      Key: { PK: `LEADERBOARD#${shard}`, SK: `PLAYER#${playerId}` },',
    "      UpdateExpression: 'SET score = :s',",
    "      ExpressionAttributeValues: { ':s': score },",
    '    }),',
    '  );',
    "  return { statusCode: 204, body: '' };",
    '};',
  ]);
  write(root, 'app/__init__.py', []);
  write(root, 'app/settings.py', [
    'import os',
    '',
    'TABLE_NAME = os.environ.get("TABLE_NAME", "visits")',
    'COUNTER_KEY = "site-visits"',
  ]);
  write(root, 'app/repository.py', [
    'import boto3',
    '',
    'from app.settings import TABLE_NAME',
    '',
    '',
    'class CounterRepository:',
    '    def __init__(self):',
    '        self.table = boto3.resource("dynamodb").Table(TABLE_NAME)',
    '',
    '    def increment(self, key):',
    '        return self.table.update_item(',
    '            Key={"pk": key},',
    '            UpdateExpression="ADD visits :one",',
    '            ExpressionAttributeValues={":one": 1},',
    '            ReturnValues="UPDATED_NEW",',
    '        )',
  ]);
  write(root, 'app/handler.py', [
    'import json',
    '',
    'from app.repository import CounterRepository',
    'from app.settings import COUNTER_KEY',
    '',
    'repo = CounterRepository()',
    '',
    '',
    'def lambda_handler(event, context):',
    '    result = repo.increment(COUNTER_KEY)',
    '    return {"statusCode": 200, "body": json.dumps({"visits": int(result["Attributes"]["visits"])})}',
  ]);
}
