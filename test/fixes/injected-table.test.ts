// A repository class given its table's name by its constructor (`constructor(private
// readonly tableName: string, ...)`, built as `new OrdersRepo(process.env.ORDERS_TABLE!,
// ddb)` in the handler module, the template setting ORDERS_TABLE to the `orders` table):
// the calls through it are on `orders`, so the shard fix of the key the handlers leave to
// the repository's default knows its table. A read of `customerId` on the loyalty table,
// which blocked the fix while the repository's table was unknown, no longer does. The
// handlers, run before and after the fix against dynalite, store and return the same
// orders apart from the key.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { allFixes } from '../../server/src/features/fixes/index';
import { applyAction, cleanup, copyFixture, ROOT, startDynalite, typeErrors } from './helpers-write';

const INJECTED = path.join(__dirname, 'fixtures', 'injected');
const run = promisify(execFile);

/** Indexes a folder and its subfolders as `shardlens check` does: infrastructure first, then the code. */
async function indexTree(dir: string) {
  await initParsers();
  const files = (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile());
  const index = new WorkspaceIndex({ root: dir });
  index.readInfrastructure(files.filter((f) => /\.ya?ml$/.test(f)));
  index.analyzeAll(files.filter((f) => /\.ts$/.test(f)));
  return { index, ctx: fixContextOf(index, {}), findings: index.results().flatMap((r) => r.findings) };
}

/** The handlers driven as API Gateway would: 30 orders placed, each read back, then the list. */
const DRIVER = `import { handler, getOrder, listOrders } from './src/handlers/place-order';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

(async () => {
  const placed: string[] = [];
  for (let i = 0; i < 30; i++) {
    const out = await handler({ body: JSON.stringify({ requestId: 'order-' + String(i).padStart(2, '0'), total: i * 5 }) });
    placed.push(JSON.parse(out.body).orderId);
  }
  const got = [];
  for (const orderId of placed) got.push(JSON.parse((await getOrder({ pathParameters: { orderId } })).body || 'null'));
  const listed = JSON.parse((await listOrders()).body);
  const scan = await new DynamoDBClient({}).send(new ScanCommand({ TableName: process.env.ORDERS_TABLE }));
  const stored = (scan.Items ?? []).map((x) => unmarshall(x));
  console.log(JSON.stringify({ placed, got, listed, stored }));
})();
`;

interface Run {
  placed: string[];
  got: Array<Record<string, unknown> | null>;
  listed: Array<Record<string, unknown>>;
  stored: Array<Record<string, unknown>>;
}

async function drive(dir: string, endpoint: string, table: string): Promise<Run> {
  const file = path.join(dir, 'drive.ts');
  fs.writeFileSync(file, DRIVER);
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file], {
      cwd: ROOT,
      timeout: 60_000,
      env: {
        ...process.env,
        AWS_ENDPOINT_URL: endpoint,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
        ORDERS_TABLE: table,
      },
    });
    return JSON.parse(stdout.trim().split('\n').pop()!) as Run;
  } finally {
    fs.rmSync(file);
  }
}

const apartFromKey = (item: Record<string, unknown> | null) => {
  if (!item) return item;
  const { customerId: _, ...rest } = item;
  return rest;
};
const byId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  String(a.orderId).localeCompare(String(b.orderId));

/**
 * The repository's list written as real code pages a Query: a loop passing
 * `ExclusiveStartKey` until `LastEvaluatedKey` is empty. The reader that replaces
 * the call reads every page of every shard, so the loop must still compile and end.
 */
const SINGLE_QUERY = `    const out = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'customerId = :c',
        ExpressionAttributeValues: { ':c': customerId },
      }),
    );
    return out.Items ?? [];`;
const PAGING_LOOP = `    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'customerId = :c',
          ExpressionAttributeValues: { ':c': customerId },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;`;

function pagingCopy(): string {
  const dir = copyFixture('ts-orders', INJECTED);
  const file = path.join(dir, 'src', 'repos', 'orders-repo.ts');
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(text.includes(SINGLE_QUERY), 'the fixture still lists with one Query');
  fs.writeFileSync(file, text.replace(SINGLE_QUERY, PAGING_LOOP));
  return dir;
}

