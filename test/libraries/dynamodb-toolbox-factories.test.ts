/**
 * dynamodb-toolbox v0 entities made by factory functions
 * (test/fixtures/libraries/dynamodb-toolbox-factories): `createUserEntity = (table) => new
 * Entity({ name: 'User', attributes, table })` called in its own module, a shared `createEntity(name,
 * table, attributes)` helper spreading the caller's attributes after the common key layout, and a
 * factory of another module calling that helper (`createBannerEntity(StoreTable)` in an index
 * module). Each call is read as what the factory returns with its parameters bound to the call's
 * arguments: the entities' calls on their table and index, and a key the attributes fix reported at
 * the schema, with the attribute where it is written as related location.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableName } from '../../server/src/engine';
import { libraryFixture } from './helpers';

const fx = libraryFixture('dynamodb-toolbox-factories');

test('calls on entities made by factories are read on the table and index the call gives', () => {
  const calls = fx.accesses
    .filter((a) => a.library?.library === 'dynamodb-toolbox')
    .map(
      (a) =>
        `${fx.line(a)} ${a.operation} ${a.library!.entity} ${tableName(a.table)}${a.index ? `/${a.index}` : ''} ` +
        `${a.partitionKey?.attribute ?? '-'}`,
    )
    .sort();
  assert.deepEqual(calls, [
    // The banner's put leaves `pk` to the default: the schema's site, made where the factory is called.
    'src/entities/index.ts:6 PutItem Banner storefront pk',
    'src/handlers/home.ts:5 Query Banner storefront pk',
    'src/handlers/orders.ts:11 Query Order storefront/GSI1 gsi1pk',
    'src/handlers/orders.ts:13 GetItem User storefront pk',
    'src/handlers/orders.ts:6 PutItem Order storefront pk',
    'src/handlers/orders.ts:6 PutItem Order storefront/GSI1 gsi1pk',
    'src/handlers/orders.ts:7 UpdateItem User storefront pk',
  ]);
});

test('the constant keys are found, the schema default at the factory call with its attribute related', () => {
  const found = fx.findings.map((f) => `${f.rule} ${fx.line(f)}`).sort();
  assert.deepEqual(found, [
    'SL001 src/entities/index.ts:6',
    'SL001 src/handlers/home.ts:5',
    'SL001 src/handlers/orders.ts:11',
    'SL001 src/handlers/orders.ts:6',
  ]);
  const related = (l: string) =>
    fx.findings
      .find((f) => fx.line(f) === l)!
      .related.map((r) => `${fx.rel(r.file)}:${r.span.startLine + 1} ${r.message}`);
  assert.deepEqual(related('src/entities/index.ts:6'), ['src/entities/banner.ts:7 Banner.pk is declared here']);
  assert.deepEqual(related('src/handlers/orders.ts:6'), ['src/entities/order.ts:7 Order.status is declared here']);
});
