/**
 * PynamoDB models that take their keys from elsewhere (test/fixtures/libraries/pynamodb-inherited-keys):
 * `StockLevel` and `StockReservation` inherit every attribute from `StockBase` in another module and
 * write only their `class Meta(StockBase.Meta)` (their module names no `pynamodb`); the package's
 * `__init__.py` passes `StockLevel` on (`from inventory.db import StockLevel`); `AuditEntry` takes
 * its keys from a mixin (`class AuditEntry(TenantOwned, Model)`). Each is read on its own table
 * with the inherited keys.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableName } from '../../server/src/engine';
import { mayDeclarePythonModels } from '../../server/src/engine/model/libraries';
import { libraryFixture } from './helpers';

const fx = libraryFixture('pynamodb-inherited-keys');

const calls = (entity: string) =>
  fx.accesses
    .filter((a) => a.library?.library === 'pynamodb' && a.library.entity === entity)
    .map(
      (a) =>
        `${fx.line(a)} ${a.operation} ${tableName(a.table)} ${a.partitionKey?.attribute ?? '-'} ${a.sortKey?.attribute ?? '-'}`,
    )
    .sort();

test('a model inheriting its keys from a base of another module, only its Meta its own, is read on its table', () => {
  assert.deepEqual(calls('StockReservation'), [
    'inventory/api.py:19 PutItem stock-reservations warehouse sku',
    'inventory/api.py:23 Query stock-reservations warehouse -',
  ]);
});

test('a model a package passes on from its __init__.py is read where it is imported from the package', () => {
  assert.deepEqual(calls('StockLevel'), [
    'inventory/api.py:10 GetItem stock-levels warehouse sku',
    'inventory/api.py:15 Query stock-levels warehouse -',
  ]);
});

test('a model whose keys a mixin declares is read with them', () => {
  assert.deepEqual(calls('AuditEntry'), ['inventory/api.py:33 PutItem inventory-audit tenant_id entry_id']);
});

test('the constant warehouse query and the constant tenant are found on their own tables', () => {
  const found = fx.findings.map((f) => `${f.rule} ${fx.line(f)} ${tableName(f.access.table)}`).sort();
  assert.deepEqual(found, [
    'SL001 inventory/api.py:23 stock-reservations',
    'SL001 inventory/api.py:28 inventory-audit',
  ]);
});

test("a module is looked at for a model's Meta only when it writes a table or derives the base's Meta", () => {
  const subclass =
    'from .base import StockBase\n\n\nclass StockLevel(StockBase):\n    class Meta(StockBase.Meta):\n        pass\n';
  const named =
    'from .base import StockBase\n\n\nclass StockLevel(StockBase):\n    class Meta:\n        table_name = "stock-levels"\n';
  // A Django model's Meta orders and names its rows: no DynamoDB table.
  const django =
    'from django.db import models\n\n\nclass Shelf(models.Model):\n    class Meta:\n        ordering = ["aisle"]\n';
  assert.deepEqual([subclass, named, django].map(mayDeclarePythonModels), [true, true, false]);
});
