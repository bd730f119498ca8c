import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The leaderboard table the demo, the bench and the tests create: string `PK`/`SK`
 * keys, on-demand unless `extra` says otherwise.
 */
export function boardTable(name: string, extra: Partial<CreateTableCommandInput> = {}): CreateTableCommandInput {
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ],
    AttributeDefinitions: [
      { AttributeName: 'PK', AttributeType: 'S' },
      { AttributeName: 'SK', AttributeType: 'S' },
    ],
    ...extra,
  };
}
