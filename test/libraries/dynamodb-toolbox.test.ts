/**
 * dynamodb-toolbox as a front-end of the key model, proven on fixtures written in the
 * library's documented style (test/fixtures/libraries/dynamodb-toolbox): v1/v2 fixtures
 * type-check against the pinned typings and run with the real library against
 * dynalite, where every stored key matches the template the engine read and
 * `shardlens keys --match` names the entity's logical key. v0 cannot be installed beside
 * v2 (one package name): its fixtures are static, from its documented API.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CreateTableCommand, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  collectFiles,
  initParsers,
  WorkspaceIndex,
  type Access,
  type Finding,
  type KeyTemplate,
} from '../../server/src/engine';
import { startDynalite, typeErrors } from '../fixes/helpers-write';

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'libraries', 'dynamodb-toolbox');
const CLI = path.join(ROOT, 'bin', 'shardlens.js');

let accesses: Access[];
let findings: Finding[];

before(async () => {
  await initParsers();
  const index = new WorkspaceIndex({ root: FIXTURE });
  index.analyzeAll(collectFiles([FIXTURE]).files);
  accesses = index.results().flatMap((r) => r.accesses);
  findings = index.results().flatMap((r) => r.findings);
});

const rel = (f: string) => path.relative(FIXTURE, f);
const line = (f: Finding | Access) => `${rel(f.file)}:${f.span.startLine + 1}`;
const renderText = (t: KeyTemplate) => t.parts.map((p) => ('literal' in p ? p.literal : '{}')).join('');

/** A stored key matches a template: its literal text in place, each hole some text. */
function matchesTemplate(stored: string, t: KeyTemplate): boolean {
  const re = t.parts.map((p) => ('literal' in p ? p.literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : '.+')).join('');
  return new RegExp(`^${re}$`).test(stored);
}

test('the v1/v2 fixtures type-check against the dynamodb-toolbox typings', () => {
  assert.deepEqual(typeErrors(path.join(FIXTURE, 'v1')), []);
});

test('every toolbox call of the fixtures is read with its entity, index and stored key', () => {
  const calls = accesses
    .filter((a) => a.library)
    .map(
      (a) =>
        `${line(a)} ${a.operation} ${a.library!.entity}.${a.library!.accessPattern}${a.index ? ` @${a.index}` : ''} ${a.partitionKey?.attribute} = ${a.partitionKey ? renderText(a.partitionKey.template) : '-'}`,
    );
  for (const want of [
    'v1/handlers.ts:15 PutItem Order.primary PK = ORDER#{}',
    'v1/handlers.ts:15 PutItem Order.byStatus @byStatus status = PENDING',
    'v1/handlers.ts:21 Query Order.byStatus @byStatus status = PENDING',
    'v1/handlers.ts:29 GetItem Order.primary PK = ORDER#{}',
    'v1/handlers.ts:39 UpdateItem PageViews.primary PK = PAGE#home',
    'v1/entities.ts:36 PutItem FeedPost.primary PK = FEED#storefront',
    'v1/handlers.ts:51 PutItem Session.primary PK = {}',
    'v1/handlers.ts:60 PutItem Customer.primary PK = CUSTOMER#{}',
    'v1/handlers.ts:66 PutItem StreamEvent.primary PK = STREAM#{}#{}',
    'v1/entities.ts:84 PutItem Product.byType @byType _et = Product',
    'v0/handlers.js:5 PutItem Ticket.primary pk = TICKET#{}',
    'v0/handlers.js:5 PutItem Ticket.GSI1 @GSI1 gsi1pk = STATUS#open',
    'v0/handlers.js:6 UpdateItem Counter.primary pk = COUNTER#tickets',
    'v0/handlers.js:10 Query Ticket.GSI1 @GSI1 gsi1pk = STATUS#open',
    'v0/models.js:44 PutItem Announcement.primary pk = ANNOUNCEMENTS',
    'v0/handlers.js:19 GetItem User.primary pk = USER#{}',
    'v0/handlers.js:24 PutItem Upload.primary pk = {}',
    'v0/handlers.js:28 PutItem Sample.primary pk = {}#{}',
  ])
    assert.ok(calls.includes(want), `${want} not in\n${calls.join('\n')}`);
});

