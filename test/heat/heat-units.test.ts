// The heat service's plain functions on hand-made data: linking in
// THROTTLED_KEYS mode, reading KeyLabels rather than assuming an order, which
// logical key a live key is counted under, SL009's thresholds, error
// classification, back-off schedules and the lab's fault switch over HTTP.

import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import {
  backoffDelay,
  classify,
  hotKeysLive,
  linkReport,
  nextPollDelay,
  PARTITION_CEILING_UNITS,
  pickMatch,
  startPolling,
} from '../../server/src/heat';
import type { HeatReport, KeyHeat, LiveData, RuleReport } from '../../server/src/heat/types';
import { READ_UNITS_PER_PARTITION, WRITE_UNITS_PER_PARTITION } from '../../server/src/engine/requests/capacity';
import { seriesOf } from '../../server/src/heat/metrics';
import { startTestLab } from '../lab/helpers';
import { fixtureIndex } from './helpers';

const TABLE = {
  table: 'scores',
  partitionKey: 'PK',
  sortKey: 'SK',
  billingMode: 'PAY_PER_REQUEST' as const,
  indexes: [],
};

function live(mode: LiveData['mode'], reports: RuleReport[]): LiveData {
  return {
    table: TABLE,
    index: null,
    window: '1h',
    periodSeconds: 60,
    startMs: 0,
    endMs: 3_600_000,
    mode,
    reports,
    metrics: null,
    series: null,
    periods: new Map(),
    problems: [],
  };
}
const rule = (kind: RuleReport['kind'], keyLabels: string[], contributors: Array<[string[], number]>): RuleReport => ({
  kind,
  rule: `DynamoDBContributorInsights-${kind}-scores-1`,
  keyLabels,
  aggregateValue: contributors.reduce((s, [, v]) => s + v, 0),
  contributors: contributors.map(([keys, value]) => ({ keys, value, peak: value, points: [] })),
});

describe('linking', () => {
  let index: WorkspaceIndex;
  before(async () => {
    index = await fixtureIndex();
  });

  test('THROTTLED_KEYS mode: throttles only, ranked by them; no units, shares or balance', () => {
    const r = linkReport(
      live('THROTTLED_KEYS', [
        rule(
          'PKT',
          ['PK'],
          [
            [['DAILY#2026-11-30#1'], 40],
            [['BOARD#global'], 7],
            [['DAILY#2026-11-30#3'], 2],
            [['X#1'], 1],
          ],
        ),
      ]),
      index,
    );
    assert.deepEqual(
      r.keys.map((k) => [k.rank, k.key.id, k.consumedUnits, k.share, k.throttles, k.shardBalance]),
      [
        [1, 'scores · PK = DAILY#{time}', null, null, 42, null],
        [2, 'scores · PK = BOARD#global', null, null, 7, null],
      ],
    );
    assert.deepEqual(r.keys[0].shards, [
      { shard: 0, consumedUnits: null, throttles: 0 },
      { shard: 1, consumedUnits: null, throttles: 40 },
      { shard: 2, consumedUnits: null, throttles: 0 },
      { shard: 3, consumedUnits: null, throttles: 2 },
    ]);
    assert.equal(r.totalUnits, null);
    assert.deepEqual(r.unmatched, [{ key: 'X#1', consumedUnits: null, throttles: 1, peakUnitsPerSecond: null }]);
  });

  test('the partition and sort key are found by KeyLabels, whatever their order', () => {
    const r = linkReport(
      live('ACCESSED_AND_THROTTLED_KEYS', [
        rule('PKC', ['PK'], [[['BOARD#global'], 30]]),
        rule('SKC', ['SK', 'PK'], [[['alice', 'BOARD#global'], 12]]),
      ]),
      index,
    );
    assert.deepEqual(r.keys[0].topItems, [{ key: 'BOARD#global', sortKey: 'alice', consumedUnits: 12, throttles: 0 }]);
  });

  test('a live key counts once: its own table over $ENV and unknown, a shard over a literal read, the right index', () => {
    const key = (id: string, table: string | null, index: string | null = null) =>
      ({ id, table, index, attribute: 'PK', template: { parts: [] }, shards: null }) as never;
    const m = (k: never, shard: number | null = null) => ({ key: k, shard, templates: [] });
    const env = m(key('$T · PK = K', '$T'));
    const own = m(key('scores · PK = K', 'scores'));
    const other = m(key('orders · PK = K', 'orders'));
    const unknown = m(key('? · PK = K', null));
    const onIndex = m(key('scores/byX · PK = K', 'scores', 'byX'));
    assert.equal(pickMatch([unknown, env, own, other], 'scores', null, 'PK'), own);
    assert.equal(pickMatch([unknown, env, other], 'scores', null, 'PK'), env);
    assert.equal(pickMatch([other, onIndex], 'scores', null, 'PK'), null);
    assert.equal(pickMatch([onIndex], 'scores', 'byX', 'PK'), onIndex);
    const literalShard = m(key('scores · PK = K#3', 'scores'));
    const shard3 = m(key('scores · PK = K', 'scores'), 3);
    assert.equal(pickMatch([literalShard, shard3], 'scores', null, 'PK'), shard3);
    // A deploy-time name fits the tables it can stand for, as well as the exact name, and no other.
    const staged = m(key('scores-{$STAGE} · PK = K', 'scores-{$STAGE}'));
    assert.equal(pickMatch([unknown, env, staged], 'scores-prod', null, 'PK'), staged);
    assert.equal(pickMatch([staged], 'orders-prod', null, 'PK'), null);
  });
});

