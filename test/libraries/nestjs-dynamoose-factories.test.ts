/**
 * nestjs-dynamoose feature modules registering their models by factory
 * (test/fixtures/libraries/nestjs-dynamoose-factories), beside a root module whose
 * `DynamooseModule.forRoot({ table: { prefix, suffix } })` frames every table: a factory imported
 * by name from the schema's file (`useFactory: ticketSchemaFactory`), a local named function
 * returning the schema with its options (`{ schema, options: { tableName } }`), and an arrow
 * returning that pair (the shape nestjs-dynamoose's factories are typed to return). Each
 * service's `@InjectModel` model is read on the table its registration names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableName } from '../../server/src/engine';
import { libraryFixture } from './helpers';

const fx = libraryFixture('nestjs-dynamoose-factories');

test('models registered by named and pair-returning factories are read on their framed tables', () => {
  const calls = fx.accesses
    .filter((a) => a.library?.library === 'dynamoose')
    .map(
      (a) => `${fx.line(a)} ${a.operation} ${a.library!.entity} ${tableName(a.table)}${a.index ? ` @${a.index}` : ''}`,
    )
    .sort();
  assert.deepEqual(calls, [
    'src/devices/devices.service.ts:18 UpdateItem Device ticketing-gate-devices-{$STAGE}',
    'src/devices/devices.service.ts:23 UpdateItem Device ticketing-gate-devices-{$STAGE}',
    'src/tickets/tickets.service.ts:20 PutItem Ticket ticketing-tickets-{$STAGE}',
    'src/tickets/tickets.service.ts:20 PutItem Ticket ticketing-tickets-{$STAGE} @ticketsByState',
    'src/tickets/tickets.service.ts:25 Query Ticket ticketing-tickets-{$STAGE} @ticketsByState',
    'src/tickets/tickets.service.ts:29 GetItem Ticket ticketing-tickets-{$STAGE}',
    'src/venues/venues.service.ts:18 Query Venue ticketing-venues-{$STAGE}',
    'src/venues/venues.service.ts:23 Query Venue ticketing-venues-{$STAGE}',
  ]);
});

test('the constant keys of the three models are found', () => {
  assert.deepEqual(
    fx.findings.map((f) => `${f.rule} ${fx.line(f)}`).sort(),
    [
      // The kiosk's counter item.
      'SL004 src/devices/devices.service.ts:23',
      // The index's range key, `issuedAt: Date.now()`: every ticket issued at the end of ISSUED.
      'SL005 src/tickets/tickets.service.ts:20',
      // Every issued ticket in one partition of the state index, polled by the gates.
      'SL001 src/tickets/tickets.service.ts:20',
      'SL001 src/tickets/tickets.service.ts:25',
      // The home city's venues.
      'SL001 src/venues/venues.service.ts:23',
    ].sort(),
  );
});
