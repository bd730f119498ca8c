// A write-shard fix must never corrupt an item. For each fixture (a repository with
// put + get + update + query of one key, a v2 Lambda that updates existing bookings, a
// boto3 DAO whose key has a variable part, a mapper that builds the item) the program
// runs against dynalite before and after each offered fix, and must store the same
// items (apart from the partition key), find every item by its key, and list every
// item in the same order. Fixes that would lose items must not be offered, and the
// light bulb must say what blocks them.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { Finding } from '../../server/src/engine/model';
import { allFixes, writeFixes } from '../../server/src/features/fixes/index';
import type { FixAction, FixContext } from '../../server/src/features/fixes/fix-model';
import {
  applyAction,
  cleanup,
  copyFixture,
  findingIds,
  indexWorkspace,
  pythonErrors,
  typeErrors,
} from './helpers-write';
import { foundCount, run, SAFETY_DIR, SAFETY_FIXTURES, type Run, type SafetyFixture } from './safety-fixtures';

const FIXTURES = SAFETY_DIR;
const HOT = new Set(['SL001', 'SL002', 'SL003']);
const SHARD_FIXES = ['add-random-shard', 'add-hash-shard'];

const actionsFor = (f: Finding, ctx: FixContext): FixAction[] => writeFixes.flatMap((p) => p(f, ctx));
const hotWrite = (fs: Finding[]) =>
  fs.find((f) => HOT.has(f.rule) && f.access.kind === 'write' && f.fixes.some((x) => x.kind === 'add-shard-suffix'));

for (const fx of SAFETY_FIXTURES) {
  describe(`shard fixes keep the meaning of ${fx.name}`, () => {
    let baseline: Run | null = null;

    test('only the fixes that keep every item are offered', async () => {
      const dir = copyFixture(fx.name, FIXTURES);
      try {
        const ws = await indexWorkspace(dir);
        assert.deepEqual([...typeErrors(dir), ...pythonErrors(dir)], [], 'the fixture itself is clean');
        const finding = hotWrite(ws.findings);
        assert.ok(finding, `a hot write in ${fx.name}: ${findingIds(ws.findings).join(', ')}`);
        const ids = actionsFor(finding, ws.ctx)
          .map((a) => a.id)
          .filter((id) => SHARD_FIXES.includes(id));
        assert.deepEqual(ids.sort(), [...fx.offered].sort());
        baseline = await run(fx, dir);
        assert.ok(baseline.stored.length > 0, 'the program stored items');
        if (foundCount(baseline) !== null) assert.ok(foundCount(baseline)! > 0, 'point reads find items');
      } finally {
        cleanup(dir);
      }
    });

    for (const id of fx.offered) {
      test(`${id}: same items, every item found, every query in the same order (dynalite)`, async () => {
        assert.ok(baseline, 'the program ran before the fix');
        const dir = copyFixture(fx.name, FIXTURES);
        try {
          const ws = await indexWorkspace(dir);
          const finding = hotWrite(ws.findings)!;
          const action = actionsFor(finding, ws.ctx).find((a) => a.id === id);
          assert.ok(action, `${id} is offered`);
          applyAction(ws.ctx, action);
          assert.deepEqual([...typeErrors(dir), ...pythonErrors(dir)], [], 'the fixed code type-checks / compiles');
          const fixed = await indexWorkspace(dir);
          for (const r of fixed.index.results()) assert.equal(r.syntaxErrors, false, `${r.file} parses`);
          const hotAfter = fixed.findings.filter((f) => HOT.has(f.rule));
          assert.deepEqual(findingIds(hotAfter), [], 'no hot-key finding left on the key');
          const before = new Set(findingIds(ws.findings));
          assert.deepEqual(
            findingIds(fixed.findings).filter((x) => !before.has(x)),
            [],
            'no new finding of any rule',
          );

          const after = await run(fx, dir);
          assert.deepEqual(after.stored, baseline.stored, 'the same items are stored, apart from the key');
          assert.deepEqual(after.output, baseline.output, 'every read returns what it returned before, in order');
          assert.ok(after.keys > baseline.keys, `the items are spread over ${after.keys} keys (were ${baseline.keys})`);
          console.log(
            `# ${fx.name} ${id}: ${after.stored.length} items over ${after.keys} keys (were ${baseline.keys}); ` +
              `point reads found ${foundCount(after) ?? '-'} (before ${foundCount(baseline) ?? '-'})`,
          );
        } finally {
          cleanup(dir);
        }
      });
    }
  });
}

