// The heat service against the lab, over real HTTP with the real SDK clients:
// traffic with known figures goes in (a constant hot key driven past its
// ceiling, set low so a busy machine still overruns it several times, a key sharded four ways with one shard hot, reads of a per-player
// key, and a key no code writes), and the linked report must give back
// exactly what was sent: ranks, units, shares, shards, throttles, unmatched.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateContributorInsightsCommand,
} from '@aws-sdk/client-dynamodb';
import { boardTable, createTable, sleep, startTestLab, type TestLab } from '../lab/helpers';
import {
  getHeat,
  heatForKey,
  hotKeysLive,
  clockTime,
  liveLine,
  codeLensTitle,
  PARTITION_CEILING_UNITS,
} from '../../server/src/heat';
import type { HeatReport } from '../../server/src/heat/types';
import type { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { WRITE_LIMIT, fixtureIndex, hammer, writeItems, type Sent } from './helpers';

const GLOBAL = 'scores · PK = BOARD#global';
const DAILY = 'scores · PK = DAILY#{time}';
const PLAYER = 'scores · PK = PLAYER#{entity-id}';

describe('heat report from the lab', () => {
  let t: TestLab;
  let index: WorkspaceIndex;
  let report: HeatReport;
  let hot: Sent;
  // Shard 3 takes 20× each other shard, all within one key's burst (WRITE_LIMIT): none throttles.
  const shardWrites = [4, 4, 4, 80];

  before(async () => {
    index = await fixtureIndex();
    t = await startTestLab({ writeLimit: WRITE_LIMIT });
    await createTable(t.ddb, boardTable('scores'));
    await t.ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'scores', ContributorInsightsAction: 'ENABLE' }),
    );
    await sleep(150);

    hot = await hammer(t.ddbNoRetry, 'scores', 'BOARD#global', 2500);
    for (const [shard, n] of shardWrites.entries()) {
      const s = await writeItems(t.ddbNoRetry, 'scores', `DAILY#2026-11-30#${shard}`, n);
      assert.deepEqual(s, { accepted: n, throttled: 0 });
    }
    assert.deepEqual(await writeItems(t.ddbNoRetry, 'scores', 'SESSION#abc', 30), { accepted: 30, throttled: 0 });
    for (let i = 0; i < 10; i++) {
      await t.ddbNoRetry.send(
        new GetItemCommand({
          TableName: 'scores',
          Key: { PK: { S: 'PLAYER#42' }, SK: { S: 'profile' } },
          ConsistentRead: true,
        }),
      );
    }
    await sleep(1100); // the last period closes
    const outcome = await getHeat({ endpoint: t.lab.url }, { table: 'scores', window: '15m', periodSeconds: 1 }, index);
    assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.problem));
    report = outcome.report;
  });
  after(() => t?.close());

  test('the hot key was driven past its ceiling (the premise of the rest)', () => {
    assert.ok(hot.throttled > 100, `throttled ${hot.throttled}`);
    // More than the one second of burst: the ceiling let writes through over the whole run.
    assert.ok(hot.accepted > 2 * WRITE_LIMIT, `accepted ${hot.accepted}`);
  });

  test('keys are ranked by consumed units, each with 3 × WCU + RCU as sent', () => {
    assert.deepEqual(
      report.keys.map((k) => [k.rank, k.key.id, k.consumedUnits, k.throttles]),
      [
        [1, GLOBAL, 3 * hot.accepted, hot.throttled],
        [2, DAILY, 3 * 92, 0],
        [3, PLAYER, 10, 0],
      ],
    );
    assert.equal(report.mode, 'ACCESSED_AND_THROTTLED_KEYS');
    assert.equal(report.billingMode, 'PAY_PER_REQUEST');
  });

  test("each key's figures are split by the calls that made them: periods of writes only are writes", () => {
    const ops = (id: string) => {
      const o = heatForKey(report, id)!.operations;
      return [o.write.consumedUnits, o.write.throttles, o.read.consumedUnits, o.read.throttles, o.unknown.throttles];
    };
    assert.deepEqual(ops(GLOBAL), [3 * hot.accepted, hot.throttled, 0, 0, 0]);
    // Its last writes may share a second with the player reads: what a bound cannot settle
    // stays open (the key has a reader in the code), none of it is called a read. Each of
    // its four live keys is bounded on its own: at most the 10 read units each.
    const daily = heatForKey(report, DAILY)!.operations;
    assert.equal(daily.write.consumedUnits! + daily.unknown.consumedUnits!, 3 * 92);
    assert.ok(daily.unknown.consumedUnits! <= 4 * 10, `open ${daily.unknown.consumedUnits}`);
    assert.deepEqual([daily.read.consumedUnits, daily.read.throttles, daily.write.throttles], [0, 0, 0]);
    assert.deepEqual(ops(PLAYER), [0, 0, 10, 0, 0]);
  });

  test('shares are of every unit the table consumed, the unmatched key included', () => {
    const total = 3 * hot.accepted + 3 * 92 + 10 + 3 * 30;
    assert.equal(report.totalUnits, total);
    assert.equal(heatForKey(report, GLOBAL)!.share, (3 * hot.accepted) / total);
    assert.equal(heatForKey(report, DAILY)!.share, (3 * 92) / total);
    assert.equal(heatForKey(report, PLAYER)!.share, 10 / total);
  });

  test('the sharded key has its per-shard distribution, with max and mean over the set', () => {
    const daily = heatForKey(report, DAILY)!;
    assert.deepEqual(
      daily.shards,
      shardWrites.map((n, shard) => ({ shard, consumedUnits: 3 * n, throttles: 0 })),
    );
    assert.deepEqual(daily.shardBalance, { maxShard: 3, max: 240, mean: 69, ratio: 240 / 69 });
    assert.deepEqual(
      daily.topKeys.map((k) => [k.key, k.consumedUnits]),
      [
        ['DAILY#2026-11-30#3', 240],
        ['DAILY#2026-11-30#0', 12],
        ['DAILY#2026-11-30#1', 12],
        ['DAILY#2026-11-30#2', 12],
      ],
    );
    assert.deepEqual(
      daily.sites.map((s) => [s.kind, s.span.startLine + 1]),
      [
        ['write', 23],
        ['read', 33],
      ],
    );
  });

  test('a live key no template matches is listed as unmatched', () => {
    assert.deepEqual(report.unmatched, [
      { key: 'SESSION#abc', consumedUnits: 90, throttles: 0, peakUnitsPerSecond: 90 },
    ]);
  });

  test('CloudWatch figures agree with what was sent, throttles by reason', () => {
    assert.deepEqual(report.metrics, {
      consumedReadUnits: 10,
      consumedWriteUnits: hot.accepted + 92 + 30,
      readThrottleEvents: 0,
      writeThrottleEvents: hot.throttled,
      throttlesByReason: { WriteKeyRangeThroughputThrottleEvents: hot.throttled },
    });
    assert.deepEqual(report.problems, []);
  });

  test('the time series per one-second period sums to what was sent, on one ascending axis', () => {
    const s = report.series;
    assert.ok(s, 'no series');
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    assert.equal(sum(s.consumedWriteUnits), hot.accepted + 92 + 30);
    assert.equal(sum(s.consumedReadUnits), 10);
    assert.deepEqual(Object.keys(s.throttlesByReason), ['WriteKeyRangeThroughputThrottleEvents']);
    assert.equal(sum(s.throttlesByReason.WriteKeyRangeThroughputThrottleEvents), hot.throttled);
    // Every one-second period of the 15-minute window, each once, in order.
    assert.ok(Math.abs(s.times.length - 900) <= 1, `${s.times.length} periods`);
    for (let i = 1; i < s.times.length; i++) assert.equal(s.times[i] - s.times[i - 1], 1);
    assert.ok(s.times[0] * 1000 <= report.startMs && s.times.at(-1)! * 1000 < report.endMs);
    // The hammering spans periods: writes in more than one.
    assert.ok(s.consumedWriteUnits.filter((v) => v > 0).length > 1, 'all writes in one period');
    for (const line of [s.consumedReadUnits, s.consumedWriteUnits, ...Object.values(s.throttlesByReason)])
      assert.equal(line.length, s.times.length);
    // No single period took all the accepted writes: the lab's ceiling spreads them over time.
    assert.ok(Math.max(...s.consumedWriteUnits) < hot.accepted, JSON.stringify(s.consumedWriteUnits));
  });

  test('items (partition + sort key) come from the SKC/SKT rules, under the key they belong to', () => {
    // Every item was written once (3 units) and the hot key's items come first in the
    // rules' top 25 (ties go by key), so they are all BOARD#global's.
    const g = heatForKey(report, GLOBAL)!;
    assert.ok(g.topItems.length >= 25, `items ${g.topItems.length}`);
    for (const it of g.topItems) {
      assert.equal(it.key, 'BOARD#global');
      assert.match(it.sortKey, /^pr\d+-\d+$/);
      assert.ok(it.consumedUnits === 3 || it.throttles > 0, JSON.stringify(it));
    }
    assert.deepEqual(heatForKey(report, DAILY)!.topItems, []);
  });

  test('SL009 reports the hot key (throttled) and the uneven shard set, not the others', () => {
    const hotKeys = hotKeysLive(report);
    // The lab's ceiling is a tenth of a partition's, so the hot key is reported for its
    // throttles, not for nearing DynamoDB's ceiling (heat-units covers that path).
    assert.deepEqual(
      hotKeys.map((h) => [h.key.key.id, h.nearCeiling, h.throttled, h.unevenShards, h.ops]),
      [
        [GLOBAL, false, true, false, ['write']],
        [DAILY, false, false, true, []],
      ],
    );
    // Its busiest second ran at the lab's ceiling: at least 80% of a second's refill, at most
    // the full one-second bucket plus that second's refill (3 units per WCU).
    const peak = heatForKey(report, GLOBAL)!.peakUnitsPerSecond!;
    assert.ok(peak > 0.8 * 3 * WRITE_LIMIT && peak <= 2 * 3 * WRITE_LIMIT, `peak ${peak} units/s`);
    assert.ok(peak < 0.8 * PARTITION_CEILING_UNITS, `peak ${peak} units/s`);
    assert.match(hotKeys[1].message, /shard 3 took 240 units, 3\.5× the mean of its 4 shards/);
  });

  test('the hover line and the code lens title say rank, share, throttles and balance', () => {
    const g = heatForKey(report, GLOBAL)!;
    const share = Math.round(g.share! * 100);
    assert.equal(
      liveLine(report, g, 'write'),
      `Live (15m), writes: #1 of 3 keys · ${share}% of consumed units · ${hot.throttled.toLocaleString('en-US')} throttles`,
    );
    assert.equal(
      codeLensTitle(report, g, 'write'),
      `writes: ${share}% of table traffic · ${hot.throttled.toLocaleString('en-US')} throttles (15m)`,
    );
    assert.match(liveLine(report, heatForKey(report, DAILY), 'write'), /shards: max 3\.5× mean \(shard 3\)$/);
    // The daily board's reader never ran: no lens, and its hover says so with the writers' figures.
    assert.equal(codeLensTitle(report, heatForKey(report, DAILY)!, 'read'), null);
    assert.match(
      liveLine(report, heatForKey(report, DAILY), 'read'),
      /^Live \(15m\), reads: none attributed in the window \(its writes: \d+% of consumed units · 0 throttles\)\.$/,
    );
    // Said with the time the report was read: a key the code took up since has no entry yet.
    assert.equal(
      liveLine(report, null),
      `Live (15m): not among the top contributors of table scores when read at ${clockTime(report.endMs)}.`,
    );
    assert.match(clockTime(report.endMs), /^\d\d:\d\d:\d\d$/);
    assert.equal(clockTime(new Date(2026, 11, 6, 9, 5, 7).getTime()), '09:05:07');
  });
});

