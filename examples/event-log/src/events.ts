// Event log, AWS SDK v2 DocumentClient.
import { DynamoDB } from 'aws-sdk';

const dynamodb = new DynamoDB.DocumentClient();
const WRITE_SHARDS = 10;

export interface Event {
  eventId: string;
  type: string;
  payload: unknown;
}

/** GOOD: a random suffix spreads each day's writes over 10 keys. */
export async function writeEvent(date: string, event: Event) {
  const shard = Math.floor(Math.random() * WRITE_SHARDS);
  await dynamodb
    .put({
      TableName: 'events',
      Item: { pk: `${date}#${shard}`, sk: event.eventId, ...event },
    })
    .promise();
}

/** GOOD: reads scatter-gather across all shards. */
export async function readEvents(date: string): Promise<Event[]> {
  const results = await Promise.all(
    Array.from({ length: WRITE_SHARDS }, (_, i) =>
      dynamodb
        .query({
          TableName: 'events',
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `${date}#${i}` },
        })
        .promise(),
    ),
  );
  return results.flatMap((r) => r.Items as Event[]);
}

/** BAD (SL002): all of today's audit writes land on today's key. */
export async function audit(event: Event) {
  const day = new Date().toISOString().split('T')[0];
  await dynamodb.put({ TableName: 'audit', Item: { pk: `AUDIT#${day}`, sk: event.eventId } }).promise();
}

/** BAD (SL003): "open" is most of the table's traffic. */
export async function openEvents(status: string) {
  return dynamodb
    .query({
      TableName: 'events',
      IndexName: 'byStatus',
      KeyConditionExpression: '#s = :s',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': status },
    })
    .promise();
}
