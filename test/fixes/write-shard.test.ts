// Every write fixture × every write-shard fix: the fixed code parses, type-checks
// against the real SDK typings (or compiles with python3), the engine reports no
// hot-key finding for the fixed key and nothing new, the fix is not offered again,
// and the fixed writer, run with the real SDK against dynalite, spreads K items
// over the N shard keys.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CreateTableCommand, DynamoDBClient, ScanCommand, type ScanCommandOutput } from '@aws-sdk/client-dynamodb';
import { shardSetOf } from '../../server/src/engine/model/template';
import { writeFixes } from '../../server/src/features/fixes/index';
import type { Finding } from '../../server/src/engine/model';
import type { FixAction, FixContext } from '../../server/src/features/fixes/fix-model';
import {
  applyAction,
  cleanup,
  copyFixture,
  findingIds,
  indexWorkspace,
  pythonErrors,
  startDynalite,
  typeErrors,
} from './helpers-write';
import { drive, WRITE_FIXTURES, type WriteFixture } from './write-fixtures';

const HOT = new Set(['SL001', 'SL002', 'SL003']);
const K = 300;

const actionsFor = (f: Finding, ctx: FixContext): FixAction[] => writeFixes.flatMap((p) => p(f, ctx));
const suffixKey = (f: Finding) => f.fixes.find((x) => x.kind === 'add-shard-suffix')?.key;

/** Items per partition-key value after the writer ran. */
async function countsByKey(client: DynamoDBClient, fx: WriteFixture): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let start: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page = await client.send(new ScanCommand({ TableName: fx.table, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      const k = item[fx.pk].S!;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return counts;
}

for (const fx of WRITE_FIXTURES) {
  describe(`write fixes on ${fx.name}`, () => {
    for (const id of fx.fixes) {
      describe(id, () => {
        let dir = '';
        let fixedKey = '';
        let shardCount = 0;
        before(async () => {
          dir = copyFixture(fx.name);
        });
        after(() => cleanup(dir));

        test('the fixed code parses, type-checks or compiles, and the engine finds the key sharded and nothing new', async () => {
          const original = await indexWorkspace(dir);
          assert.deepEqual([...typeErrors(dir), ...pythonErrors(dir)], [], 'the fixture itself is clean');
          const finding = original.findings.find((f) => HOT.has(f.rule) && suffixKey(f) && f.access.kind === 'write');
          assert.ok(finding, `a hot-key finding on a write in ${fx.name}: ${findingIds(original.findings).join(', ')}`);
          fixedKey = suffixKey(finding)!;
          const action = actionsFor(finding, original.ctx).find((a) => a.id === id);
          assert.ok(action, `${id} is offered for ${finding.rule}`);
          assert.equal(action.safe, false, 'a key rewrite moves data: never applied unasked');
          shardCount = 10;
          applyAction(original.ctx, action);

          const fixed = await indexWorkspace(dir);
          for (const r of fixed.index.results()) assert.equal(r.syntaxErrors, false, `${r.file} parses`);
          assert.deepEqual([...typeErrors(dir), ...pythonErrors(dir)], []);
          const hot = fixed.findings.filter((f) => HOT.has(f.rule) && suffixKey(f) === fixedKey);
          assert.deepEqual(findingIds(hot), [], 'no hot-key finding on the fixed key');
          const before = new Set(findingIds(original.findings));
          assert.deepEqual(
            findingIds(fixed.findings).filter((x) => !before.has(x)),
            [],
            'no new finding of any rule',
          );
          // The engine sees the shard part and its named count.
          const writer = fixed.index
            .results()
            .find((r) => path.basename(r.file) === fx.writer)!
            .accesses.find((a) => a.kind === 'write')!;
          const shards = shardSetOf(writer.partitionKey!.template);
          assert.ok(shards, 'the fixed key has a shard part');
          assert.equal(shards.count?.value, shardCount);
          assert.match(shards.count?.name ?? '', /_SHARDS$/);

          // Idempotent: nothing offers this fix again anywhere in the fixed workspace.
          const again = fixed.findings.flatMap((f) => actionsFor(f, fixed.ctx)).filter((a) => a.id === id);
          assert.deepEqual(
            again.map((a) => a.title),
            [],
          );
        });

        test(`the fixed writer spreads ${K} items over the shard keys (dynalite)`, async () => {
          assert.ok(fixedKey, 'the fix was applied');
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
            await drive(fx, dir, db.endpoint, K);
            const counts = await countsByKey(db.client, fx);
            const total = [...counts.values()].reduce((s, n) => s + n, 0);
            assert.equal(total, K, 'every write landed');
            assert.equal(counts.size, shardCount, `one key per shard: ${[...counts.keys()].join(', ')}`);
            const keys = [...counts.keys()];
            assert.ok(keys.every((k) => /#\d+$/.test(k) && Number(k.split('#').pop()) < shardCount));
            const mean = K / shardCount;
            const max = Math.max(...counts.values());
            assert.ok(max <= 2 * mean, `busiest shard has ${max} items, mean ${mean}`);
          } finally {
            await db.close();
          }
        });
      });
    }
  });
}
