/**
 * TypeDORM managers taken by name from a connection the same module makes
 * (test/fixtures/libraries/typedorm-module-connection): a Lambda handler that calls
 * `createConnection({ name: 'audit', table, entities })` at load and then
 * `getEntityManager('audit')`, and one whose unnamed connection is `getEntityManager()`'s
 * (`'default'`). The manager's table is that connection's, so its keys are stored under the
 * table's attribute names and the findings name the table; a name no connection of the module
 * gives (`'billing'`) stays unknown.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableName } from '../../server/src/engine';
import { libraryFixture, renderText } from './helpers';

const fx = libraryFixture('typedorm-module-connection');

test("getEntityManager(name) is the module's connection of that name, with its table", () => {
  const got = fx.accesses
    .map(
      (a) =>
        `${fx.line(a)} ${a.operation} ${tableName(a.table) ?? '?'} ${a.partitionKey?.attribute} = ${renderText(a.partitionKey!.template)}`,
    )
    .sort();
  assert.deepEqual(got, [
    'audit.handler.ts:21 PutItem saas-audit pk = AUDIT#platform',
    'audit.handler.ts:26 Query saas-audit pk = AUDIT#platform',
    'tenants.handler.ts:17 GetItem saas-app PK = TENANT#{}',
    'tenants.handler.ts:22 GetItem ? partitionKey = TENANT#{}',
  ]);
  const hot = fx.findings
    .filter((f) => f.rule === 'SL001')
    .map((f) => `${fx.line(f)} ${tableName(f.access.table)}`)
    .sort();
  assert.deepEqual(
    hot,
    ['audit.handler.ts:19', 'audit.handler.ts:26'].map((l) => `${l} saas-audit`),
  );
});
