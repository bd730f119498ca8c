// A leaderboard repository as services write them: `record` puts every score under
// one board key, `top` reads the board back, `profile` reads one player. The heat
// tests drive the writer past its partition's ceiling and never run `top`: live
// throttles must show on `record` alone.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

const TABLE = 'boards';

export class BoardRepo {
  private readonly doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

  async record(player: string, score: number): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: TABLE, Item: { PK: 'BOARD#global', SK: player, score } }));
  }

  async top(limit = 10) {
    const page = await this.doc.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': 'BOARD#global' },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return page.Items ?? [];
  }

  async profile(playerId: string) {
    const r = await this.doc.send(
      new GetCommand({ TableName: TABLE, Key: { PK: `PLAYER#${playerId}`, SK: 'profile' } }),
    );
    return r.Item;
  }
}
