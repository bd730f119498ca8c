// Match ids, AWS SDK v3 low-level client.
import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';

const client = new DynamoDBClient({});

/** BAD (SL004): every new match passes through one counter item. */
export async function nextMatchId(): Promise<number> {
  const out = await client.send(
    new UpdateItemCommand({
      TableName: process.env.COUNTERS_TABLE,
      Key: { PK: { S: 'COUNTER#match' } },
      UpdateExpression: 'ADD #next :one',
      ExpressionAttributeNames: { '#next': 'next' },
      ExpressionAttributeValues: { ':one': { N: '1' } },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes?.next?.N);
}

/** GOOD: ids made on the client touch no shared item. */
export function newMatchId(): string {
  return randomUUID();
}
