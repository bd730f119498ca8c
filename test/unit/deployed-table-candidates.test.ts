/**
 * The account's tables offered first when mapping a table a template declares without a
 * `TableName` (the code reads `$DYNAMODB_TABLE`, set to `!Ref DynamoDBTable`):
 * CloudFormation names it `<stack>-<LogicalId>-<SUFFIX>` at deploy time, a CDK table
 * `<stack>-<construct path><hash>-<SUFFIX>`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deployedTableCandidates } from '../../protocol/src/settings';

const ACCOUNT = [
  'sam-app-DynamoDBTable-1Q2W3E4R5T6Y',
  'sam-app-prod-DynamoDBTable-ZX81KQ0PL2MN',
  'sam-app-OtherDynamoDBTable-AB12CD34EF56',
  'DynamoDBTable',
  'shop-api-dev-OrdersTable-9XK2M4P7Q1R3',
  'Shop-DataOrders1A2B3C4D-9XK2M4P7Q1R3',
  'Shop-PreOrders-9XK2M4P7Q1R3',
  'polls-dev-PollsTable-x7k2mn',
  'orders',
];

test('a SAM or Serverless table: the logical id between dashes, before the upper-case suffix', () => {
  assert.deepEqual(deployedTableCandidates(['DynamoDBTable'], ACCOUNT), [
    'sam-app-DynamoDBTable-1Q2W3E4R5T6Y',
    'sam-app-prod-DynamoDBTable-ZX81KQ0PL2MN',
  ]);
  assert.deepEqual(deployedTableCandidates(['OrdersTable'], ACCOUNT), ['shop-api-dev-OrdersTable-9XK2M4P7Q1R3']);
});

test('a CDK table: the construct id with its hash, after the ids of the constructs around it', () => {
  assert.deepEqual(deployedTableCandidates(['Orders'], ACCOUNT), ['Shop-DataOrders1A2B3C4D-9XK2M4P7Q1R3']);
});

test('no logical id, an id that is no plain word, or a name without the suffix: nothing first', () => {
  assert.deepEqual(deployedTableCandidates([], ACCOUNT), []);
  assert.deepEqual(deployedTableCandidates(['${id}-Table'], ACCOUNT), []);
  assert.deepEqual(deployedTableCandidates(['PollsTable'], ACCOUNT), []);
});
