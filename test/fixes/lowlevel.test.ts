// Shard fixes on SDK v3's low-level client (`@aws-sdk/client-dynamodb` commands with
// AttributeValue maps), run for real. Each program runs against dynalite before and
// after each offered fix of its hot key; it must store the same items (apart from the
// key), find every item by its key, and read back the same items in the same order:
// - an order API on one Lambda, a module-level client, `process.env.TABLE_NAME` and
//   hand-written `{ S: ... }` / `{ N: ... }` maps: put, get (with the legacy AttributesToGet), update, query of ORDERS;
// - a click repository class writing and querying with `marshall` / `unmarshall`,
//   sorted by a Number (the time of the click), newest first;
// - a CommonJS ticket module: `marshall` puts, a raw-map update, a Query of
//   status-index that filters and projects (its values marshalled);
// - gym check-ins: a TransactWriteItems whose typed Put sets a day-keyed GSI partition (sent
//   through the document client), read by a function that pages its own loop with
//   ExclusiveStartKey and is called with a date its caller computes, and read again newest
//   first by another function (two readers, each in its own order) and its last few by a
//   Limit written as a constant (the reader takes the constant); the same in Python (boto3's
//   client transaction, a resource query repeated while LastEvaluatedKey comes back). Run
//   against the lab: dynalite has no TransactWriteItems.

import * as path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allFixes } from '../../server/src/features/fixes/index';
import { checkProgram, indexed, table, ticketsTable, withIndex, type Program } from './helpers-programs';
import { cleanup, copyFixture, textsAfter } from './helpers-write';

