// The web dashboard's read of the global board that py/leaderboard.py writes.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateQuery } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const SHARDS = 10;

/**
 * BAD (SL007): the Python writer draws shards with random.randint(1, 10), so 1..10;
 * this reader loops 0..9 — it never reads shard 10 and queries an empty shard 0.
 */
export async function dashboardTop(limit: number) {
  const items: Array<{ Score: number }> = [];
  for (let shard = 0; shard < SHARDS; shard++) {
    for await (const page of paginateQuery(
      { client: ddb },
      {
        TableName: 'leaderboard',
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `LEADERBOARD#GLOBAL#${shard}` },
      },
    )) {
      items.push(...((page.Items ?? []) as Array<{ Score: number }>));
    }
  }
  return items.sort((a, b) => b.Score - a.Score).slice(0, limit);
}
