/**
 * dynamodb-toolbox as a front-end of the key model, proven on fixtures written in the
 * library's documented style (test/fixtures/libraries/dynamodb-toolbox): v1/v2 fixtures
 * type-check against the pinned typings and run with the real library against
 * dynalite, where every stored key matches the template the engine read and
 * `shardlens keys --match` names the entity's logical key. v0 cannot be installed beside
 * v2 (one package name): its fixtures are static, from its documented API.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { allFixes, fixContextOf } from '../../server/src/features/fixes';
import { typeErrors } from '../fixes/helpers-write';
import { assertStoredKey, keysMatch, libraryFixture, renderText, stringKeyTable, withDynalite } from './helpers';

const fx = libraryFixture('dynamodb-toolbox');
const { dir: FIXTURE, line } = fx;

test('the v1/v2 fixtures type-check against the dynamodb-toolbox typings', () => {
  assert.deepEqual(typeErrors(path.join(FIXTURE, 'v1')), []);
});

test('every toolbox call of the fixtures is read with its entity, index and stored key', () => {
  const calls = fx.accesses
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
  const got = fx.findings.map((f) => `${f.rule} ${line(f)} ${f.severity}`);
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
  const feed = fx.findings.find((f) => line(f) === 'v1/entities.ts:36')!;
  assert.match(feed.message, /FEED#storefront/);
  const status = fx.findings.find((f) => line(f) === 'v1/handlers.ts:16' && f.rule === 'SL001')!;
  assert.equal(status.span.startColumn + 1, 30, 'on the constant the call gives');
  // The call gives the constant, not the schema: no shard fix through the schema, and the light bulb says why.
  assert.deepEqual(
    allFixes(status, fixContextOf(fx.index)).map((a) => `${a.id}: ${a.title}`),
    ["shard-fix-blocked: No shard fix: the Order entity's schema does not make the key: the calls give it"],
  );
});

test('a UUID default, an id from the request and a sharded key are not reported', () => {
  const quiet = fx.accesses.filter((a) =>
    ['Session', 'Customer', 'StreamEvent', 'User', 'Upload', 'Sample'].includes(a.library?.entity ?? ''),
  );
  assert.ok(quiet.length >= 7, `${quiet.length}`);
  assert.deepEqual(
    fx.findings.filter((f) => quiet.includes(f.access)).map((f) => `${f.rule} ${line(f)}`),
    [],
  );
  const stream = quiet.find((a) => a.library!.entity === 'StreamEvent')!;
  const shard = stream.partitionKey!.template.parts.find((p) => 'hole' in p && p.hole.kind === 'shard');
  assert.ok(shard && 'hole' in shard && shard.hole.shards?.values?.length === 8);
});

test('run against dynalite with the real library, every stored key is the template the engine read', async () => {
  const tables = [
    stringKeyTable('shop', ['PK', 'SK'], [['byStatus', 'status', 'createdAt']]),
    stringKeyTable('catalog', ['pk', null], [['byType', '_et', 'pk']]),
  ];
  await withDynalite(tables, { SHOP_TABLE: 'shop', CATALOG_TABLE: 'catalog' }, async (db) => {
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

    const items = await db.stored('shop', 'catalog');
    assert.equal(items.length, 8);
    assert.ok(items.some((i) => i.PK === `ORDER#o-1`));
    assert.ok(items.some((i) => i.PK === 'PAGE#home' && i.views === 1));
    assert.ok(items.some((i) => i.PK === 'FEED#storefront'));
    assert.ok(items.some((i) => i.PK === session));
    assert.ok(items.some((i) => i.PK === 'CUSTOMER#c-7' && i.SK === 'PROFILE'));
    const writes = fx.accesses.filter((a) => a.library && a.kind === 'write' && a.file.includes('/v1/'));
    for (const item of items) {
      const entity = item._et as string;
      // The partition keys of each item's table and its index.
      for (const field of 'PK' in item ? ['PK', 'status'] : ['pk', '_et']) {
        if (typeof item[field] !== 'string') continue;
        const written = writes.filter((a) => a.library!.entity === entity && a.partitionKey?.attribute === field);
        assertStoredKey(item, field, entity, written, path.join(FIXTURE, 'v1'));
      }
    }
    // The stream's stored shard is one of the engine's shard set.
    const event = items.find((i) => i._et === 'StreamEvent')!.PK as string;
    assert.match(event, /^STREAM#clicks#[0-7]$/);
    assert.match(keysMatch(path.join(FIXTURE, 'v1'), event), /StreamEvent entity · primary · .* shard [0-7]\b/);
  });
});