const FIXTURES = path.join(__dirname, 'fixtures', 'lowlevel');
const PROGRAMS: Program[] = [
  {
    fixture: 'orders-lambda',
    table: table('orders', 'PK', ['SK', 'S']),
    key: 'PK',
    writer: { rule: 'SL001', operation: 'PutItem' },
    // Orders are read and updated one by one: only the calculated shard finds them again.
    offered: ['add-hash-shard'],
    drive: `import { handler } from './orders';
(async () => {
  const ids = Array.from({ length: 20 }, (_, i) => 'o-' + String(i).padStart(2, '0'));
  for (const [i, orderId] of [...ids].reverse().entries())
    await handler({ routeKey: 'POST /orders', body: JSON.stringify({ orderId, customer: 'c' + (i % 3), total: 10 + i * 2.5, paymentId: String(7340000000000000000n + BigInt(i)) }) });
  const get = (orderId: string) => handler({ routeKey: 'GET /orders/{orderId}', pathParameters: { orderId } });
  const found = [];
  for (const id of [...ids, 'o-missing']) found.push(await get(id));
  const shipped = [];
  for (const id of ids.filter((_, i) => i % 3 === 0))
    shipped.push(await handler({ routeKey: 'POST /orders/{orderId}/ship', pathParameters: { orderId: id } }));
  const listed = await handler({ routeKey: 'GET /orders' });
  console.log(JSON.stringify({ found, shipped, listed }));
})();
`,
  },
  {
    fixture: 'clicks-repo',
    table: table('clicks', 'pk', ['at', 'N']),
    key: 'pk',
    writer: { rule: 'SL002', operation: 'PutItem' },
    offered: ['add-random-shard'],
    drive: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ClickRepository } from './click-repository';
(async () => {
  const repo = new ClickRepository(new DynamoDBClient({}), 'clicks');
  // Clicks recorded in another order than their times; times from 9 to 12 digits.
  for (let i = 0; i < 40; i++)
    await repo.record(i % 4 === 0 ? '2026-12-01' : '2026-11-30', { at: 1_000_000_000 + ((i * 7919) % 40) * 25_000_000_000 / 40, page: '/p/' + (i % 5), visitor: 'v' + i });
  console.log(JSON.stringify({
    all: await repo.since('2026-11-30', 0),
    later: await repo.since('2026-11-30', 10_000_000_000),
    other: await repo.since('2026-12-01', 0),
  }));
})();
`,
  },
  {
    fixture: 'tickets-ll',
    table: ticketsTable('ticketId'),
    key: 'status',
    // The template declares status-index: a constant key written to it is SL012.
    writer: { rule: 'SL012', operation: 'PutItem' },
    offered: ['add-random-shard', 'add-hash-shard'],
    drive: `const t = require('./tickets');
(async () => {
  for (let i = 0; i < 40; i++) {
    const minute = String((i * 17) % 40).padStart(2, '0');
    await t.openTicket({ ticketId: 'T-' + (1000 + i), title: 'Ticket ' + i, priority: i % 3 === 0 ? 'high' : 'low', openedAt: '2026-01-01T00:' + minute + ':00Z', reporter: 'user' + (i % 7) });
  }
  for (let i = 0; i < 40; i += 4) await t.closeTicket('T-' + (1000 + i));
  const { status, ...one } = (await t.getTicket('T-1005')) ?? {};
  console.log(JSON.stringify({ high: await t.listOpen('high'), low: await t.listOpen('low'), one, open: /^OPEN/.test(status) }));
})();
`,
  },
  {
    fixture: 'checkins-tx',
    table: withIndex(table('gym', 'pk', ['sk', 'S']), 'gsi1', ['gsi1pk', 'S'], ['gsi1sk', 'S']),
    key: 'gsi1pk',
    writer: { rule: 'SL002', operation: 'TransactWriteItems' },
    // Visits are only listed by day, and each visit's gsi1sk names it (a hash of it is a shard).
    offered: ['add-random-shard', 'add-hash-shard'],
    server: 'lab',
    drive: `import { auditTrail, busiestGyms, checkIn, latestVisits } from './checkins';
(async () => {
  const gyms = ['north', 'south', 'east'];
  for (let i = 0; i < 30; i++) {
    const at = '2026-12-01T' + String(6 + ((i * 7) % 14)).padStart(2, '0') + ':' + String((i * 13) % 60).padStart(2, '0') + ':' + String(i).padStart(2, '0') + 'Z';
    await checkIn({ memberId: 'm' + (i % 12), gym: gyms[(i * 5) % 3], at });
  }
  console.log(JSON.stringify({
    today: await busiestGyms(new Date('2026-12-01T21:00:00Z')),
    tomorrow: await busiestGyms(new Date('2026-12-02T07:00:00Z')),
    audit: await auditTrail('2026-12-01'),
    latest: await latestVisits('2026-12-01'),
  }));
})();
`,
  },
  {
    fixture: 'signups-tx-py',
    table: withIndex(table('signups', 'pk', ['sk', 'S']), 'gsi1', ['gsi1pk', 'S'], ['gsi1sk', 'S']),
    key: 'gsi1pk',
    writer: { rule: 'SL002', operation: 'TransactWriteItems' },
    offered: ['add-random-shard', 'add-hash-shard'],
    language: 'python',
    server: 'lab',
    drive: `import json
from datetime import datetime, timezone
import signups
for i in range(30):
    at = f"2026-12-01T{6 + (i * 7) % 14:02d}:{(i * 13) % 60:02d}:{i:02d}Z"
    signups.sign_up(f"e{i % 3}", f"a{i:02d}", at)
print(json.dumps({
    "today": signups.daily_summary(datetime(2026, 12, 1, 21, tzinfo=timezone.utc)),
    "tomorrow": signups.daily_summary(datetime(2026, 12, 2, 7, tzinfo=timezone.utc)),
}))
`,
  },
];

for (const p of PROGRAMS)
  test(`${p.fixture}: every offered shard fix keeps what the program stores and reads (${p.server ?? 'dynalite'})`, async () => {
    await checkProgram(p, FIXTURES);
  });

test('checkins-tx: a Limit written as a constant is passed to the reader, not copied into it as a number', async () => {
  const dir = copyFixture('checkins-tx', FIXTURES);
  try {
    const { ctx, findings } = await indexed(dir);
    const writer = findings.find((f) => f.rule === 'SL002' && f.access.operation === 'TransactWriteItems');
    assert.ok(writer, 'SL002 on the transaction');
    const fix = allFixes(writer, ctx).find((a) => a.id === 'add-random-shard');
    assert.ok(fix);
    const text = textsAfter(ctx, fix).get(path.join(dir, 'checkins.ts')) ?? '';
    assert.match(text, /await queryDayOnGsi1LastN\(date, LATEST\)/);
    assert.doesNotMatch(text, /Limit: 3\b/);
    assert.match(text, /Limit: limit\b/);
  } finally {
    cleanup(dir);
  }
});
