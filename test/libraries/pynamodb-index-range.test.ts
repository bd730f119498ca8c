/**
 * A PynamoDB index keyed by a range key as well (test/fixtures/libraries/pynamodb-index-range):
 * `SupportCase` has two global indexes sorted by when a case was opened, one keyed by its
 * queue (a handful of names), one by its customer. A save writes both index partitions with
 * the index's own range key (`openedAt`, stored as the model's `attr_name` says, also where
 * the index names it without one). The table's key names (`caseId`, no range key) do not
 * name it, so reading the index's item by them lost it, and SL005 never saw the clock
 * sorting the constant `triage` queue.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { libraryFixture } from './helpers';

const fx = libraryFixture('pynamodb-index-range');

test("a save writes each index partition with the index's range key", () => {
  const writes = fx.accesses
    .filter((a) => a.operation === 'PutItem')
    .map((a) => `${a.index ?? '-'} ${a.partitionKey?.attribute} ${a.sortKey?.attribute ?? '-'}`)
    .sort();
  assert.deepEqual(writes, [
    '- caseId -',
    'customer-opened-index customerId openedAt',
    'queue-opened-index queue openedAt',
  ]);
});

test('the clock sorting the constant queue partition is SL005; the customer index is not hot', () => {
  const found = fx.findings.map((f) => `${f.rule} ${fx.line(f)} ${f.access.index ?? '-'}`).sort();
  assert.deepEqual(found, [
    'SL001 support/handlers.py:10 queue-opened-index',
    'SL001 support/handlers.py:19 queue-opened-index',
    'SL005 support/handlers.py:12 queue-opened-index',
  ]);
});
