// A one-off backfill run by hand against production: it names the table as deployed,
// 'scores-prod', where the Lambda handlers read it from the environment. Mapped, both
// names are one table and one board key.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function backfill(scores: Array<{ player: string; score: number }>) {
  for (const s of scores) {
    await doc.send(
      new PutCommand({ TableName: 'scores-prod', Item: { PK: 'BOARD#global', SK: s.player, score: s.score } }),
    );
  }
}