describe('SL009 thresholds', () => {
  const keyHeat = (peak: number, shards: number[] | null): KeyHeat => {
    const sum = shards?.reduce((s, x) => s + x, 0) ?? 0;
    const max = shards ? Math.max(...shards) : 0;
    const mean = shards ? sum / shards.length : 0;
    return {
      key: { id: 'K', table: 't', index: null, attribute: 'PK', template: { parts: [] }, shards: null },
      aliases: [],
      template: 'K',
      sites: [],
      rank: 1,
      consumedUnits: 1,
      share: 1,
      throttles: 0,
      peakUnitsPerSecond: peak,
      operations: {
        read: { consumedUnits: 0, throttles: 0, peakUnitsPerSecond: 0 },
        write: { consumedUnits: 1, throttles: 0, peakUnitsPerSecond: peak },
        unknown: { consumedUnits: 0, throttles: 0, peakUnitsPerSecond: 0 },
      },
      shards: shards?.map((u, shard) => ({ shard, consumedUnits: u, throttles: 0 })) ?? null,
      shardBalance: shards ? { maxShard: shards.indexOf(max), max, mean, ratio: max / mean } : null,
      topKeys: [{ key: 'K', consumedUnits: 1, throttles: 0, peakUnitsPerSecond: peak }],
      topItems: [],
    };
  };
  const report = (keys: KeyHeat[]) => ({ window: '1h', index: null, keys }) as unknown as HeatReport;

  test("a partition's ceiling is the same in ConsumedThroughputUnits for reads and writes", () => {
    assert.equal(PARTITION_CEILING_UNITS, 3 * WRITE_UNITS_PER_PARTITION);
    assert.equal(PARTITION_CEILING_UNITS, READ_UNITS_PER_PARTITION);
  });

  test('above 80% of the ceiling, or a shard above 3× the mean: strictly above', () => {
    const at = 0.8 * PARTITION_CEILING_UNITS;
    const flags = (k: KeyHeat) => hotKeysLive(report([k])).map((h) => [h.nearCeiling, h.unevenShards]);
    assert.deepEqual(flags(keyHeat(at, null)), []);
    assert.deepEqual(flags(keyHeat(at + 1, null)), [[true, false]]);
    assert.deepEqual(flags(keyHeat(0, [30, 0, 0, 10])), []); // 30 = 3 × mean 10
    assert.deepEqual(flags(keyHeat(0, [31, 0, 0, 10])), [[false, true]]);
    assert.deepEqual(flags(keyHeat(0, [0, 0, 0, 0])), []);
  });
});

