// A game's scores, with a leaderboard index keyed by the game title: every score
// update writes the one index partition of its game, and the leaderboard reads it.
import { DynamoDBClient, QueryCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';

const ddb = new DynamoDBClient({});
const TABLE = 'scores';
const GAME = 'Rock Paper Scissors';

export async function recordWin(playerId: string, score: number) {
  const params = {
    TableName: TABLE,
    Key: { playerId: { S: playerId } },
    UpdateExpression: 'SET #gameTitle = :gameTitle, score = :score',
    ExpressionAttributeNames: { '#gameTitle': 'gameTitle' },
    ExpressionAttributeValues: { ':gameTitle': { S: GAME }, ':score': { N: String(score) } },
  };
  await ddb.send(new UpdateItemCommand(params));
}

export async function leaderboard() {
  return ddb.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: 'scoreIndex',
      KeyConditionExpression: 'gameTitle = :g',
      ExpressionAttributeValues: { ':g': { S: GAME } },
      ScanIndexForward: false,
      Limit: 10,
    }),
  );
}
