/**
 * TypeDORM managers taken by name in other modules than the one making the connection
 * (test/fixtures/libraries/typedorm-connection-elsewhere): a `Database.open()` static method makes
 * the default connection, a module makes a connection named `audit` at load, and the handlers take
 * `getEntityManager()` / `getEntityManager('audit')`. TypeDORM keeps connections for the whole
 * process, so each manager is the one connection of its name the project makes: its table, the
 * table's attribute names and its entities resolve as where the connection is made in the module.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableName } from '../../server/src/engine';
import { libraryFixture } from './helpers';

const fx = libraryFixture('typedorm-connection-elsewhere');

test('managers taken by name read the table the connection of that name is made with', () => {
  const calls = fx.accesses
    .filter((a) => a.library?.library === 'typedorm')
    .map(
      (a) =>
        `${fx.line(a)} ${a.operation} ${a.library!.entity} ${tableName(a.table)}${a.index ? `/${a.index}` : ''} ` +
        `${a.partitionKey?.attribute ?? '-'}`,
    )
    .sort();
  assert.deepEqual(calls, [
    'src/handlers/audit.ts:12 PutItem auditEntry crm-audit pk',
    'src/handlers/leads.ts:11 PutItem lead crm-leads PK',
    'src/handlers/leads.ts:11 PutItem lead crm-leads/GSI1 GSI1PK',
    'src/handlers/leads.ts:16 Query lead crm-leads/GSI1 GSI1PK',
    'src/handlers/leads.ts:20 GetItem lead crm-leads PK',
  ]);
});

test('the hot keys are found on their tables', () => {
  assert.deepEqual(fx.findings.map((f) => `${f.rule} ${fx.line(f)} ${tableName(f.access.table)}`).sort(), [
    // Every audit entry under one scope, by time.
    'SL001 src/handlers/audit.ts:9 crm-audit',
    'SL001 src/handlers/leads.ts:16 crm-leads',
    'SL003 src/handlers/leads.ts:11 crm-leads',
    'SL005 src/handlers/audit.ts:12 crm-audit',
    'SL005 src/handlers/leads.ts:11 crm-leads',
  ]);
});
