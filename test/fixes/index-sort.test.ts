// A Query through an index whose partition key is the table's own (a warehouse queue read
// in placement order through a local index on placedAt, beside a table sorted by order id):
// the index returns its items by its own sort key, so a reader of every shard must merge
// them by that key, never by the table's sort key the writers name. With the template the
// merged queue keeps its order against dynalite; without it the reader cannot know the
// index's order and only joins the shards, every order still read once.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes/index';
import { applyAction, cleanup, copyFixture } from './helpers-write';
import { checkProgram, hotWriter, indexed, runDriver, table, type Program } from './helpers-programs';

const FIXTURES = path.join(__dirname, 'fixtures');

/** orders (pk, sk) with the local index byPlacedAt (pk, placedAt), as the template declares it. */
const ORDERS = {
  ...table('orders', 'pk', ['sk', 'S']),
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' as const },
    { AttributeName: 'sk', AttributeType: 'S' as const },
    { AttributeName: 'placedAt', AttributeType: 'S' as const },
  ],
  LocalSecondaryIndexes: [
    {
      IndexName: 'byPlacedAt',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' as const },
        { AttributeName: 'placedAt', KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    },
  ],
};

const QUEUE: Program = {
  fixture: 'orders-index',
  table: ORDERS,
  key: 'pk',
  writer: { rule: 'SL001', operation: 'PutItem' },
  offered: ['add-random-shard', 'add-hash-shard'],
  // 24 orders whose ids run in another order than their placement.
  drive: `import { enqueue, queueByPlacement } from './orders';
(async () => {
  for (let i = 0; i < 24; i++) {
    const orderId = 'ord-' + String((i * 7) % 24).padStart(2, '0');
    await enqueue({ orderId, placedAt: '2026-03-01T10:' + String(i).padStart(2, '0') + ':00Z', total: i });
  }
  console.log(JSON.stringify({ queue: (await queueByPlacement()).map((o) => o.orderId) }));
})();
`,
};

const placed = Array.from({ length: 24 }, (_, i) => 'ord-' + String((i * 7) % 24).padStart(2, '0'));

test("the index's declared sort key orders the merged queue, as the single Query did (dynalite)", async () => {
  const before = (await checkProgram(QUEUE, FIXTURES)).read as { queue: string[] };
  assert.deepEqual(before.queue, placed, 'the single Query returns the orders as they were placed');
});

test("without the template the reader never merges by the table's sort key, and reads every order", async () => {
  const copy = copyFixture(QUEUE.fixture, FIXTURES);
  try {
    fs.rmSync(path.join(copy, 'template.yaml'));
    const { ctx, findings } = await indexed(copy);
    const fix = allFixes(hotWriter(QUEUE, findings)!, ctx).find((a) => a.id === 'add-random-shard');
    assert.ok(fix, 'the random shard is offered');
    const reader = fix.changes.map((c) => c.newText).join('\n');
    assert.doesNotMatch(reader, /item\['sk'\]/, 'the shards are not merged by the table sort key');
    applyAction(ctx, fix);
    const { stdout } = await runDriver(ORDERS, 'node', QUEUE.drive, copy);
    const queue = (JSON.parse(stdout) as { queue: string[] }).queue;
    assert.deepEqual([...queue].sort(), [...placed].sort(), 'every order is read once');
  } finally {
    cleanup(copy);
  }
});
