// Shard fixes on SDK v3's low-level client (`@aws-sdk/client-dynamodb` commands with
// AttributeValue maps), run for real. Each program runs against dynalite before and
// after each offered fix of its hot key; it must store the same items (apart from the
// key), find every item by its key, and read back the same items in the same order:
// - an order API on one Lambda, a module-level client, `process.env.TABLE_NAME` and
//   hand-written `{ S: ... }` / `{ N: ... }` maps: put, get, update, query of ORDERS;
// - a click repository class writing and querying with `marshall` / `unmarshall`,
//   sorted by a Number (the time of the click), newest first;
// - a CommonJS ticket module: `marshall` puts, a raw-map update, a Query of
//   status-index that filters and projects (its values marshalled).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  ScanCommand,
  type ScanCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { initParsers } from '../../server/src/engine/syntax/parser';
import type { Finding } from '../../server/src/engine/model';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { allFixes } from '../../server/src/features/fixes/index';
import { applyAction, cleanup, copyFixture, findingIds, ROOT, startDynalite, typeErrors } from './helpers-write';

const FIXTURES = path.join(__dirname, 'fixtures', 'lowlevel');
const run = promisify(execFile);
const SHARD_FIXES = ['add-random-shard', 'add-hash-shard'];

const table = (name: string, pk: string, sk: [string, 'S' | 'N'] | null): CreateTableCommandInput => ({
  TableName: name,
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [
    { AttributeName: pk, AttributeType: 'S' },
    ...(sk ? [{ AttributeName: sk[0], AttributeType: sk[1] }] : []),
  ],
  KeySchema: [
    { AttributeName: pk, KeyType: 'HASH' },
    ...(sk ? [{ AttributeName: sk[0], KeyType: 'RANGE' as const }] : []),
  ],
});

const TICKETS: CreateTableCommandInput = {
  ...table('tickets', 'ticketId', null),
  AttributeDefinitions: [
    { AttributeName: 'ticketId', AttributeType: 'S' },
    { AttributeName: 'status', AttributeType: 'S' },
    { AttributeName: 'openedAt', AttributeType: 'S' },
  ],
  GlobalSecondaryIndexes: [
    {
      IndexName: 'status-index',
      KeySchema: [
        { AttributeName: 'status', KeyType: 'HASH' },
        { AttributeName: 'openedAt', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    },
  ],
};

interface Program {
  fixture: string;
  table: CreateTableCommandInput;
  /** The attribute whose stored values the fix spreads. */
  key: string;
  /** The hot write the fixes are asked on: its rule and operation. */
  writer: { rule: string; operation: string };
  /** The shard fixes offered on it; every other is not. */
  offered: string[];
  /** Drives the program (TypeScript, run by tsx in the fixture's folder) and prints what it read back. */
  drive: string;
}

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
    table: TICKETS,
    key: 'status',
    writer: { rule: 'SL001', operation: 'PutItem' },
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
];

async function indexed(root: string) {
  await initParsers();
  const index = new WorkspaceIndex({ root });
  const files = fs.readdirSync(root).map((f) => path.join(root, f));
  index.readInfrastructure(files.filter((f) => f.endsWith('.yaml')));
  index.analyzeAll(files.filter((f) => /\.(ts|js)$/.test(f)));
  return { ctx: fixContextOf(index), findings: index.results().flatMap((r) => r.findings) };
}

const hotWriter = (p: Program, findings: Finding[]) =>
  findings.find((f) => f.rule === p.writer.rule && f.access.operation === p.writer.operation);

const withoutKey = (value: unknown, key: string): unknown => {
  if (Array.isArray(value)) return value.map((v) => withoutKey(v, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== key)
        .map(([k, v]) => [k, withoutKey(v, key)]),
    );
  return value;
};

interface Run {
  read: unknown;
  /** The stored items without the key, as DynamoDB holds them (types included), sorted. */
  stored: string[];
  keys: string[];
}

async function runProgram(p: Program, dir: string): Promise<Run> {
  const db = await startDynalite();
  try {
    await db.client.send(new CreateTableCommand(p.table));
    const env = {
      ...process.env,
      AWS_ENDPOINT_URL: db.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 't',
      AWS_SECRET_ACCESS_KEY: 't',
      TABLE_NAME: String(p.table.TableName),
      TICKETS_TABLE: 'tickets',
    };
    const drive = path.join(dir, 'drive.ts');
    fs.writeFileSync(drive, p.drive);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', drive], { cwd: ROOT, env, timeout: 60_000 });
    fs.rmSync(drive);
    const items: ScanCommandOutput['Items'] = [];
    let start: ScanCommandOutput['LastEvaluatedKey'];
    do {
      const page = await db.client.send(new ScanCommand({ TableName: p.table.TableName, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return {
      read: withoutKey(JSON.parse(stdout), p.key),
      stored: items.map((i) => JSON.stringify(withoutKey(i, p.key))).sort(),
      keys: items.map((i) => String(unmarshall(i)[p.key])),
    };
  } finally {
    await db.close();
  }
}

for (const p of PROGRAMS) {
  test(`${p.fixture}: every offered shard fix keeps what the program stores and reads (dynalite)`, async () => {
    const dir = copyFixture(p.fixture, FIXTURES);
    let before: Run;
    try {
      assert.deepEqual(typeErrors(dir), [], 'the fixture type-checks');
      const { ctx, findings } = await indexed(dir);
      const writer = hotWriter(p, findings);
      assert.ok(writer, `${p.writer.rule} on the ${p.writer.operation}: ${findingIds(findings).join(', ')}`);
      const offered = allFixes(writer, ctx)
        .map((a) => a.id)
        .filter((id) => SHARD_FIXES.includes(id));
      assert.deepEqual(offered.sort(), [...p.offered].sort());
      before = await runProgram(p, dir);
      assert.equal(new Set(before.keys).size <= 2, true, 'one key per day before');
    } finally {
      cleanup(dir);
    }
    for (const id of p.offered) {
      const copy = copyFixture(p.fixture, FIXTURES);
      try {
        const { ctx, findings } = await indexed(copy);
        const fix = allFixes(hotWriter(p, findings)!, ctx).find((a) => a.id === id)!;
        applyAction(ctx, fix);
        assert.deepEqual(typeErrors(copy), [], `${id}: the fixed program type-checks`);
        const fixed = await indexed(copy);
        const was = new Set(findingIds(findings));
        assert.deepEqual(
          findingIds(fixed.findings).filter((f) => !was.has(f)),
          [],
          `${id}: no new finding`,
        );
        assert.equal(hotWriter(p, fixed.findings), undefined, `${id}: the hot write is fixed`);
        const after = await runProgram(p, copy);
        assert.deepEqual(after.stored, before.stored, `${id}: the same items, types included, apart from the key`);
        assert.deepEqual(after.read, before.read, `${id}: every read returns the same items in the same order`);
        assert.ok(
          new Set(after.keys).size > new Set(before.keys).size + 2,
          `${id}: the key is spread: ${[...new Set(after.keys)].join(', ')}`,
        );
        console.log(
          `# ${p.fixture} ${id}: ${after.stored.length} items on ${new Set(after.keys).size} keys (were ${new Set(before.keys).size})`,
        );
      } finally {
        cleanup(copy);
      }
    }
  });
}
