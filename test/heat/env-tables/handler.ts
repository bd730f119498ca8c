// Lambda handlers whose table comes from the environment, as deployed functions read
// it: `recordScore` puts every score under one board key, `topScores` reads the board.
// The table's name in the code is `$SCORES_TABLE_NAME`, which no AWS call may carry.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TABLE = process.env.SCORES_TABLE_NAME!;

export const recordScore = async (event: { player: string; score: number }) => {
  await doc.send(
    new PutCommand({ TableName: TABLE, Item: { PK: 'BOARD#global', SK: event.player, score: event.score } }),
  );
  return { statusCode: 204 };
};

export const topScores = async () => {
  const page = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': 'BOARD#global' },
      ScanIndexForward: false,
      Limit: 10,
    }),
  );
  return { statusCode: 200, body: JSON.stringify(page.Items ?? []) };
};
