import { ruleTester } from './tester';

/** A TypeScript writer that spreads a leaderboard over ten shards, as a service module would. */
const SHARDED_WRITER = `import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from './client';

export const BOARD_SHARDS = 10;

export async function submitScore(playerId: string, score: number) {
  const shard = Math.floor(Math.random() * BOARD_SHARDS);
  await ddb.send(
    new PutCommand({ TableName: 'leaderboard', Item: { PK: \`BOARD#global#\${shard}\`, SK: playerId, score } }),
  );
}
`;

// SL006 unsharded-read-of-sharded-key: a read of a sharded key that misses its other shards.
ruleTester('SL006', {
  valid: [
    {
      name: 'a reader that queries every shard and follows LastEvaluatedKey',
      files: {
        'src/scores.ts': SHARDED_WRITER,
        'src/top-scores.ts': `import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from './client';
import { BOARD_SHARDS } from './scores';

export async function topScores() {
  const items: Record<string, unknown>[] = [];
  for (let shard = 0; shard < BOARD_SHARDS; shard++) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await ddb.send(
        new QueryCommand({
          TableName: 'leaderboard',
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': \`BOARD#global#\${shard}\` },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return items;
}
`,
      },
    },
  ],
  invalid: [
    {
      name: 'a reader in another file that queries the bare key',
      files: {
        'src/scores.ts': SHARDED_WRITER,
        'src/handlers/leaderboard.ts': `import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../client';

export const handler = async () => {
  const out = await ddb.send(
    new QueryCommand({
      TableName: 'leaderboard',
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': 'BOARD#global' },
    }),
  );
  return { statusCode: 200, body: JSON.stringify(out.Items) };
};
`,
      },
      errors: [{ file: 'src/handlers/leaderboard.ts', line: 9, severity: 'error', messageId: 'bareKey' }],
    },
    {
      name: 'a Python reader of a key a TypeScript writer shards, reading shard 0 only',
      files: {
        'src/scores.ts': SHARDED_WRITER,
        'reports/weekly.py': `import boto3
from boto3.dynamodb.conditions import Key

table = boto3.resource("dynamodb").Table("leaderboard")


def weekly_report():
    items = table.query(KeyConditionExpression=Key("PK").eq("BOARD#global#0"))["Items"]
    return sorted(items, key=lambda i: i["score"], reverse=True)[:10]
`,
      },
      errors: [{ file: 'reports/weekly.py', line: 8, severity: 'error', messageId: 'oneShard' }],
    },
  ],
});