describe('errors and back-off', () => {
  const ctx = { action: 'dynamodb:DescribeTable', connection: { region: 'eu-west-9' }, resource: 'table "t"' };

  test('network failures say which: a region that does not resolve, a refused endpoint, a missing region', () => {
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND dynamodb.eu-west-9.amazonaws.com'), {
      code: 'ENOTFOUND',
    });
    assert.equal(classify(dns, ctx).code, 'unknown-region');
    assert.match(classify(dns, ctx).message, /"eu-west-9"/);
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    assert.equal(
      classify(refused, { ...ctx, connection: { endpoint: 'http://127.0.0.1:9' } }).code,
      'endpoint-unreachable',
    );
    assert.equal(classify(new Error('Region is missing'), ctx).code, 'no-region');
  });

  test('full-jitter delays stay under a doubling cap; polling slows while throttled', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, () => 1)),
      [250, 500, 1000, 2000, 4000, 4000],
    );
    assert.equal(
      backoffDelay(3, () => 0),
      0,
    );
    assert.deepEqual(
      [0, 1, 2, 3, 9].map((n) => nextPollDelay(1000, n, () => 0.5)),
      [1000, 2000, 4000, 8000, 8000],
    );
    assert.equal(
      nextPollDelay(1000, 0, () => 0),
      800,
    );
    assert.equal(
      nextPollDelay(1000, 0, () => 1),
      1200,
    );
  });

  test('polling runs one refresh at a time, slows down while throttled, and stops', async () => {
    let running = 0;
    let most = 0;
    const starts: number[] = [];
    let stop!: () => void;
    const done = new Promise<void>((resolve) => (stop = resolve));
    const poller = startPolling(
      async () => {
        running++;
        most = Math.max(most, running);
        starts.push(Date.now());
        await new Promise((r) => setTimeout(r, 10));
        running--;
        if (starts.length === 4) stop();
        // The first two refreshes were throttled: the next pauses are 4× and 8× 20 ms.
        return { throttled: starts.length <= 2 };
      },
      20,
      () => 0.5,
    );
    await done;
    poller.stop();
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(most, 1);
    assert.equal(starts.length, 4);
    const gaps = starts.slice(1).map((t, i) => t - starts[i] - 10);
    assert.ok(gaps[0] >= 40 - 2 && gaps[1] >= 80 - 2, `gaps ${gaps}`);
    assert.ok(gaps[1] > gaps[2], `gaps ${gaps}`);
  });
});

test("the lab's fault switch is reachable over HTTP for a lab started from the command line", async () => {
  const t = await startTestLab();
  try {
    const put = await fetch(`${t.lab.url}/_lab/faults`, {
      method: 'PUT',
      body: JSON.stringify([{ kind: 'access-denied', operation: 'DescribeTable', times: 1 }]),
    });
    assert.equal(put.status, 200);
    await assert.rejects(t.ddb.send(new DescribeTableCommand({ TableName: 'xyz' })), (e: Error) => {
      assert.equal(e.name, 'AccessDeniedException');
      assert.match(e.message, /not authorized to perform: dynamodb:DescribeTable on resource: .*table\/xyz/);
      return true;
    });
    // Spent after one request: the lab answers as itself again.
    await assert.rejects(t.ddb.send(new DescribeTableCommand({ TableName: 'xyz' })), {
      name: 'ResourceNotFoundException',
    });
    assert.equal((await fetch(`${t.lab.url}/_lab/faults`, { method: 'PUT', body: '[{"kind":"nope"}]' })).status, 400);
    assert.deepEqual(await (await fetch(`${t.lab.url}/_lab/faults`, { method: 'DELETE' })).json(), []);
  } finally {
    await t.close();
  }
});

describe('the metrics per period (seriesOf)', () => {
  test('one ascending axis over the window, 0 where a metric has no datapoint, quiet reasons left out', () => {
    const at = (s: number) => s * 1000;
    // Four one-minute periods from 0 s; the window starts mid-period, as "now - 1h" does.
    const window = { startMs: at(30), endMs: at(200), periodSeconds: 60 };
    const points = new Map([
      // CloudWatch returns newest first and leaves out periods with no data.
      [
        'ConsumedWriteCapacityUnits',
        [
          { t: at(120), v: 5 },
          { t: at(60), v: 7 },
        ],
      ],
      ['ConsumedReadCapacityUnits', [{ t: at(0), v: 2 }]],
      ['WriteKeyRangeThroughputThrottleEvents', [{ t: at(120), v: 3 }]],
      ['WriteThrottleEvents', [{ t: at(120), v: 3 }]],
      ['ReadKeyRangeThroughputThrottleEvents', [{ t: at(60), v: 0 }]],
    ]);
    assert.deepEqual(seriesOf(points, window), {
      times: [0, 60, 120, 180],
      consumedReadUnits: [2, 0, 0, 0],
      consumedWriteUnits: [0, 7, 5, 0],
      throttlesByReason: { WriteKeyRangeThroughputThrottleEvents: [0, 0, 3, 0] },
    });
    // No datapoint at all: the quiet window still has its periods; one off the grid is kept.
    assert.deepEqual(seriesOf(new Map(), window), {
      times: [0, 60, 120, 180],
      consumedReadUnits: [0, 0, 0, 0],
      consumedWriteUnits: [0, 0, 0, 0],
      throttlesByReason: {},
    });
    assert.deepEqual(
      seriesOf(new Map([['ConsumedWriteCapacityUnits', [{ t: at(90), v: 1 }]]]), window).consumedWriteUnits,
      [0, 0, 1, 0, 0],
    );
  });
});
