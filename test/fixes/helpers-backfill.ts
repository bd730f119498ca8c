// What the backfill tests share: the programs migrated (each stores items with its own
// code, then gets a shard fix and its backfill script), a copy with both applied, and a
// way to run the script and read the table back as DynamoDB holds it.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import {
  type AttributeValue,
  type CreateTableCommandInput,
  ScanCommand,
  type ScanCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { allFixes } from '../../server/src/features/fixes/index';
import { hotWriter, indexed, table, withIndex } from './helpers-programs';
import { copyFixture, type Dynalite, textsAfter } from './helpers-write';
import { SAFETY_DIR } from './safety-fixtures';

export const exec = promisify(execFile);
const IDS = (prefix: string, n = 20) =>
  `Array.from({ length: ${n} }, (_, i) => '${prefix}-' + String(i).padStart(2, '0'))`;

export interface Migration {
  fixture: string;
  from: string;
  /** Files removed from the copy first (a template that would tell another story). */
  without?: string[];
  table: CreateTableCommandInput;
  /** The attribute the fix spreads. */
  key: string;
  writer: { rule: string; operation: string };
  fix: 'add-hash-shard' | 'add-random-shard';
  language: 'node' | 'python';
  /** The script the backfill action writes, relative to the copy. */
  script: string;
  /** Stores items with the program's own code. */
  write: string;
  /** Reads them back with the program's own code and prints JSON. */
  read: string;
}

const NODE_TICKETS = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TicketRepository } from './ticket-repository';
const repo = new TicketRepository(DynamoDBDocumentClient.from(new DynamoDBClient({})));
const ids = ${IDS('ticket')};
`;

const V2_BOOKINGS = `const AWS = require('aws-sdk');
AWS.config.update({ endpoint: process.env.AWS_ENDPOINT_URL, region: 'us-east-1' });
const bookings = require('./reminders');
const ids = ${IDS('booking')};
`;

export const MIGRATIONS: Migration[] = [
  {
    // lib-dynamodb repository, found item by item: hash(SK), a script for SDK v3.
    fixture: 'tickets-ts',
    from: SAFETY_DIR,
    table: table('tickets', 'PK', ['SK', 'S']),
    key: 'PK',
    writer: { rule: 'SL001', operation: 'PutItem' },
    fix: 'add-hash-shard',
    language: 'node',
    script: 'scripts/backfill-tickets-open.mjs',
    write: `${NODE_TICKETS}void (async () => {
  for (const id of ids) await repo.create({ ticketId: id, title: 'About ' + id, status: 'open' });
  for (const id of ids.filter((_, i) => i % 3 === 0)) await repo.close(id);
})();
`,
    read: `${NODE_TICKETS}void (async () => {
  const found = [];
  for (const id of ids) found.push((await repo.find(id)) ?? null);
  const listed = (await repo.listOpen()).map((t) => t.ticketId).sort();
  console.log(JSON.stringify({ found, listed }));
})();
`,
  },
  {
    // SDK v2 DocumentClient Lambda module: hash(sk), a CommonJS script for v2.
    fixture: 'bookings-v2',
    from: SAFETY_DIR,
    table: table('bookings', 'pk', ['sk', 'S']),
    key: 'pk',
    writer: { rule: 'SL001', operation: 'PutItem' },
    fix: 'add-hash-shard',
    language: 'node',
    script: 'scripts/backfill-bookings.cjs',
    write: `${V2_BOOKINGS}void (async () => {
  for (const id of ids) await bookings.saveBooking({ bookingId: id, guest: 'guest of ' + id });
  await bookings.handler({ Records: ids.slice(0, 12).map((bookingId) => ({ body: JSON.stringify({ bookingId }) })) });
})();
`,
    read: `${V2_BOOKINGS}void (async () => {
  const found = [];
  for (const id of ids) found.push((await bookings.getBooking(id)) ?? null);
  console.log(JSON.stringify({ found }));
})();
`,
  },
  {
    // boto3 DAO with a day in the key: the bare keys are found by a Scan, a Python script.
    fixture: 'visits-py',
    from: SAFETY_DIR,
    table: table('visits', 'PK', ['SK', 'S']),
    key: 'PK',
    writer: { rule: 'SL002', operation: 'PutItem' },
    fix: 'add-hash-shard',
    language: 'python',
    script: 'scripts/backfill_day.py',
    write: `from visits_dao import VisitsDao
dao = VisitsDao()
for i in range(20):
    dao.record(f"visit-{i:02d}", f"/page/{i % 3}", day="2026-11-30")
for i in range(6):
    dao.record(f"visit-{i:02d}", "/pricing", day="2026-12-01")
`,
    read: `import json
from visits_dao import VisitsDao
dao = VisitsDao()
ids = [f"visit-{i:02d}" for i in range(20)]
found = [dao.get("2026-11-30", v) for v in ids] + [dao.get("2026-12-01", v) for v in ids[:6]]
days = [sorted(i["SK"] for i in dao.list_day(d)) for d in ("2026-11-30", "2026-12-01")]
print(json.dumps({"found": found, "days": days}))
`,
  },
  {
    // Write-once feed items read only by a Query: the random suffix; the script picks each
    // item's shard from its key.
    fixture: 'feed-ts',
    from: SAFETY_DIR,
    table: table('activity', 'PK', ['SK', 'S']),
    key: 'PK',
    writer: { rule: 'SL001', operation: 'PutItem' },
    fix: 'add-random-shard',
    language: 'node',
    script: 'scripts/backfill-feed-public.mjs',
    write: `import { publish } from './activity-feed';
