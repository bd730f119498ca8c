/**
 * A repository whose constructor defaults its table: a TypeScript parameter property
 * (`private readonly tableName = process.env.ORDERS_TABLE ?? 'Orders'`, and SDK v2's
 * `private readonly notesTable = process.env.NOTES_TABLE`) read by `TableName: this.tableName`,
 * and a Python `__init__(self, table_name=None)` keeping `table_name or os.environ[...]`. The
 * handlers build the repository with no arguments, so the table is the default, and the
 * variable is the table the template sets for the function: the fallback literal
 * (`'Orders'`) is what runs only where nothing sets it.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf, fixture } from '../entry/helpers';

const tableOf = (f: { access: { table: unknown } }) => f.access.table as { kind: string; name?: string };

test('TypeScript: a parameter property defaulting the table names the template table', async () => {
  const found = await findingsOf(fixture('../infra/constructor-tables'));
  const recent = at(found, 'ts/src/repositories/orders-repository.ts:23');
  assert.deepEqual([tableOf(recent).kind, tableOf(recent).name], ['literal', 'orders-live']);
  assert.match(recent.message, /on table "orders-live"/);
  const pinned = at(found, 'ts/src/repositories/notes-access.ts:22');
  assert.match(pinned.message, /on table "notes-live"/);
  assert.equal(pinned.access.partitionKey?.attribute, 'userId', "the template's key schema");
});

test('Python: `table_name or os.environ[...]` kept by the constructor names the template table', async () => {
  const found = await findingsOf(fixture('../infra/constructor-tables'));
  const active = at(found, 'py/src/sessions/store.py:16');
  assert.equal(active.severity, 'error');
  assert.match(active.message, /on table "sessions-live"/);
  assert.match(active.message, /Reached from GET \/sessions\/active \(py\/template\.yaml:32\)\.$/);
});

test('the fallback of `process.env.X ?? "Orders"` stays the table where no function sets the variable', async () => {
  const files = fixture('../infra/constructor-tables');
  delete files['ts/template.yaml'];
  const found = await findingsOf(files);
  assert.match(at(found, 'ts/src/repositories/orders-repository.ts:23').message, /on table "Orders"/);
});

test('TypeScript: a class field initialised from the environment, or set once by the constructor, names the template table', async () => {
  const found = await findingsOf(fixture('../infra/constructor-tables'));
  const feed = at(found, 'ts/src/repositories/feed-store.ts:14');
  assert.deepEqual([tableOf(feed).kind, tableOf(feed).name], ['literal', 'orders-live']);
  assert.equal(feed.severity, 'error');
  const pin = at(found, 'ts/src/repositories/pin-board.ts:15');
  assert.deepEqual([tableOf(pin).kind, tableOf(pin).name], ['literal', 'notes-live']);
  assert.equal(pin.access.partitionKey?.attribute, 'userId', "the template's key schema");
});

test('a typed handler the template names is one entry point per event, not one more for its signature', async () => {
  const found = await findingsOf(fixture('../infra/constructor-tables'));
  const names = (f: { access: { reach?: { entryPoints: Array<{ name: string }> } } }) =>
    (f.access.reach?.entryPoints ?? []).map((e) => e.name).sort();
  assert.deepEqual(names(at(found, 'ts/src/repositories/feed-store.ts:14')), ['GET /storefront', 'POST /storefront']);
  assert.deepEqual(names(at(found, 'ts/src/repositories/orders-repository.ts:23')), ['GET /orders/recent']);
  assert.match(at(found, 'ts/src/repositories/feed-store.ts:14').message, /from 2 entry points/);
});