describe('shard fixes that would corrupt items are not offered, and say why', () => {
  test('a mapper that also builds items elsewhere: no shard fix, and the place is named', async () => {
    const dir = copyFixture('shared-mapper-ts', FIXTURES);
    try {
      const ws = await indexWorkspace(dir);
      const finding = hotWrite(ws.findings);
      assert.ok(finding);
      const actions = actionsFor(finding, ws.ctx);
      assert.deepEqual(
        actions.filter((a) => SHARD_FIXES.includes(a.id)).map((a) => a.title),
        [],
      );
      const blocked = actions.find((a) => a.id === 'shard-fix-blocked');
      assert.ok(blocked, 'the light bulb says what blocks the fix');
      assert.match(blocked.title, /toBallotItem\(\) also builds items at ballot-api\.ts:5/);
      assert.deepEqual(blocked.changes, []);
    } finally {
      cleanup(dir);
    }
  });

  test('an item deleted by a key built in a helper: no random shard (it would lose the item), no calculated one (nothing identifies the item at the call)', async () => {
    const dir = copyFixture('orders-js', FIXTURES);
    try {
      const ws = await indexWorkspace(dir);
      const finding = hotWrite(ws.findings);
      assert.ok(finding);
      const actions = actionsFor(finding, ws.ctx);
      assert.deepEqual(
        actions.filter((a) => SHARD_FIXES.includes(a.id)).map((a) => a.title),
        [],
      );
      const blocked = actions.find((a) => a.id === 'shard-fix-blocked');
      assert.ok(blocked);
      assert.match(blocked.title, /the DeleteItem at orders\.js:15 finds one item by its key/);
      assert.match(blocked.title, /no attribute that identifies the item .* \(PutItem at orders\.js:11\)/);
    } finally {
      cleanup(dir);
    }
  });

  test('a method building the item that another module also calls (order.to_item() archived elsewhere): no shard fix, and the place is named', async () => {
    const dir = copyFixture('orders-module-py', FIXTURES);
    try {
      fs.writeFileSync(
        path.join(dir, 'archive.py'),
        'import boto3\n\narchive = boto3.resource("dynamodb").Table("orders-archive")\n\n\n' +
          'def archive_order(order):\n    archive.put_item(Item=order.to_item())\n',
      );
      const ws = await indexWorkspace(dir);
      const finding = hotWrite(ws.findings);
      assert.ok(finding, findingIds(ws.findings).join(', '));
      const actions = actionsFor(finding, ws.ctx);
      assert.deepEqual(
        actions.filter((a) => SHARD_FIXES.includes(a.id)).map((a) => a.title),
        [],
      );
      const blocked = actions.find((a) => a.id === 'shard-fix-blocked');
      assert.ok(blocked, 'the light bulb says what blocks the fix');
      assert.match(blocked.title, /to_item\(\) also builds items at archive\.py:7/);
    } finally {
      cleanup(dir);
    }
  });

  test('no fix ever appends a shard to a call that returns an item', async () => {
    for (const name of ['ballots-ts', 'shared-mapper-ts', 'events-py', 'orders-module-py']) {
      const dir = copyFixture(name, FIXTURES);
      try {
        const ws = await indexWorkspace(dir);
        for (const f of ws.findings)
          for (const a of actionsFor(f, ws.ctx))
            for (const c of a.changes)
              assert.doesNotMatch(c.newText, /\$\{to\w*\(|\{\w+\.to_item\(\)\}/, `${a.title} edits a mapper call`);
      } finally {
        cleanup(dir);
      }
    }
  });
});

describe('a read of a key with a variable part before the shard (TIER#{tier}#{shard})', () => {
  const tiers: SafetyFixture = {
    name: 'tier-ts',
    table: 'members',
    pk: 'PK',
    sk: 'SK',
    offered: [],
    driver: {
      language: 'node',
      source: `import { join, membersOf } from './members';

void (async () => {
  for (let i = 0; i < 30; i++) await join(i % 5 === 0 ? 'silver' : 'gold', 'm-' + String(29 - i).padStart(2, '0'));
  const sks = async (tier: string) => (await membersOf(tier)).map((m) => m.SK);
  console.log(JSON.stringify({ gold: await sks('gold'), silver: await sks('silver') }));
})();
`,
    },
  };

  test('the SL006 repair passes the tier to the reader, which returns every member in order (dynalite)', async () => {
    const dir = copyFixture('tier-ts', FIXTURES);
    try {
      const before = (await run(tiers, dir)).output as { gold: string[]; silver: string[] };
      assert.deepEqual([before.gold.length, before.silver.length], [0, 0], 'the unrepaired read finds no member');
      const ws = await indexWorkspace(dir);
      const read = ws.findings.find((f) => f.rule === 'SL006');
      assert.ok(read, findingIds(ws.findings).join(', '));
      const repair = allFixes(read, ws.ctx).find((a) => a.id === 'use-reader');
      assert.ok(repair, 'the read is repaired');
      applyAction(ws.ctx, repair);
      assert.deepEqual(typeErrors(dir), []);
      const after = (await run(tiers, dir)).output as { gold: string[]; silver: string[] };
      const expected = (n: number[]) => n.map((i) => 'MEMBER#m-' + String(29 - i).padStart(2, '0')).sort();
      const gold = Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 5 !== 0);
      const silver = Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 5 === 0);
      assert.deepEqual(after.gold, expected(gold), '24 of 24 gold members, in sort-key order');
      assert.deepEqual(after.silver, expected(silver), '6 of 6 silver members');
    } finally {
      cleanup(dir);
    }
  });
});
