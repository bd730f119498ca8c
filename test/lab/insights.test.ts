// Contributor Insights through the real clients: the DynamoDB side
// (Update/Describe/ListContributorInsights and their status transitions) and
// the CloudWatch side (GetInsightRuleReport, GetMetricData), checked against
// the consumed capacity and throttles the client itself observed.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DescribeContributorInsightsCommand,
  GetItemCommand,
  ListContributorInsightsCommand,
  PutItemCommand,
  UpdateContributorInsightsCommand,
} from '@aws-sdk/client-dynamodb';
import {
  GetInsightRuleReportCommand,
  GetMetricDataCommand,
  type GetInsightRuleReportCommandOutput,
} from '@aws-sdk/client-cloudwatch';
import { boardTable, createTable, sleep, startTestLab, THROTTLE_NAMES, type TestLab } from './helpers';

const kb = (n: number) => 'z'.repeat(n * 1024 - 64);

describe('Contributor Insights', () => {
  let t: TestLab;
  before(async () => {
    t = await startTestLab({ insightsTransitionMs: 300 });
    await createTable(
      t.ddb,
      boardTable('scores', {
        GlobalSecondaryIndexes: [
          {
            IndexName: 'byScore',
            KeySchema: [{ AttributeName: 'SK', KeyType: 'HASH' }],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          },
        ],
      }),
    );
    await createTable(t.ddb, boardTable('other'));
    await createTable(t.ddb, boardTable('celebs'));
  });
  after(() => t.close());

  const rules = async (table: string, index?: string) =>
    (await t.ddb.send(new DescribeContributorInsightsCommand({ TableName: table, IndexName: index })))
      .ContributorInsightsRuleList ?? [];

  const report = (
    rule: string,
    startMs: number,
    extra: Record<string, unknown> = {},
  ): Promise<GetInsightRuleReportCommandOutput> =>
    t.cw.send(
      new GetInsightRuleReportCommand({
        RuleName: rule,
        StartTime: new Date(startMs - 1000),
        EndTime: new Date(Date.now() + 1000),
        Period: 1,
        ...extra,
      }),
    );

  test('status moves DISABLED → ENABLING → ENABLED → DISABLING → DISABLED, with the rule names of the service', async () => {
    const before = await t.ddb.send(new DescribeContributorInsightsCommand({ TableName: 'other' }));
    assert.equal(before.ContributorInsightsStatus, 'DISABLED');
    assert.deepEqual(before.ContributorInsightsRuleList, []);

    const upd = await t.ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'other', ContributorInsightsAction: 'ENABLE' }),
    );
    assert.equal(upd.ContributorInsightsStatus, 'ENABLING');
    assert.equal(
      (await t.ddb.send(new DescribeContributorInsightsCommand({ TableName: 'other' }))).ContributorInsightsStatus,
      'ENABLING',
    );
    await sleep(400);
    const on = await t.ddb.send(new DescribeContributorInsightsCommand({ TableName: 'other' }));
    assert.equal(on.ContributorInsightsStatus, 'ENABLED');
    assert.equal(on.ContributorInsightsMode, 'ACCESSED_AND_THROTTLED_KEYS');
    assert.ok(on.LastUpdateDateTime instanceof Date);
    const names = on.ContributorInsightsRuleList ?? [];
    assert.deepEqual(
      names.map((n) => n.replace(/\d+$/, 'T')),
      ['PKC', 'PKT', 'SKC', 'SKT'].map((k) => `DynamoDBContributorInsights-${k}-other-T`),
    );

    // THROTTLED_KEYS keeps only the throttled-key rules.
    await t.ddb.send(
      new UpdateContributorInsightsCommand({
        TableName: 'other',
        ContributorInsightsAction: 'ENABLE',
        ContributorInsightsMode: 'THROTTLED_KEYS',
      }),
    );
    await sleep(400);
    assert.deepEqual(
      (await rules('other')).map((n) => n.split('-')[1]),
      ['PKT', 'SKT'],
    );

    await t.ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'other', ContributorInsightsAction: 'DISABLE' }),
    );
    assert.equal(
      (await t.ddb.send(new DescribeContributorInsightsCommand({ TableName: 'other' }))).ContributorInsightsStatus,
      'DISABLING',
    );
    await sleep(400);
    assert.equal(
      (await t.ddb.send(new DescribeContributorInsightsCommand({ TableName: 'other' }))).ContributorInsightsStatus,
      'DISABLED',
    );
    await assert.rejects(report(names[1], Date.now() - 5000), { name: 'ResourceNotFoundException' });
  });

  test('an index has its own rules, and List pages through tables and indexes', async () => {
    await t.ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'scores', ContributorInsightsAction: 'ENABLE' }),
    );
    await t.ddb.send(
      new UpdateContributorInsightsCommand({
        TableName: 'scores',
        IndexName: 'byScore',
        ContributorInsightsAction: 'ENABLE',
      }),
    );
    await sleep(400);
    assert.deepEqual(
      (await rules('scores', 'byScore')).map((n) => n.replace(/\d+$/, 'T')),
      ['DynamoDBContributorInsights-PKC-scores-byScore-T', 'DynamoDBContributorInsights-PKT-scores-byScore-T'],
    );
    const one = await t.ddb.send(new ListContributorInsightsCommand({ TableName: 'scores' }));
    assert.deepEqual(
      one.ContributorInsightsSummaries?.map((s) => [s.IndexName ?? '-', s.ContributorInsightsStatus]),
      [
        ['-', 'ENABLED'],
        ['byScore', 'ENABLED'],
      ],
    );
    const page = await t.ddb.send(new ListContributorInsightsCommand({ MaxResults: 1 }));
    assert.equal(page.ContributorInsightsSummaries?.length, 1);
    assert.ok(page.NextToken);
    const rest = await t.ddb.send(new ListContributorInsightsCommand({ MaxResults: 1, NextToken: page.NextToken }));
    assert.equal(rest.ContributorInsightsSummaries?.length, 1);
    await assert.rejects(t.ddb.send(new ListContributorInsightsCommand({ MaxResults: 101 })), {
      name: 'ValidationException',
    });
    await assert.rejects(t.ddb.send(new DescribeContributorInsightsCommand({ TableName: 'missing' })), {
      name: 'ResourceNotFoundException',
    });
    await assert.rejects(
      t.ddb.send(
        new UpdateContributorInsightsCommand({
          TableName: 'scores',
          IndexName: 'nope',
          ContributorInsightsAction: 'ENABLE',
        }),
      ),
      { name: 'ResourceNotFoundException' },
    );
  });

  test('PKC ranks keys by their consumed throughput (3 x WCU + RCU) and SKC by key pair', async () => {
    const start = Date.now();
    const ctu = new Map<string, number>();
    const add = (pk: string, units: number) => ctu.set(pk, (ctu.get(pk) ?? 0) + units);
    const write = async (pk: string, sk: string, size: number) => {
      const r = await t.ddb.send(
        new PutItemCommand({
          TableName: 'scores',
          Item: { PK: { S: pk }, SK: { S: sk }, d: { S: kb(size) } },
          // The table's own share: TOTAL also counts the write to byScore.
          ReturnConsumedCapacity: 'INDEXES',
        }),
      );
      add(pk, 3 * (r.ConsumedCapacity?.Table?.CapacityUnits ?? 0));
    };
    for (let i = 0; i < 10; i++) await write('TEAM#a', `P${i}`, 3);
    for (let i = 0; i < 15; i++) await write('TEAM#b', `P${i}`, 1);
    await write('TEAM#c', 'P0', 1);
    for (let i = 0; i < 20; i++) {
      const r = await t.ddb.send(
        new GetItemCommand({
          TableName: 'scores',
          Key: { PK: { S: 'TEAM#c' }, SK: { S: 'P0' } },
          ConsistentRead: true,
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      add('TEAM#c', r.ConsumedCapacity?.CapacityUnits ?? 0);
    }
    await sleep(1100);
    const [pkc, pkt, skc] = (await rules('scores')).filter((_, i) => i !== 3);
    const rep = await report(pkc, start, { Metrics: ['UniqueContributors', 'Sum', 'SampleCount'] });
    const expected = [...ctu].sort((a, b) => b[1] - a[1]);
    assert.deepEqual(
      expected.map(([k]) => k),
      ['TEAM#a', 'TEAM#b', 'TEAM#c'],
    );
    assert.deepEqual(rep.KeyLabels, ['PK']);
    assert.equal(rep.AggregationStatistic, 'Sum');
    assert.deepEqual(
      rep.Contributors?.map((c) => [c.Keys?.[0], c.ApproximateAggregateValue]),
      expected,
    );
    assert.equal(
      rep.AggregateValue,
      expected.reduce((s, [, v]) => s + v, 0),
    );
    assert.equal(rep.ApproximateUniqueCount, 3);
    for (const c of rep.Contributors ?? []) {
      assert.equal(
        c.Datapoints?.reduce((s, d) => s + (d.ApproximateValue ?? 0), 0),
        c.ApproximateAggregateValue,
      );
      for (const d of c.Datapoints ?? [])
        assert.equal(d.Timestamp!.getTime() % 1000, 0, 'datapoints sit on period boundaries');
    }
    assert.equal(
      rep.MetricDatapoints?.reduce((s, d) => s + (d.Sum ?? 0), 0),
      rep.AggregateValue,
    );
    assert.equal(
      rep.MetricDatapoints?.reduce((s, d) => s + (d.SampleCount ?? 0), 0),
      10 + 15 + 1 + 20,
    );

    const top2 = await report(pkc, start, { MaxContributorCount: 2 });
    assert.deepEqual(
      top2.Contributors?.map((c) => c.Keys?.[0]),
      ['TEAM#a', 'TEAM#b'],
    );

    const pairs = await report(skc, start);
    assert.deepEqual(pairs.KeyLabels, ['PK', 'SK']);
    assert.deepEqual(
      pairs.Contributors?.[0].Keys,
      ['TEAM#c', 'P0'],
      '20 reads + 1 write of TEAM#c/P0 make it the hottest pair',
    );
    assert.equal(pairs.Contributors?.[0].ApproximateAggregateValue, ctu.get('TEAM#c'));

    const nothrottle = await report(pkt, start);
    assert.equal(nothrottle.Contributors?.length, 0);
  });

  test('PKT counts exactly the throttles the client saw, and metrics add up to what was sent', async () => {
    await t.ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'celebs', ContributorInsightsAction: 'ENABLE' }),
    );
    const start = Date.now();
    const blob = kb(20);
    let acceptedUnits = 0;
    let throttled = 0;
    await Promise.all(
      Array.from({ length: 80 }, async (_, i) => {
        try {
          const r = await t.ddbNoRetry.send(
            new PutItemCommand({
              TableName: 'celebs',
              Item: { PK: { S: 'CELEB' }, SK: { S: `S${i}` }, d: { S: blob } },
              ReturnConsumedCapacity: 'TOTAL',
            }),
          );
          acceptedUnits += r.ConsumedCapacity?.CapacityUnits ?? 0;
        } catch (e) {
          assert.ok(THROTTLE_NAMES.has((e as Error).name));
          throttled++;
        }
      }),
    );
    assert.ok(throttled > 0 && acceptedUnits >= 1000, `throttled ${throttled}, accepted ${acceptedUnits} WCU`);
    await sleep(1100);
    const [pkc, pkt] = await rules('celebs');
    const hot = (await report(pkt, start)).Contributors?.find((c) => c.Keys?.[0] === 'CELEB');
    assert.equal(hot?.ApproximateAggregateValue, throttled);
    const celebAccess = (await report(pkc, start)).Contributors?.find((c) => c.Keys?.[0] === 'CELEB');
    assert.equal(celebAccess?.ApproximateAggregateValue, 3 * acceptedUnits);

    const end = Date.now();
    const q = (id: string, metric: string, stat: string, dims: Record<string, string>) => ({
      Id: id,
      MetricStat: {
        Metric: {
          Namespace: 'AWS/DynamoDB',
          MetricName: metric,
          Dimensions: Object.entries(dims).map(([Name, Value]) => ({ Name, Value })),
        },
        Period: 1,
        Stat: stat,
      },
    });
    const data = await t.cw.send(
      new GetMetricDataCommand({
        StartTime: new Date(start - 1000),
        EndTime: new Date(end + 1000),
        ScanBy: 'TimestampAscending',
        MetricDataQueries: [
          q('wcu', 'ConsumedWriteCapacityUnits', 'Sum', { TableName: 'celebs' }),
          q('writes', 'ConsumedWriteCapacityUnits', 'SampleCount', { TableName: 'celebs' }),
          q('events', 'WriteThrottleEvents', 'Sum', { TableName: 'celebs' }),
          q('requests', 'ThrottledRequests', 'Sum', { TableName: 'celebs', Operation: 'PutItem' }),
        ],
      }),
    );
    const sum = (id: string) => data.MetricDataResults?.find((r) => r.Id === id)?.Values?.reduce((s, v) => s + v, 0);
    assert.equal(sum('wcu'), acceptedUnits);
    assert.equal(sum('writes'), 80 - throttled);
    assert.equal(sum('events'), throttled);
    assert.equal(sum('requests'), throttled);
    const ts = data.MetricDataResults?.[0].Timestamps?.map((d) => d.getTime()) ?? [];
    assert.deepEqual(
      ts,
      [...ts].sort((a, b) => a - b),
      'ScanBy TimestampAscending',
    );

    await assert.rejects(
      t.cw.send(
        new GetMetricDataCommand({
          StartTime: new Date(start),
          EndTime: new Date(end),
          MetricDataQueries: [{ Id: 'e', Expression: 'SUM(METRICS())' }],
        }),
      ),
      (e: Error) => e.name === 'InvalidParameterValueException' && /metric math/.test(e.message),
    );
  });
});
