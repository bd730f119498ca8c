/**
 * PynamoDB models declared through the project's own base module
 * (test/fixtures/libraries/pynamodb-project-base): `app/models/base.py` imports PynamoDB and
 * passes its classes on (`BaseModel`, the attribute and index classes); each model module imports
 * them from there (`from app.models.base import BaseModel, UnicodeAttribute`, one as `Text`) and
 * names no `pynamodb` itself. The models are read as if they imported PynamoDB: their tables, keys,
 * index and defaults, and the handlers' calls on them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableName } from '../../server/src/engine';
import { libraryFixture } from './helpers';

const fx = libraryFixture('pynamodb-project-base');

test('the calls on models whose module names no pynamodb are read on their table, index and key', () => {
  const calls = fx.accesses
    .filter((a) => a.library?.library === 'pynamodb')
    .map(
      (a) =>
        `${fx.line(a)} ${a.operation} ${a.library!.entity} ${tableName(a.table)}${a.index ? `/${a.index}` : ''} ` +
        `${a.partitionKey?.attribute ?? '-'}`,
    )
    .sort();
  assert.deepEqual(calls, [
    'app/api/orders.py:10 PutItem Order shop-orders customer_id',
    'app/api/orders.py:10 PutItem Order shop-orders/orders-by-status status',
    'app/api/orders.py:12 UpdateItem DailyCounter shop-counters name',
    'app/api/orders.py:17 Query Order shop-orders/orders-by-status status',
    'app/api/orders.py:21 Query Order shop-orders customer_id',
    'app/models/order.py:28 PutItem Order shop-orders/orders-by-status status',
  ]);
});

test('the constant status default, its query and the counter item are found', () => {
  const found = fx.findings.map((f) => `${f.rule} ${fx.line(f)}`).sort();
  assert.deepEqual(found, [
    // The order's `status` defaults to PLACED: every order in one partition of the status index.
    'SL001 app/api/orders.py:17',
    'SL001 app/models/order.py:28',
    // The counter's name given where the instance is made.
    'SL004 app/api/orders.py:11',
    // The index's range key, `placed_at`, defaults to the clock: each placed order at the end of PLACED.
    'SL005 app/api/orders.py:10',
  ]);
  const schema = fx.findings.find((f) => fx.line(f) === 'app/models/order.py:28')!;
  assert.equal(schema.access.library?.entity, 'Order');
});
