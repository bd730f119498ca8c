import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSource } from '../../server/src/engine/analyze';
import { initParsers } from '../../server/src/engine/syntax/parser';

/**
 * What a file tells other files of a table's keys (`FileAnalysis.definitions`): a write
 * that fills an index only through its item's attributes names that index by a guess from
 * the attribute names (`GSI1PK` → `GSI1`). Told to the workspace, the guess would stand
 * beside the index the table's definition names, and every writer of the table would get
 * two accesses (and two findings) for one write.
 */

before(() => initParsers());

const WRITER = `
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
declare const doc: DynamoDBDocumentClient;
export async function hide(productId: string, reviewId: string) {
  await doc.send(new UpdateCommand({
    TableName: 'reviews',
    Key: { PK: \`PRODUCT#\${productId}\`, SK: \`REVIEW#\${reviewId}\` },
    UpdateExpression: 'SET hidden = :t, GSI1PK = :queue',
    ExpressionAttributeValues: { ':t': true, ':queue': 'HIDDEN' },
  }));
}
`;

test('a write filling an index by its attribute names tells the table’s own keys, not the guessed index', () => {
  const a = analyzeSource('hide-review.ts', WRITER, 'typescript');
  assert.deepEqual(
    a.accesses.map((x) => x.index ?? null),
    [null, 'GSI1'],
    'the write and the index it fills',
  );
  assert.deepEqual(a.definitions, [['literal:reviews', { partition: 'PK', sort: 'SK' }]]);
});

test('a query through an index still tells that index’s keys', () => {
  const reader = `
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
declare const doc: DynamoDBDocumentClient;
export const queue = () => doc.send(new QueryCommand({
  TableName: 'reviews', IndexName: 'ByNewest',
  KeyConditionExpression: 'GSI1PK = :q', ExpressionAttributeValues: { ':q': 'HIDDEN' },
}));
`;
  const a = analyzeSource('queue.ts', reader, 'typescript');
  assert.deepEqual(a.definitions, [['literal:reviews', { indexes: { ByNewest: { partition: 'GSI1PK' } } }]]);
});
