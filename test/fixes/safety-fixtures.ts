// Fixtures for the safety of write-shard fixes: programs that write items and then
// find them again one by one (get, update) and by Query, in the shapes real projects
// use. Each driver runs the fixture's own code the way an application would and prints
// what it got back as JSON, so a test can run it before and after a fix and compare.

import * as path from 'node:path';
import { CreateTableCommand, ScanCommand, type ScanCommandOutput } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { startDynalite } from './helpers-write';
import { drive, type WriteFixture } from './write-fixtures';

export const SAFETY_DIR = path.join(__dirname, 'fixtures', 'safety');

export interface SafetyFixture {
  name: string;
  table: string;
  pk: string;
  sk: string;
  /** The fixes the hot write must offer; every other shard fix must not be offered. */
  offered: string[];
  driver: { language: 'node' | 'python'; source: string };
}

const IDS = (prefix: string) => `Array.from({ length: 20 }, (_, i) => '${prefix}-' + String(i).padStart(2, '0'))`;

export const SAFETY_FIXTURES: SafetyFixture[] = [
  {
    // lib-dynamodb repository: put, get, update and query of one constant key.
    name: 'tickets-ts',
    table: 'tickets',
    pk: 'PK',
    sk: 'SK',
    offered: ['add-hash-shard'],
    driver: {
      language: 'node',
      source: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TicketRepository } from './ticket-repository';

void (async () => {
  const repo = new TicketRepository(DynamoDBDocumentClient.from(new DynamoDBClient({})));
  const ids = ${IDS('ticket')};
  for (const id of [...ids].reverse()) await repo.create({ ticketId: id, title: 'About ' + id, status: 'open' });
  for (const id of ids.filter((_, i) => i % 3 === 0)) await repo.close(id);
  const found = [];
  for (const id of ids) found.push((await repo.find(id)) ?? null);
  console.log(JSON.stringify({ found, listed: await repo.listOpen() }));
})();
`,
    },
  },
  {
    // SDK v2 DocumentClient Lambda: bookings under one constant key, marked reminded by an update.
    name: 'bookings-v2',
    table: 'bookings',
    pk: 'pk',
    sk: 'sk',
    offered: ['add-hash-shard'],
    driver: {
      language: 'node',
      source: `const AWS = require('aws-sdk');
AWS.config.update({ endpoint: process.env.AWS_ENDPOINT_URL, region: 'us-east-1' });
const { saveBooking, getBooking, handler } = require('./reminders');

void (async () => {
  const ids = ${IDS('booking')};
  for (const id of ids) await saveBooking({ bookingId: id, guest: 'guest of ' + id });
  await handler({ Records: ids.slice(0, 12).map((bookingId) => ({ body: JSON.stringify({ bookingId }) })) });
  const found = [];
  for (const id of ids) found.push((await getBooking(id)) ?? null);
  console.log(JSON.stringify({ found }));
})();
`,
    },
  },
  {
    // boto3 Table DAO: a key with a variable part (DAY#{day}) put, got and queried.
    name: 'visits-py',
    table: 'visits',
    pk: 'PK',
    sk: 'SK',
    offered: ['add-hash-shard'],
    driver: {
      language: 'python',
      source: `import json
from visits_dao import VisitsDao

dao = VisitsDao()
ids = [f"visit-{i:02d}" for i in range(20)]
for i, v in enumerate(reversed(ids)):
    dao.record(v, f"/page/{i % 3}", day="2026-11-30")
for v in ids[:6]:
    dao.record(v, "/pricing", day="2026-12-01")
found = [dao.get("2026-11-30", v) for v in ids] + [dao.get("2026-12-01", v) for v in ids[:6]]
print(json.dumps({"found": found, "first": dao.list_day("2026-11-30"), "second": dao.list_day("2026-12-01")}))
`,
    },
  },
  {
    // Single-table keys built by an object of key builders in another module (`Keys.season(SEASON)`,
    // `Keys.player(id)`): put, update, get and query of one season's standings.
    name: 'key-helpers-ts',
    table: 'standings',
    pk: 'PK',
    sk: 'SK',
    offered: ['add-hash-shard'],
    driver: {
      language: 'node',
      source: `import { addPoints, allStandings, join, standingOf } from './standings';

void (async () => {
  const ids = ${IDS('player')};
  for (const id of [...ids].reverse()) await join(id, 'Player ' + id);
  for (const [i, id] of ids.entries()) if (i % 3 === 0) await addPoints(id, 10 + i);
  const found = [];
  for (const id of ids) found.push((await standingOf(id)) ?? null);
  console.log(JSON.stringify({ found, listed: await allStandings() }));
})();
`,
    },
  },
  {
    // boto3: the same with module-level key functions (season_pk(CURRENT_SEASON)) and a
    // `Key("pk").eq(...)` condition followed page by page.
    name: 'key-helpers-py',
    table: 'standings',
    pk: 'pk',
    sk: 'sk',
    offered: ['add-hash-shard'],
    driver: {
      language: 'python',
      source: `import json
from standings import add_points, all_standings, join, standing_of

ids = [f"player-{i:02d}" for i in range(20)]
for player_id in reversed(ids):
    join(player_id, f"Player {player_id}")
for i, player_id in enumerate(ids):
    if i % 3 == 0:
        add_points(player_id, 10 + i)
found = [standing_of(player_id) for player_id in ids]
print(json.dumps({"found": found, "listed": all_standings()}, default=int))
`,
    },
  },
  {
    // Write-once feed items read only by a Query, newest first: the random suffix is offered too.
    name: 'feed-ts',
    table: 'activity',
    pk: 'PK',
    sk: 'SK',
    offered: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'node',
      source: `import { newestFirst, publish } from './activity-feed';

void (async () => {
  for (let i = 0; i < 30; i++) {
    const at = new Date(Date.UTC(2026, 10, 1, 8, (i * 7) % 60, i)).toISOString();
    await publish({ at, actor: 'user-' + (i % 4), text: 'post ' + i });
  }
  console.log(JSON.stringify({ newest: await newestFirst() }));
})();
`,
    },
  },
  {
    // The item (and its time-bucketed key) is built by a mapper in another module.
    name: 'ballots-ts',
    table: 'ballots',
    pk: 'PK',
    sk: 'SK',
    offered: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'node',
      source: `import { castBallot } from './ballot-store';

void (async () => {
  const ids = ${IDS('ballot')};
  for (const id of ids) await castBallot({ ballotId: id, choice: id.endsWith('7') ? 'no' : 'yes' });
  console.log(JSON.stringify({ cast: ids.length }));
})();
`,
    },
  },
  {
    // boto3: the item (a day-bucketed key) is built by a method of the event's class in
    // the same file, called on a parameter of no known class (event.to_item()).
    name: 'events-py',
    table: 'events',
    pk: 'pk',
    sk: 'sk',
    offered: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'python',
      source: `import json
from events import Event, save_event

kinds = ["click", "view", "buy"]
for i in range(20):
    save_event(Event(kinds[i % 3], event_id=f"evt-{i:02d}"))
print(json.dumps({"saved": 20}))
`,
    },
  },
  {
    // boto3: the same with the class (a dataclass, constant key) in another module.
    name: 'orders-module-py',
    table: 'orders',
    pk: 'PK',
    sk: 'SK',
    offered: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'python',
      source: `import json
from models import OrderPlaced
from store import record

ids = [record(OrderPlaced(f"cust-{i % 4}", 100 * i, order_id=f"order-{i:02d}")) for i in range(20)]
print(json.dumps({"recorded": ids}))
`,
    },
  },
];

export interface Run {
  /** What the program printed, with the partition key left out of every item. */
  output: unknown;
  /** The items stored, without their partition key, in a stable order. */
  stored: string[];
  /** How many partition-key values the items are under. */
  keys: number;
}

const withoutKey = (value: unknown, pk: string): unknown => {
  if (Array.isArray(value)) return value.map((v) => withoutKey(v, pk));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== pk)
        .map(([k, v]) => [k, withoutKey(v, pk)]),
    );
  return value;
};

/** Runs the fixture's program in `dir` against a fresh dynalite and reads back the table. */
export async function run(fx: SafetyFixture, dir: string): Promise<Run> {
  const db = await startDynalite();
  try {
    await db.client.send(
      new CreateTableCommand({
        TableName: fx.table,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: fx.pk, AttributeType: 'S' },
          { AttributeName: fx.sk, AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: fx.pk, KeyType: 'HASH' },
          { AttributeName: fx.sk, KeyType: 'RANGE' },
        ],
      }),
    );
    const asWrite = { ...fx, writer: '', fixes: [] } as WriteFixture;
    const { stdout } = (await drive(asWrite, dir, db.endpoint, 0)) as { stdout: string };
    const items: Record<string, unknown>[] = [];
    let start: ScanCommandOutput['LastEvaluatedKey'];
    do {
      const page = await db.client.send(new ScanCommand({ TableName: fx.table, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []).map((i) => unmarshall(i)));
      start = page.LastEvaluatedKey;
    } while (start);
    return {
      output: withoutKey(JSON.parse(stdout), fx.pk),
      stored: items.map((i) => JSON.stringify(withoutKey(i, fx.pk))).sort(),
      keys: new Set(items.map((i) => i[fx.pk])).size,
    };
  } finally {
    await db.close();
  }
}

/** How many of the program's point reads (`found`) found their item. */
export const foundCount = (r: Run) => {
  const found = (r.output as { found?: unknown[] }).found;
  return found ? found.filter((x) => x !== null).length : null;
};
