// Where the code uses an environment-named table, as the pick of unmapped tables shows it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tableUses, usesLine } from '../../client/src/table-uses';
import type { JsonKeysReport } from '../../protocol/src/report';

const site = (file: string, line: number) => ({ file, line, column: 5, endLine: line, endColumn: 20 });
const report = {
  tables: [
    {
      table: '$ORDERS_TABLE',
      indexes: [
        {
          index: null,
          keys: [
            { logicalKey: 'a', sites: [site('src/orders.ts', 12), site('src/orders.ts', 30)] },
            // One call reads two keys: its site is listed under each, counted once.
            { logicalKey: 'b', sites: [site('src/orders.ts', 30), site('jobs/nightly.py', 8)] },
          ],
        },
      ],
    },
    { table: 'audit', indexes: [{ index: null, keys: [{ logicalKey: 'c', sites: [site('src/audit.ts', 4)] }] }] },
  ],
} as unknown as JsonKeysReport;

test('the distinct call sites of one table, in the report order', () => {
  assert.deepEqual(tableUses(report, '$ORDERS_TABLE'), ['src/orders.ts:12', 'src/orders.ts:30', 'jobs/nightly.py:8']);
  assert.deepEqual(tableUses(report, '$OTHER'), []);
  assert.deepEqual(tableUses(null, '$ORDERS_TABLE'), []);
});

test('the pick line names the count and the first sites, and how many more', () => {
  assert.deepEqual(usesLine(['a.ts:1', 'b.ts:2', 'c.ts:3', 'd.ts:4', 'e.ts:5']), {
    count: 'used at 5 call sites',
    where: 'a.ts:1 · b.ts:2 · c.ts:3 and 2 more',
  });
  assert.deepEqual(usesLine(['a.ts:1']), { count: 'used at 1 call site', where: 'a.ts:1' });
  assert.deepEqual(usesLine([]), { count: 'no call site read', where: '' });
});
