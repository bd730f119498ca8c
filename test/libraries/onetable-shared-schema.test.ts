/**
 * OneTable's calculated shard on a schema module that several Tables are built from
 * (test/fixtures/libraries/onetable-shared-schema): the order service's store, a seed script
 * and the catalog each construct their own `new Table({ schema })`. OneTable computes a
 * `value: true` field with the callback of the Table a call goes through, so the fix gives
 * every one of them the same callback, whichever finding it starts from; run against dynalite,
 * the orders the seed script creates are found, and cancelled, by the store. A fix is planned
 * over the model's calls through every one of those Tables, whatever table name each gives
 * (the back-office import writes a staging table by a literal name).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { allFixes } from '../../server/src/features/fixes';
import { applyAction, fixtureCopier, indexWorkspace, typeErrors } from '../fixes/helpers-write';
import { stringKeyTable, withDynalite } from './helpers';
import { fnv } from './helpers-shards';

const copy = fixtureCopier(path.join(__dirname, '..', 'fixtures', 'libraries'));
const FIX = 'onetable-calculated-shard';

interface Shop {
  seed(data: {
    products: Array<{ sku: string; title: string; price: number }>;
    orders: Array<{ customer: string; total: number }>;
  }): Promise<string[]>;
  OrderStore: new () => {
    place(customer: string, total: number): Promise<{ id?: string }>;
    byId(id: string): Promise<{ id?: string; customer?: string; total?: number } | undefined>;
    cancel(id: string): Promise<void>;
  };
  productBySku(sku: string): Promise<{ title?: string } | undefined>;
}

/** Seeds 12 orders, places 12 more through the store, cancels every third; what the store finds. */
function play(dir: string) {
  return new Promise<{ found: boolean[]; totals: number[]; product?: string; items: Record<string, unknown>[] }>(
    (resolve, reject) =>
      withDynalite(
        [stringKeyTable('shop', ['pk', 'sk'], [['byCustomer', 'gs1pk', 'gs1sk']])],
        { SHOP_TABLE: 'shop' },
        async ({ stored }) => {
          const load = async (f: string) => import(pathToFileURL(path.join(dir, f)).href);
          const m = { ...(await load('seed.ts')), ...(await load('orders.ts')), ...(await load('catalog.ts')) } as Shop;
          const orders = Array.from({ length: 12 }, (_, i) => ({ customer: `c${i % 4}`, total: 10 + i }));
          const ids = await m.seed({ products: [{ sku: 'mug-1', title: 'Mug', price: 9 }], orders });
          const store = new m.OrderStore();
          for (let i = 0; i < 12; i++) ids.push((await store.place(`c${i % 3}`, 100 + i)).id!);
          for (const id of ids.filter((_, i) => i % 3 === 0)) await store.cancel(id);
          const got = await Promise.all(ids.map((id) => store.byId(id)));
          resolve({
            found: got.map((o) => o !== undefined),
            totals: got.map((o) => o?.total ?? -1),
            product: (await m.productBySku('mug-1'))?.title,
            items: await stored('shop'),
          });
        },
      ).catch(reject),
  );
}

test('every finding of the key offers one fix that gives each table built from the schema the callback', async () => {
  const ws = await indexWorkspace(copy('onetable-shared-schema'));
  const offered = ws.findings.flatMap((f) => allFixes(f, ws.ctx).filter((a) => a.id === FIX));
  assert.ok(offered.length >= 2, `${offered.length} offered`);
  for (const a of offered) {
    const callbacks = a.changes.filter((c) => c.newText.includes('value: (model, field, properties)'));
    assert.deepEqual(callbacks.map((c) => path.basename(c.file)).sort(), [
      'admin.ts',
      'catalog.ts',
      'notices.ts',
      'orders.ts',
      'seed.ts',
    ]);
    assert.match(a.title, /by each of the 5 tables built from it/);
  }
});

test('fixed from the catalog, a table that never writes an order, the seed script and the store still agree', async () => {
  const dir = copy('onetable-shared-schema');
  const ws = await indexWorkspace(dir);
  const at = ws.findings.find((f) => f.rule === 'SL001' && path.basename(f.file) === 'catalog.ts');
  assert.ok(at, 'the schema finding at the catalog table');
  const action = allFixes(at, ws.ctx).find((a) => a.id === FIX);
  assert.ok(action);
  applyAction(ws.ctx, action);
  assert.deepEqual(typeErrors(dir), []);
  const after = await indexWorkspace(dir);
  assert.deepEqual(
    after.findings.filter((f) => f.access.library?.entity === 'Order' && f.access.library.accessPattern === 'primary'),
    [],
  );

  const before = await play(copy('onetable-shared-schema'));
  const fixed = await play(dir);
  assert.deepEqual(fixed.found, before.found, 'every order the seed or the store wrote is found, cancelled ones gone');
  assert.deepEqual(fixed.totals, before.totals);
  assert.equal(fixed.found.filter(Boolean).length, 16);
  assert.equal(fixed.product, 'Mug');
  const orders = fixed.items.filter((i) => String(i.sk).startsWith('order#'));
  assert.equal(orders.length, 16, 'no cancel left an item behind');
  for (const o of orders) assert.equal(o.pk, `order#${fnv(String(o.id)) % 10}`);
  assert.ok(new Set(orders.map((o) => o.pk)).size > 1);
});

test('the calls through other tables and a find that gives the key itself refuse what they would break', async () => {
  const ws = await indexWorkspace(copy('onetable-shared-schema'));
  // The back-office import only creates orders on its staging table; the store gets and
  // cancels them by id through its own: a random shard would lose them.
  const admin = ws.findings.find(
    (f) => path.basename(f.file) === 'admin.ts' && f.access.library?.entity === 'Order' && f.rule === 'SL001',
  );
  assert.ok(admin);
  assert.deepEqual(
    allFixes(admin, ws.ctx).map((a) => a.id),
    [FIX],
  );
  // The storefront lists notices by giving pk itself: OneTable fills no template then.
  for (const f of ws.findings.filter((x) => x.access.library?.entity === 'Notice')) {
    const fixes = allFixes(f, ws.ctx).filter((a) => a.id !== 'cache-fix-blocked');
    assert.ok(fixes.every((a) => a.changes.length === 0));
    if (fixes.length) assert.match(fixes[0].title, /the Query at notices\.ts:14 gives pk itself/);
  }
  assert.ok(ws.findings.some((f) => f.access.library?.entity === 'Notice' && allFixes(f, ws.ctx).length));
});
