/**
 * Tables and entities a factory returns together, taken apart at a module's top level and
 * imported by name (test/fixtures/libraries/destructured-factories): `export const { main,
 * audit: auditTable } = createTables()` with dynamodb-toolbox v0 entities on each table,
 * `export const { orders, customers: people } = createEntities('shop-table')` (ElectroDB), and
 * a PynamoDB `Meta.table_name` from `ORDERS_TABLE, CUSTOMERS_TABLE = os.environ[...], ...`.
 * Each name is what its part of the value is, so each call is read on its own table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableName } from '../../server/src/engine';
import { destructuredDeclarations as jsDestructured } from '../../server/src/engine/frontends/js/module-shape';
import { destructuredDeclarations as pyDestructured } from '../../server/src/engine/frontends/python/module-shape';
import { initParsers, parse } from '../../server/src/engine/syntax/parser';
import { libraryFixture } from './helpers';

const fx = libraryFixture('destructured-factories');

const calls = (folder: string) =>
  fx.accesses
    .filter((a) => a.library && fx.rel(a.file).startsWith(folder))
    .map((a) => `${fx.line(a)} ${a.library!.entity} ${a.operation} ${tableName(a.table)}/${a.index ?? '-'}`)
    .sort();

test('toolbox entities on tables a factory returns together are read on each table', () => {
  assert.deepEqual(calls('toolbox'), [
    'toolbox/handlers.js:14 Scan PutItem $AUDIT_TABLE/-',
    'toolbox/handlers.js:4 Parcel Query $MAIN_TABLE/GSI1',
    'toolbox/handlers.js:9 Parcel Query $MAIN_TABLE/GSI1',
  ]);
});

test('ElectroDB entities a factory returns together are read where they are imported, renamed too', () => {
  assert.deepEqual(calls('electrodb'), [
    'electrodb/handlers.ts:4 order Query shop-table/gsi1',
    'electrodb/handlers.ts:8 customer GetItem shop-table/-',
  ]);
});

test('PynamoDB tables named by a tuple of environment variables', () => {
  assert.deepEqual(calls('pynamodb'), [
    'pynamodb/shop/api.py:5 Order Query $ORDERS_TABLE/-',
    'pynamodb/shop/api.py:9 Customer GetItem $CUSTOMERS_TABLE/-',
  ]);
});

test('the constant keys are found on their tables; a key from the request is not', () => {
  const found = fx.findings.map((f) => `${f.rule} ${fx.line(f)} ${tableName(f.access.table)}`).sort();
  assert.deepEqual(found, [
    'SL001 electrodb/handlers.ts:4 shop-table',
    'SL001 pynamodb/shop/api.py:9 $CUSTOMERS_TABLE',
    'SL001 toolbox/handlers.js:14 $AUDIT_TABLE',
    'SL001 toolbox/handlers.js:9 $MAIN_TABLE',
  ]);
});

test('what a destructuring takes: properties by name, items by position, a require left to the imports', async () => {
  await initParsers();
  const js = parse(
    'typescript',
    'export const { a, b: c, ...rest } = f();\nconst [, d, e] = g();\nconst { h } = require("./h");\nlet [i = 1] = k();\n',
  );
  assert.deepEqual(
    jsDestructured(js).map((d) => `${d.name}=${d.value.text}.${d.key}`),
    ['a=f().a', 'c=f().b', 'd=g().1', 'e=g().2'],
  );
  js.delete();
  const py = parse('python', 'A, B = f()\n(C, D) = "x", "y"\nE = g()\n');
  assert.deepEqual(
    pyDestructured(py).map((d) => `${d.name}=${d.value.text}.${d.key}`),
    ['A=f().0', 'B=f().1', 'C="x", "y".0', 'D="x", "y".1'],
  );
  py.delete();
});