test('the hot keys are found: a status index, a counter, a constant default, the entity type index', () => {
  const got = findings.map((f) => `${f.rule} ${line(f)} ${f.severity}`);
  for (const want of [
    'SL001 v1/handlers.ts:16 error', // status: 'PENDING' written to the byStatus index
    'SL001 v1/handlers.ts:23 error', // and read from it
    'SL004 v1/handlers.ts:40 warning', // $add(1) on the one 'home' counter
    'SL001 v1/entities.ts:36 error', // feed's default 'FEED#storefront'
    'SL001 v1/entities.ts:84 error', // byType keyed by _et: every product in one partition
    'SL001 v0/handlers.js:5 error',
    'SL004 v0/handlers.js:6 warning',
    'SL001 v0/handlers.js:10 error',
    'SL001 v0/models.js:44 error',
  ])
    assert.ok(got.includes(want), `${want} not in\n${got.join('\n')}`);
  const feed = findings.find((f) => line(f) === 'v1/entities.ts:36')!;
  assert.match(feed.message, /FEED#storefront/);
  const status = findings.find((f) => line(f) === 'v1/handlers.ts:16' && f.rule === 'SL001')!;
  assert.equal(status.span.startColumn + 1, 30, 'on the constant the call gives');
  assert.deepEqual(status.fixes, []);
});

test('a UUID default, an id from the request and a sharded key are not reported', () => {
  const quiet = accesses.filter((a) =>
    ['Session', 'Customer', 'StreamEvent', 'User', 'Upload', 'Sample'].includes(a.library?.entity ?? ''),
  );
  assert.ok(quiet.length >= 7, `${quiet.length}`);
  assert.deepEqual(
    findings.filter((f) => quiet.includes(f.access)).map((f) => `${f.rule} ${line(f)}`),
    [],
  );
  const stream = quiet.find((a) => a.library!.entity === 'StreamEvent')!;
  const shard = stream.partitionKey!.template.parts.find((p) => 'hole' in p && p.hole.kind === 'shard');
  assert.ok(shard && 'hole' in shard && shard.hole.shards?.values?.length === 8);
});

async function createTable(
  send: (c: CreateTableCommand) => Promise<unknown>,
  name: string,
  pk: string,
  sk: string | null,
  gsi: [string, string, string],
) {
  const attrs = [...new Set([pk, ...(sk ? [sk] : []), gsi[1], gsi[2]])];
  await send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: attrs.map((a) => ({ AttributeName: a, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: pk, KeyType: 'HASH' },
        ...(sk ? [{ AttributeName: sk, KeyType: 'RANGE' as const }] : []),
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: gsi[0],
          KeySchema: [
            { AttributeName: gsi[1], KeyType: 'HASH' },
            { AttributeName: gsi[2], KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    }),
  );
}

test('run against dynalite with the real library, every stored key is the template the engine read', async () => {
  const db = await startDynalite();
  const env = { ...process.env };
  try {
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_DYNAMODB: db.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      SHOP_TABLE: 'shop',
      CATALOG_TABLE: 'catalog',
    });
    const send = (c: CreateTableCommand) => db.client.send(c);
    await createTable(send, 'shop', 'PK', 'SK', ['byStatus', 'status', 'createdAt']);
    await createTable(send, 'catalog', 'pk', null, ['byType', '_et', 'pk']);
    const app = await import(pathToFileURL(path.join(FIXTURE, 'v1', 'handlers.ts')).href);
    await app.placeOrder('o-1', 12);
    await app.countHomeView();
    await app.countView('pricing');
    await app.post('new lamps in stock');
    const session: string = await app.startSession('u-1');
    await app.saveCustomer({ customerId: 'c-7', email: 'c@example.com' });
    await app.recordEvent('clicks', '{}');
    await app.addProduct('sku-1', 'Lamp');
    // The reads the engine read find what was written.
    assert.equal((await app.pendingOrders()).length, 1);
    assert.equal((await app.allProducts()).length, 1);
    assert.equal((await app.getOrder('o-1'))?.orderId, 'o-1');

    const stored = async (table: string) =>
      ((await db.client.send(new ScanCommand({ TableName: table }))).Items ?? []).map((i) =>
        unmarshall(i as Record<string, AttributeValue>),
      );
    const items = [...(await stored('shop')), ...(await stored('catalog'))];
    assert.equal(items.length, 8);
    assert.ok(items.some((i) => i.PK === `ORDER#o-1`));
    assert.ok(items.some((i) => i.PK === 'PAGE#home' && i.views === 1));
    assert.ok(items.some((i) => i.PK === 'FEED#storefront'));
    assert.ok(items.some((i) => i.PK === session));
    assert.ok(items.some((i) => i.PK === 'CUSTOMER#c-7' && i.SK === 'PROFILE'));
    const writes = accesses.filter((a) => a.library && a.kind === 'write' && a.file.includes('/v1/'));
    for (const item of items) {
      const entity = item._et as string;
      // The partition keys of each item's table and its index.
      for (const field of 'PK' in item ? ['PK', 'status'] : ['pk', '_et']) {
        if (typeof item[field] !== 'string') continue;
        const written = writes.filter((a) => a.library!.entity === entity && a.partitionKey?.attribute === field);
        assert.ok(written.length > 0, `no write of ${entity}.${field}`);
        assert.ok(
          written.some((a) => matchesTemplate(item[field], a.partitionKey!.template)),
          `${entity}.${field} = ${item[field]} matches none of ${written.map((a) => renderText(a.partitionKey!.template))}`,
        );
        // A template without holes is the stored key itself.
        for (const a of written) {
          const t = renderText(a.partitionKey!.template);
          if (!t.includes('{}') && matchesTemplate(item[field], a.partitionKey!.template)) assert.equal(t, item[field]);
        }
        const out = execFileSync('node', [CLI, 'keys', path.join(FIXTURE, 'v1'), '--match', item[field]], {
          encoding: 'utf8',
        });
        assert.match(out, new RegExp(`${entity} entity · `), `${item[field]}:\n${out}`);
      }
    }
    // The stream's stored shard is one of the engine's shard set.
    const event = items.find((i) => i._et === 'StreamEvent')!.PK as string;
    assert.match(event, /^STREAM#clicks#[0-7]$/);
    const out = execFileSync('node', [CLI, 'keys', path.join(FIXTURE, 'v1'), '--match', event], { encoding: 'utf8' });
    assert.match(out, /StreamEvent entity · primary · .* shard [0-7]\b/);
  } finally {
    process.env = env;
    await db.close();
  }
});
