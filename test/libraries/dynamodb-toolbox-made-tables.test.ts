/**
 * dynamodb-toolbox v0 tables and entities made by functions not named for the model
 * (test/fixtures/libraries/dynamodb-toolbox-made-tables): the table module exports what a
 * builder returns (`export default buildTable(process.env.BOOKINGS_TABLE)`), an entity is made by
 * `makeVenue(table)` in an index module, another imports the default table into `new Entity`.
 * Each call is read on the table the builder makes, named by its environment variable.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableName } from '../../server/src/engine';
import { libraryFixture } from './helpers';

const fx = libraryFixture('dynamodb-toolbox-made-tables');

const calls = (entity: string) =>
  fx.accesses
    .filter((a) => a.library?.library === 'dynamodb-toolbox' && a.library.entity === entity)
    .map((a) => `${fx.line(a)} ${a.operation} ${tableName(a.table)}${a.index ? `/${a.index}` : ''}`)
    .sort();

test('an entity on a table a module exports as what a builder returns is read on that table', () => {
  assert.deepEqual(calls('Booking'), ['src/handlers/venues.js:16 PutItem $BOOKINGS_TABLE']);
});

test('an entity a factory not named for it makes is read on its table and index', () => {
  assert.deepEqual(calls('Venue'), [
    // The index key left to its default: the schema's site, where the factory is called.
    'src/db/entities/index.js:4 PutItem $BOOKINGS_TABLE/GSI1',
    'src/handlers/venues.js:10 Query $BOOKINGS_TABLE/GSI1',
    'src/handlers/venues.js:5 GetItem $BOOKINGS_TABLE',
  ]);
});

test('every venue listed under one index partition is found at the factory call and at the query', () => {
  const found = fx.findings.map((f) => `${f.rule} ${fx.line(f)}`).sort();
  assert.deepEqual(found, ['SL001 src/db/entities/index.js:4', 'SL001 src/handlers/venues.js:10']);
  assert.ok(fx.findings.every((f) => /"VENUES"/.test(f.message)));
});
