/**
 * The account's tables offered first when mapping an SST table the code names by id
 * (`Resource.Polls.name` is `$SST_RESOURCE_Polls`): SST names the physical table after the
 * id, v3 as `<app>-<stage>-<id>Table-<suffix>`, v2 as `<stage>-<app>-<id>`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sstTableCandidates } from '../../protocol/src/settings';

const ACCOUNT = [
  'polls-dev-PollsTable-x7k2mn',
  'polls-production-PollsTable-q81az',
  'polls-dev-PollsArchiveTable-b2c4',
  'dev-clicks-Counter',
  'prod-clicks-Counter',
  'dev-clicks-CounterBackup',
  'Counters',
  'orders',
];

test('v3 ids match the <id>Table word of every stage, and no longer id that starts with it', () => {
  assert.deepEqual(sstTableCandidates('$SST_RESOURCE_Polls', ACCOUNT), [
    'polls-dev-PollsTable-x7k2mn',
    'polls-production-PollsTable-q81az',
  ]);
});

test('v2 ids match the last word of the name', () => {
  assert.deepEqual(sstTableCandidates('$SST_Table_tableName_Counter', ACCOUNT), [
    'dev-clicks-Counter',
    'prod-clicks-Counter',
  ]);
});

test('a name that is no SST read offers nothing first', () => {
  assert.deepEqual(sstTableCandidates('$ORDERS_TABLE', ACCOUNT), []);
  assert.deepEqual(sstTableCandidates('$SST_RESOURCE_Missing', ACCOUNT), []);
});
