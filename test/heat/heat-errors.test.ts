// The heat service's failure paths, each produced by the lab answering as AWS
// does (through its fault switch) or by a real network condition: every one must
// come back as a message naming what to do, without hanging or throwing.

import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { UpdateContributorInsightsCommand } from '@aws-sdk/client-dynamodb';
import { boardTable, createTable, sleep, startTestLab, type TestLab } from '../lab/helpers';
import { answerHeatRequest, getHeat, newHeatCache } from '../../server/src/heat';
import type { HeatOutcome, HeatTarget } from '../../server/src/heat/types';
import type { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { fixtureIndex, writeItems } from './helpers';

const TARGET: HeatTarget = { table: 'scores', window: '1h', periodSeconds: 1 };
/** Pauses recorded instead of slept, so back-off tests take no time and show the schedule. */
const pauses: number[] = [];
const backoff = { sleep: async (ms: number) => void pauses.push(ms), random: () => 0.5 };

const problemOf = (o: HeatOutcome) => (o.ok ? null : o.problem);

describe('heat errors', () => {
  let t: TestLab;
  let index: WorkspaceIndex;
  const heat = (target = TARGET, timeoutMs?: number) =>
    getHeat({ endpoint: t.lab.url, timeoutMs }, target, index, { backoff });

  before(async () => {
    index = await fixtureIndex();
    t = await startTestLab();
    await createTable(t.ddb, boardTable('scores'));
    await createTable(t.ddb, boardTable('quiet'));
    await t.ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'scores', ContributorInsightsAction: 'ENABLE' }),
    );
    await sleep(150);
    await writeItems(t.ddb, 'scores', 'BOARD#global', 50);
    await sleep(1100);
  });
  after(() => t?.close());

  test('AccessDenied on DescribeTable stops the report and names the IAM action', async () => {
    t.lab.faults.set([{ kind: 'access-denied', operation: 'DescribeTable' }]);
    const p = problemOf(await heat());
    assert.equal(p?.code, 'access-denied');
    assert.match(p!.message, /"dynamodb:DescribeTable"/);
  });

  test('AccessDenied on GetInsightRuleReport keeps the CloudWatch metrics and names cloudwatch:GetInsightRuleReport', async () => {
    t.lab.faults.set([{ kind: 'access-denied', operation: 'GetInsightRuleReport' }]);
    const o = await heat();
    assert.ok(o.ok);
    assert.deepEqual(o.report.keys, []);
    assert.equal(o.report.metrics?.consumedWriteUnits, 50);
    assert.deepEqual(
      o.report.problems.map((p) => p.code),
      ['access-denied'],
    );
    assert.match(o.report.problems[0].message, /"cloudwatch:GetInsightRuleReport"/);
  });

  test('AccessDenied on DescribeContributorInsights and GetMetricData name those actions', async () => {
    t.lab.faults.set([
      { kind: 'access-denied', operation: 'DescribeContributorInsights' },
      { kind: 'access-denied', operation: 'GetMetricData' },
    ]);
    const o = await heat();
    assert.ok(o.ok);
    assert.equal(o.report.metrics, null);
    assert.deepEqual(
      o.report.problems.map((p) => p.message.match(/"([a-z]+:[A-Za-z]+)"/)?.[1]),
      ['dynamodb:DescribeContributorInsights', 'cloudwatch:GetMetricData'],
    );
  });

  test('an expired security token says to log in again', async () => {
    t.lab.faults.set([{ kind: 'expired-token' }]);
    const p = problemOf(await heat());
    assert.equal(p?.code, 'expired-token');
    assert.equal(p?.command, 'aws sso login');
    const withProfile = problemOf(await getHeat({ endpoint: t.lab.url, profile: 'team' }, TARGET, index, { backoff }));
    // A named profile that does not exist fails before any request: that is a credentials problem too.
    assert.ok(
      withProfile && ['expired-token', 'no-credentials'].includes(withProfile.code),
      JSON.stringify(withProfile),
    );
  });

  test('throttled GetInsightRuleReport is retried with jittered back-off and then succeeds', async () => {
    t.lab.faults.set([{ kind: 'throttle', operation: 'GetInsightRuleReport', times: 3 }]);
    pauses.length = 0;
    const o = await heat();
    assert.ok(o.ok);
    assert.deepEqual(o.report.problems, []);
    assert.equal(o.report.keys[0].consumedUnits, 150);
    assert.equal(t.lab.faults.hits.get('throttle'), 3);
    // random() = 0.5: half of 250, 500, 1,000 ms.
    assert.deepEqual(pauses, [125, 250, 500]);
  });

  test('GetInsightRuleReport throttled every time gives up after four tries with a message', async () => {
    t.lab.faults.set([{ kind: 'throttle', operation: 'GetInsightRuleReport' }]);
    const o = await heat();
    assert.ok(o.ok);
    assert.deepEqual(o.report.keys, []);
    assert.deepEqual(
      o.report.problems.map((p) => p.code),
      ['throttled'],
    );
    assert.match(o.report.problems[0].message, /cloudwatch:GetInsightRuleReport/);
    // PKC, PKT, SKC, SKT: four rules, four tries each.
    assert.equal(t.lab.faults.hits.get('throttle'), 16);
  });

  test('a slow endpoint times out instead of hanging', async () => {
    t.lab.faults.set([{ kind: 'slow', operation: 'DescribeTable', delayMs: 3000 }]);
    const started = Date.now();
    const p = problemOf(await heat(TARGET, 300));
    assert.equal(p?.code, 'timeout');
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  });

  test('insights reported off: CloudWatch figures, and an offer to enable THROTTLED_KEYS', async () => {
    t.lab.faults.set([{ kind: 'insights-disabled' }]);
    const o = await heat();
    assert.ok(o.ok);
    assert.equal(o.report.mode, null);
    assert.equal(o.report.metrics?.consumedWriteUnits, 50);
    const [p] = o.report.problems;
    assert.equal(p.code, 'insights-disabled');
    assert.deepEqual(p.enable, { table: 'scores', index: null, mode: 'THROTTLED_KEYS' });
    assert.equal(
      p.command,
      'aws dynamodb update-contributor-insights --table-name scores --contributor-insights-action ENABLE --contributor-insights-mode THROTTLED_KEYS',
    );
    assert.match(p.message, /THROTTLED_KEYS mode records only keys that throttle/);
    assert.doesNotMatch(p.message, /\$\d/);
  });

  test('a table with insights never enabled gives the same offer, with no fault', async () => {
    t.lab.faults.clear();
    const o = await heat({ ...TARGET, table: 'quiet' });
    assert.ok(o.ok);
    assert.deepEqual(
      o.report.problems.map((p) => p.code),
      ['insights-disabled'],
    );
  });

  test('an unknown table, an unknown index, an unreachable endpoint and a malformed region', async () => {
    t.lab.faults.clear();
    assert.equal(problemOf(await heat({ ...TARGET, table: 'nope' }))?.code, 'table-not-found');
    const ix = problemOf(await heat({ ...TARGET, index: 'byScore' }));
    assert.equal(ix?.code, 'index-not-found');
    assert.match(ix!.message, /no secondary index/);

    const free = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const down = problemOf(await getHeat({ endpoint: `http://127.0.0.1:${free}` }, TARGET, index, { backoff }));
    assert.equal(down?.code, 'endpoint-unreachable');
    assert.match(down!.message, /ECONNREFUSED.*shardlens lab/);

    const region = problemOf(await getHeat({ region: 'mars-1' }, TARGET, index));
    assert.equal(region?.code, 'unknown-region');
  });

  test('answers are cached per window until refreshed', async () => {
    t.lab.faults.clear();
    const cache = newHeatCache(60_000);
    const first = await getHeat({ endpoint: t.lab.url }, TARGET, index, { cache, backoff });
    t.lab.faults.set([{ kind: 'access-denied' }]);
    const again = await getHeat({ endpoint: t.lab.url }, TARGET, index, { cache, backoff });
    assert.ok(first.ok && again.ok);
    assert.deepEqual(
      again.report.keys.map((k) => k.consumedUnits),
      first.report.keys.map((k) => k.consumedUnits),
    );
    assert.equal(t.lab.faults.hits.get('access-denied') ?? 0, 0);
    const other = await getHeat({ endpoint: t.lab.url }, { ...TARGET, window: '3h' }, index, { cache, backoff });
    assert.equal(problemOf(other)?.code, 'access-denied');
    const refreshed = await getHeat({ endpoint: t.lab.url }, TARGET, index, { cache, backoff, refresh: true });
    assert.equal(problemOf(refreshed)?.code, 'access-denied');
    t.lab.faults.clear();
  });

  test('the shardlens/heat answer: the JSON contract, or the problem', async () => {
    t.lab.faults.clear();
    const settings = { endpoint: t.lab.url, window: '1h' as const };
    const cache = newHeatCache();
    const ok = await answerHeatRequest({ table: 'scores' }, settings, index, cache, (f) => f);
    assert.ok(ok.ok);
    assert.equal(ok.report.version, 1);
    assert.equal(ok.report.window, '1h');
    assert.deepEqual(
      ok.report.keys.map((k) => [k.logicalKey, k.consumedUnits]),
      [['scores · PK = BOARD#global', 150]],
    );
    const missing = await answerHeatRequest({ table: 'nope', window: '15m' }, settings, index, cache, (f) => f);
    assert.deepEqual(missing.ok ? null : missing.problem.code, 'table-not-found');
  });
});