test('a table injected through the constructor: the fix knows it, is not blocked by another table, and keeps what the handlers store and return', async () => {
  await fixAndCompare(() => copyFixture('ts-orders', INJECTED));
});

test('the same repository listing page by page (ExclusiveStartKey / LastEvaluatedKey): the fixed loop compiles, ends, and lists every order', async () => {
  await fixAndCompare(pagingCopy);
});

async function fixAndCompare(copy: () => string): Promise<void> {
  const dir = copy();
  const original = copy();
  const db = await startDynalite();
  try {
    const ws = await indexTree(dir);
    const put = ws.findings.find((f) => f.rule === 'SL001' && f.access.operation === 'PutItem');
    assert.ok(put, ws.findings.map((f) => f.message).join('\n'));
    assert.match(put.message, /on table "orders"/);
    const actions = allFixes(put, ws.ctx);
    assert.deepEqual(
      actions.map((a) => a.title),
      [
        'Add a calculated shard suffix: hash(orderId) mod 10 (and 2 other accesses of the key)',
        'Generate a backfill script: move items under "GUEST" to hash(orderId) mod 10',
      ],
      'the GetItem of customerId on the loyalty table does not block it',
    );
    const errorsBefore = typeErrors(path.join(dir, 'src', 'handlers'));
    const edited = applyAction(ws.ctx, actions[0]);
    assert.deepEqual(
      edited.map((f) => path.relative(dir, f)),
      ['src/repos/orders-repo.ts'],
    );
    const repo = fs.readFileSync(path.join(dir, 'src', 'repos', 'orders-repo.ts'), 'utf8');
    assert.match(repo, /Reads every item of orders · customerId = \{entity-id\}/, 'the reader names its table');
    assert.doesNotMatch(repo, /\? · customerId/);
    assert.deepEqual(
      typeErrors(path.join(dir, 'src', 'handlers')).filter((e) => !errorsBefore.includes(e)),
      [],
    );
    const fixed = await indexTree(dir);
    assert.deepEqual(
      fixed.findings.filter((f) => f.access.partitionKey?.attribute === 'customerId').map((f) => f.rule),
      [],
    );

    for (const table of ['orders-before', 'orders-after'])
      await db.client.send(
        new CreateTableCommand({
          TableName: table,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [
            { AttributeName: 'customerId', AttributeType: 'S' },
            { AttributeName: 'orderId', AttributeType: 'S' },
          ],
          KeySchema: [
            { AttributeName: 'customerId', KeyType: 'HASH' },
            { AttributeName: 'orderId', KeyType: 'RANGE' },
          ],
        }),
      );
    const before = await drive(original, db.endpoint, 'orders-before');
    const after = await drive(dir, db.endpoint, 'orders-after');
    assert.equal(before.placed.length, 30);
    assert.deepEqual(after.placed, before.placed, 'the same order ids returned');
    assert.equal(before.got.filter(Boolean).length, 30);
    assert.deepEqual(after.got.map(apartFromKey), before.got.map(apartFromKey), 'every get finds its order');
    assert.equal(before.listed.length, 30);
    assert.deepEqual(after.listed.map(apartFromKey), before.listed.map(apartFromKey), 'the list, in order id order');
    assert.deepEqual(
      after.stored.sort(byId).map(apartFromKey),
      before.stored.sort(byId).map(apartFromKey),
      'the same items stored apart from the key',
    );
    assert.deepEqual([...new Set(before.stored.map((x) => x.customerId))], ['GUEST']);
    const keys = new Set(after.stored.map((x) => String(x.customerId)));
    assert.ok(keys.size >= 5, `30 orders over ${keys.size} keys`);
    assert.ok(
      [...keys].every((k) => /^GUEST#\d$/.test(k)),
      [...keys].join(', '),
    );
  } finally {
    await db.close();
    cleanup(dir);
    cleanup(original);
  }
}
