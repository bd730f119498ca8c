// CloudWatch over RPC v2 CBOR, read by the AWS SDK's own CBOR protocol: a CloudWatchClient
// with SmithyRpcV2CborProtocol (the codec the SDK ships in @smithy/core) reads the same
// answers from the lab as the default AWS JSON 1.0 client; and the lab's codec and the SDK's
// read each other's bytes for the shapes CloudWatch sends.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PutItemCommand, UpdateContributorInsightsCommand } from '@aws-sdk/client-dynamodb';
import {
  CloudWatchClient,
  DescribeInsightRulesCommand,
  GetInsightRuleReportCommand,
  GetMetricDataCommand,
  GetMetricStatisticsCommand,
} from '@aws-sdk/client-cloudwatch';
import { cbor as sdkCbor, dateToTag, SmithyRpcV2CborProtocol } from '@smithy/core/cbor';
import { decodeCbor, encodeCbor } from '../../lab/cloudwatch/cbor';
import { boardTable, createTable, CREDENTIALS, sleep, startTestLab, type TestLab } from './helpers';

/** Output members only: $metadata differs per request (its id). */
function members(out: object): Record<string, unknown> {
  const { $metadata, ...rest } = out as { $metadata: unknown };
  void $metadata;
  return rest;
}

/** Copies prototype-less decoded maps into plain objects, so deepEqual compares contents. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object' && !(v instanceof Date) && !(v instanceof Uint8Array))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

describe('CloudWatch over RPC v2 CBOR, as the SDK reads it', () => {
  let t: TestLab;
  let cborCw: CloudWatchClient;
  const paths: string[] = [];
  let start = 0;

  before(async () => {
    t = await startTestLab({ insightsTransitionMs: 50 });
    cborCw = new CloudWatchClient({
      endpoint: t.lab.url,
      region: 'us-east-1',
      credentials: CREDENTIALS,
      protocol: SmithyRpcV2CborProtocol,
    });
    cborCw.middlewareStack.add(
      (next) => async (args) => {
        paths.push((args.request as { path: string }).path);
        return next(args);
      },
      { step: 'finalizeRequest' },
    );
    await createTable(t.ddb, boardTable('cbor'));
    await t.ddb.send(new UpdateContributorInsightsCommand({ TableName: 'cbor', ContributorInsightsAction: 'ENABLE' }));
    await sleep(150);
    start = Date.now();
    for (let i = 0; i < 12; i++)
      await t.ddb.send(
        new PutItemCommand({ TableName: 'cbor', Item: { PK: { S: `K#${i % 3}` }, SK: { S: `S${i}` } } }),
      );
    await sleep(1100); // one 1-second period closes
  });
  after(async () => {
    cborCw.destroy();
    await t.close();
  });

  const window = () => ({ StartTime: new Date(start - 2000), EndTime: new Date(Date.now() + 1000) });

  test('the SDK client sends CBOR to the operation path', async () => {
    await cborCw.send(new DescribeInsightRulesCommand({}));
    assert.equal(paths.at(-1), '/service/GraniteServiceVersion20100801/operation/DescribeInsightRules');
  });

  test('GetMetricStatistics and GetMetricData read the same through CBOR as through JSON', async () => {
    const w = window();
    const stats = new GetMetricStatisticsCommand({
      Namespace: 'AWS/DynamoDB',
      MetricName: 'ConsumedWriteCapacityUnits',
      Dimensions: [{ Name: 'TableName', Value: 'cbor' }],
      ...w,
      Period: 1,
      Statistics: ['Sum', 'Average', 'Maximum', 'SampleCount'],
    });
    const viaCbor = members(await cborCw.send(stats));
    assert.deepEqual(viaCbor, members(await t.cw.send(stats)));
    const points = (viaCbor.Datapoints ?? []) as Array<{ Sum: number; Timestamp: Date }>;
    assert.equal(
      points.reduce((s, d) => s + d.Sum, 0),
      12,
    );
    assert.ok(points.every((d) => d.Timestamp instanceof Date && d.Timestamp.getTime() % 1000 === 0));

    const data = new GetMetricDataCommand({
      ...w,
      MetricDataQueries: [
        {
          Id: 'w',
          MetricStat: {
            Metric: {
              Namespace: 'AWS/DynamoDB',
              MetricName: 'ConsumedWriteCapacityUnits',
              Dimensions: [{ Name: 'TableName', Value: 'cbor' }],
            },
            Period: 1,
            Stat: 'Average', // 1.0 per write: a float on the wire
          },
        },
      ],
    });
    const dataCbor = members(await cborCw.send(data));
    assert.deepEqual(dataCbor, members(await t.cw.send(data)));
    const result = (dataCbor.MetricDataResults as Array<{ Timestamps: Date[]; Values: number[] }>)[0];
    assert.ok(result.Values.length > 0 && result.Values.length === result.Timestamps.length);
  });

  test('GetInsightRuleReport: contributors, keys and datapoints read the same through CBOR', async () => {
    const rules = members(await cborCw.send(new DescribeInsightRulesCommand({})));
    const pkc = (rules.InsightRules as Array<{ Name: string }>).find((r) => r.Name.includes('-PKC-cbor-'));
    assert.ok(pkc, JSON.stringify(rules));
    const report = new GetInsightRuleReportCommand({
      RuleName: pkc.Name,
      ...window(),
      Period: 1,
      Metrics: ['UniqueContributors', 'Sum', 'SampleCount'],
    });
    const viaCbor = members(await cborCw.send(report));
    assert.deepEqual(viaCbor, members(await t.cw.send(report)));
    const contributors = viaCbor.Contributors as Array<{ Keys: string[]; ApproximateAggregateValue: number }>;
    assert.deepEqual(contributors.map((c) => c.Keys[0]).sort(), ['K#0', 'K#1', 'K#2']);
    assert.equal(viaCbor.ApproximateUniqueCount, 3);
  });

  test('errors: the SDK names the service error from the CBOR body, with its status', async () => {
    const missing = new GetInsightRuleReportCommand({ RuleName: 'nope', ...window(), Period: 1 });
    await assert.rejects(cborCw.send(missing), (e: Error & { $metadata: { httpStatusCode: number } }) => {
      assert.equal(e.name, 'ResourceNotFoundException');
      assert.equal(e.$metadata.httpStatusCode, 404);
      assert.match(e.message, /nope/);
      return true;
    });
    const bad = new GetMetricStatisticsCommand({
      Namespace: 'AWS/DynamoDB',
      MetricName: 'ConsumedWriteCapacityUnits',
      ...window(),
      Period: 60,
      Statistics: ['Median' as 'Sum'], // not a statistic CloudWatch knows
    });
    await assert.rejects(cborCw.send(bad), (e: Error & { $metadata: { httpStatusCode: number } }) => {
      assert.equal(e.$metadata.httpStatusCode, 400);
      assert.match(e.name, /InvalidParameterValue/);
      return true;
    });
  });
});

describe("the lab's CBOR and the SDK's read each other", () => {
  const report = {
    KeyLabels: ['PK'],
    AggregationStatistic: 'Sum',
    AggregateValue: 4.5,
    ApproximateUniqueCount: 2,
    Contributors: [
      {
        Keys: ['LEADERBOARD#GLOBAL'],
        ApproximateAggregateValue: 3.25,
        Datapoints: [{ Timestamp: new Date(1_700_000_040_000), ApproximateValue: 3.25 }],
      },
      { Keys: ['USER#ü→€'], ApproximateAggregateValue: 1.25, Datapoints: [] },
    ],
    MetricDatapoints: [{ Timestamp: new Date(1_700_000_040_500), Sum: 4.5, SampleCount: 70000, Maximum: -1 }],
    NextToken: undefined, // left out on the wire
  };

  test('what the lab writes, the SDK decodes to the same values (timestamps as tag 1)', () => {
    const decoded = sdkCbor.deserialize(encodeCbor(report)) as Record<string, unknown>;
    assert.equal('NextToken' in decoded, false);
    const stamp = (decoded.MetricDatapoints as Array<{ Timestamp: { tag: number; value: number } }>)[0].Timestamp;
    assert.equal(stamp.tag, 1);
    assert.equal(stamp.value, 1_700_000_040.5);
    const first = (
      decoded.Contributors as Array<{ Datapoints: Array<{ Timestamp: { tag: number; value: number } }> }>
    )[0];
    const whole = first.Datapoints[0].Timestamp;
    assert.deepEqual([whole.tag, whole.value], [1, 1_700_000_040]);
    assert.deepEqual(
      (decoded.Contributors as Array<{ Keys: string[] }>).map((c) => c.Keys[0]),
      ['LEADERBOARD#GLOBAL', 'USER#ü→€'],
    );
    assert.equal(decoded.AggregateValue, 4.5);
    assert.equal((decoded.MetricDatapoints as Array<{ SampleCount: number }>)[0].SampleCount, 70000);
  });

  test('what the SDK writes, the lab decodes to the same values', () => {
    const input = {
      RuleName: 'DynamoDBContributorInsights-PKC-scores-1700000000000',
      StartTime: dateToTag(new Date(1_700_000_000_000)),
      EndTime: dateToTag(new Date(1_700_000_360_250)),
      Period: 60,
      MaxContributorCount: 10,
      Metrics: ['Sum', 'UniqueContributors'],
      OrderBy: 'Sum',
      Blob: new Uint8Array([0, 1, 255]),
    };
    const decoded = plain(decodeCbor(sdkCbor.serialize(input)));
    assert.deepEqual(decoded, {
      ...input,
      StartTime: new Date(1_700_000_000_000),
      EndTime: new Date(1_700_000_360_250),
      Blob: Buffer.from([0, 1, 255]),
    });
  });

  test('round trips through both codecs keep every value', () => {
    const back = plain(decodeCbor(sdkCbor.serialize(sdkCbor.deserialize(encodeCbor(report)))));
    const { NextToken, ...expected } = report;
    void NextToken;
    assert.deepEqual(back, plain(expected));
  });
});