describe('heat report of a global secondary index', () => {
  let t: TestLab;
  let report: HeatReport;
  const STATUS = 'events/byStatus · status = {low-cardinality}';

  before(async () => {
    const index = await fixtureIndex();
    t = await startTestLab();
    await createTable(t.ddb, {
      TableName: 'events',
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [
        { AttributeName: 'id', AttributeType: 'S' },
        { AttributeName: 'status', AttributeType: 'S' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byStatus',
          KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    });
    await t.ddb.send(
      new UpdateContributorInsightsCommand({
        TableName: 'events',
        IndexName: 'byStatus',
        ContributorInsightsAction: 'ENABLE',
      }),
    );
    await sleep(150);
    for (let i = 0; i < 6; i++) {
      await t.ddb.send(
        new PutItemCommand({
          TableName: 'events',
          Item: { id: { S: `e${i}` }, status: { S: i < 4 ? 'open' : 'closed' } },
        }),
      );
    }
    // Eventually consistent queries of a few tiny items: 0.5 read units each.
    for (const [status, n] of [
      ['open', 12],
      ['closed', 4],
      ['archived', 2],
    ] as const) {
      for (let i = 0; i < n; i++) {
        await t.ddb.send(
          new QueryCommand({
            TableName: 'events',
            IndexName: 'byStatus',
            KeyConditionExpression: '#s = :s',
            ExpressionAttributeNames: { '#s': 'status' },
            ExpressionAttributeValues: { ':s': { S: status } },
          }),
        );
      }
    }
    await sleep(1100);
    const outcome = await getHeat(
      { endpoint: t.lab.url },
      { table: 'events', index: 'byStatus', window: '1h', periodSeconds: 1 },
      index,
    );
    assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.problem));
    report = outcome.report;
  });
  after(() => t?.close());

  test('index keys link to the index read of the code; the metrics are the index’s own', () => {
    assert.equal(report.index, 'byStatus');
    assert.deepEqual(
      report.keys.map((k) => [k.key.id, k.consumedUnits, k.topKeys.map((x) => [x.key, x.consumedUnits])]),
      [
        // The six puts with a status wrote the index (3 units each), then the queries read it.
        [
          STATUS,
          18 + 9,
          [
            ['open', 12 + 6],
            ['closed', 6 + 2],
            ['archived', 1],
          ],
        ],
      ],
    );
    assert.equal(report.totalUnits, 27);
    assert.equal(report.keys[0].share, 1);
    assert.deepEqual(report.unmatched, []);
    // GlobalSecondaryIndexName dimension: the index's own figures, its writes from the table's puts.
    assert.equal(report.metrics?.consumedReadUnits, 9);
    assert.equal(report.metrics?.consumedWriteUnits, 6);
  });
});
