// Game leaderboard on DynamoDB, AWS SDK v3 with @aws-sdk/lib-dynamodb.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TABLE = 'leaderboard';
const BOARD_SHARDS = 10;

export interface Score {
  playerId: string;
  score: number;
}

/** BAD (SL001): every score of the global board goes to one partition key. */
export async function submitGlobalScore(playerId: string, score: number): Promise<void> {
  await ddb.send(
    new PutCommand({
      TableName: TABLE,
      Item: { PK: 'BOARD#global', SK: `PLAYER#${playerId}`, score },
    }),
  );
}

/** GOOD: a calculated suffix (a stable hash of the player) spreads the board over 10 keys. */
export async function submitShardedScore(playerId: string, score: number): Promise<void> {
  const shard = stableHash(playerId) % BOARD_SHARDS;
  await ddb.send(
    new PutCommand({
      TableName: TABLE,
      Item: { PK: `BOARD#global#${shard}`, SK: `PLAYER#${playerId}`, score },
    }),
  );
}

/** GOOD: the scatter-gather reader queries every shard (0..9), follows pages and merges. */
export async function topScores(limit: number): Promise<Score[]> {
  const perShard = await Promise.all(
    Array.from({ length: BOARD_SHARDS }, async (_, shard) => {
      const items: Score[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await ddb.send(
          new QueryCommand({
            TableName: TABLE,
            KeyConditionExpression: 'PK = :pk',
            ExpressionAttributeValues: { ':pk': `BOARD#global#${shard}` },
            ExclusiveStartKey: startKey,
          }),
        );
        items.push(...((page.Items ?? []) as Score[]));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return items;
    }),
  );
  return perShard.flat().sort((a, b) => b.score - a.score).slice(0, limit);
}

/** GOOD: a player's own history lives under a high-cardinality key. */
export async function playerHistory(playerId: string) {
  return ddb.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :match)',
      ExpressionAttributeValues: { ':pk': `PLAYER#${playerId}`, ':match': 'MATCH#' },
    }),
  );
}

/** BAD (SL001 + SL005): one activity feed key, sorted by an ever-increasing timestamp. */
export async function recordActivity(playerId: string, action: string): Promise<void> {
  await ddb.send(
    new PutCommand({
      TableName: TABLE,
      Item: { PK: 'FEED#recent', SK: new Date().toISOString(), playerId, action },
    }),
  );
}

/** BAD (SL003): the tier leaderboards are keyed by a handful of tier values. */
export async function bumpTierScore(tier: 'bronze' | 'silver' | 'gold', playerId: string, delta: number) {
  await ddb.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: { PK: `TIER#${tier}`, SK: `PLAYER#${playerId}` },
      UpdateExpression: 'SET score = score + :d',
      ExpressionAttributeValues: { ':d': delta },
    }),
  );
}

function stableHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return h;
}