void (async () => {
  for (let i = 0; i < 30; i++) {
    const at = new Date(Date.UTC(2026, 10, 1, 8, (i * 7) % 60, i)).toISOString();
    await publish({ at, actor: 'user-' + (i % 4), text: 'post ' + i });
  }
})();
`,
    read: `import { newestFirst } from './activity-feed';
void (async () => console.log(JSON.stringify({ newest: await newestFirst() })))();
`,
  },
  {
    // An index key set by an update (SDK v2): the script sets it in place, item by item.
    fixture: 'league',
    from: path.join(__dirname, 'fixtures'),
    without: ['template.yaml'],
    table: withIndex(table('players', 'playerId', null), 'byLeague', ['league', 'S'], ['wins', 'N']),
    key: 'league',
    writer: { rule: 'SL001', operation: 'UpdateItem' },
    fix: 'add-random-shard',
    language: 'node',
    script: 'scripts/backfill-chess.cjs',
    write: `const AWS = require('aws-sdk');
AWS.config.update({ endpoint: process.env.AWS_ENDPOINT_URL, region: 'us-east-1' });
const league = require('./league');
void (async () => {
  for (let i = 0; i < 24; i++)
    for (let w = 0; w <= i % 3; w++)
      await league.handler({ Records: [{ dynamodb: { NewImage: { winner: { S: 'p' + i } } } }] });
})();
`,
    read: `const AWS = require('aws-sdk');
AWS.config.update({ endpoint: process.env.AWS_ENDPOINT_URL, region: 'us-east-1' });
const league = require('./league');
void (async () => {
  const items = await league.standings();
  console.log(JSON.stringify({ standings: items.map((x: { playerId: string; wins: number }) => x.playerId + ':' + x.wins).sort() }));
})();
`,
  },
  {
    // A day in a key whose own separator is "-", so ISO dates end like a shard would
    // ("clicks-2026-11-30"): a Scan must still take them as bare (SDK v3 CommonJS module).
    fixture: 'clicks-js',
    from: path.join(__dirname, 'fixtures'),
    table: table('clicks', 'pk', ['sk', 'S']),
    key: 'pk',
    writer: { rule: 'SL002', operation: 'PutItem' },
    fix: 'add-hash-shard',
    language: 'node',
    script: 'scripts/backfill-clicks.mjs',
    write: `const clicks = require('./clicks');
void (async () => {
  for (let i = 0; i < 20; i++) await clicks.recordClick('click-' + i, '/go/' + (i % 4), '2026-11-30');
  for (let i = 0; i < 6; i++) await clicks.recordClick('click-' + i, '/go/pricing', '2026-12-01');
})();
`,
    read: `const clicks = require('./clicks');
void (async () => {
  const found = [];
  for (let i = 0; i < 20; i++) found.push((await clicks.getClick('2026-11-30', 'click-' + i)) ?? null);
  const days = [];
  for (const day of ['2026-11-30', '2026-12-01']) days.push((await clicks.clicksOn(day)).map((c) => c.sk).sort());
  console.log(JSON.stringify({ found, days }));
})();
`,
  },
];

export async function scan(
  db: { client: Dynalite['client'] },
  name: string,
): Promise<Record<string, AttributeValue>[]> {
  const items: Record<string, AttributeValue>[] = [];
  let start: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page = await db.client.send(new ScanCommand({ TableName: name, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every item as DynamoDB holds it, types included, without `key`: what must survive the move. */
export const storedWithoutKey = (items: Record<string, AttributeValue>[], key: string) =>
  items
    .map((i) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries(i)
            .filter(([k]) => k !== key)
            .sort(),
        ),
      ),
    )
    .sort();

/** Runs the generated script; resolves with its exit code and output, whatever the code. */
export async function runScript(m: Migration, dir: string, db: { endpoint: string }, ...args: string[]) {
  const file = path.join(dir, m.script);
  const [cmd, first] = m.language === 'python' ? ['python3', file] : [process.execPath, file];
  try {
    const out = await exec(cmd, [first, '--endpoint', db.endpoint, '--region', 'us-east-1', ...args], {
      cwd: dir,
      env: { ...process.env, AWS_ACCESS_KEY_ID: 't', AWS_SECRET_ACCESS_KEY: 't' },
      timeout: 60_000,
    });
    return { code: 0, stdout: out.stdout, stderr: out.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** A copy of the fixture with the shard fix and its backfill script applied (texts computed before either is written). */
export async function fixedCopy(m: Migration): Promise<{ dir: string; asks: [unknown, unknown] }> {
  const dir = copyFixture(m.fixture, m.from);
  for (const f of m.without ?? []) fs.rmSync(path.join(dir, f));
  // The copy is a project of its own, as the fixture's folder would be in a repository.
  if (m.language === 'python') fs.writeFileSync(path.join(dir, 'requirements.txt'), 'boto3\n');
  else fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: m.fixture, private: true }));
  const { ctx, findings } = await indexed(dir);
  const writer = hotWriter({ writer: m.writer } as Parameters<typeof hotWriter>[0], findings);
  assert.ok(writer, `${m.writer.rule} on the ${m.writer.operation}`);
  const actions = allFixes(writer, ctx);
  const fix = actions.find((a) => a.id === m.fix);
  const backfill = actions.find((a) => a.id === `${m.fix}-backfill`);
  assert.ok(fix && backfill, `the fix and its backfill: ${actions.map((a) => a.id).join(', ')}`);
  assert.deepEqual(
    backfill.changes.map((c) => path.relative(dir, c.file)),
    [m.script],
  );
  const texts = new Map([...textsAfter(ctx, fix), ...textsAfter(ctx, backfill)]);
  for (const [file, text] of texts) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return { dir, asks: [fix.asks, backfill.asks] };
}

/** FNV-1a (32 bits) of the UTF-8 bytes, written here again to check the script's shards. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(text)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}
