// `shardlens lab demo`: the celebrity leaderboard of the hot-partition guide
// (every score under PK = BOARD#global) driven at a target write rate, then
// the same traffic sharded as BOARD#global#<hash(player) % N>, both through
// the real AWS SDK against a fresh lab. Prints accepted and throttled writes
// per second side by side, the throttling reasons, and the top keys as
// Contributor Insights reports them. Bounded: two phases of at most 30 s.

import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DynamoDBClient,
  UpdateContributorInsightsCommand,
  DescribeContributorInsightsCommand,
} from '@aws-sdk/client-dynamodb';
import { CloudWatchClient, GetInsightRuleReportCommand, GetMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import type { DemoOptions } from './cli-args';
import { boardTable } from './board-table';
import { startLab } from './lab';
import { hash32 } from './metrics/hyperloglog';
import { runPacedLoad, type LoadResult, type Outcome } from './load/paced-load';
import { formatReport, type PhaseReport } from './demo-report';

const TABLE = 'leaderboard';
const BATCH = 25;
const THROTTLES = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException']);

interface Clients {
  ddb: DynamoDBClient;
  cw: CloudWatchClient;
}

function scoreItem(player: number, pk: string) {
  return {
    PutRequest: {
      Item: {
        PK: { S: pk },
        SK: { S: `PLAYER#${player}` },
        score: { N: String(1000 + ((player * 7919) % 50000)) },
        name: { S: `player-${player}` },
      },
    },
  };
}

/** One BatchWriteItem of 25 score updates; unprocessed items are counted as throttled, not retried. */
async function writeBatch(c: Clients, call: number, keyOf: (player: number) => string): Promise<Outcome> {
  const items = Array.from({ length: BATCH }, (_, j) => {
    const player = (call * BATCH + j) % 1_000_000;
    return scoreItem(player, keyOf(player));
  });
  try {
    const res = await c.ddb.send(
      new BatchWriteItemCommand({ RequestItems: { [TABLE]: items }, ReturnConsumedCapacity: 'TOTAL' }),
    );
    const left = res.UnprocessedItems?.[TABLE]?.length ?? 0;
    const units = res.ConsumedCapacity?.reduce((s, cc) => s + (cc.CapacityUnits ?? 0), 0) ?? 0;
    return { accepted: BATCH - left, throttled: left, acceptedUnits: units };
  } catch (e) {
    const err = e as {
      name?: string;
      ThrottlingReasons?: Array<{ reason?: string }>;
      throttlingReasons?: Array<{ reason?: string }>;
    };
    if (err.name && THROTTLES.has(err.name)) {
      const reasons = (err.ThrottlingReasons ?? err.throttlingReasons ?? []).map((r) => String(r.reason));
      return { accepted: 0, throttled: BATCH, acceptedUnits: 0, reasons };
    }
    throw e;
  }
}

async function metricSum(c: Clients, name: string, startMs: number, endMs: number, period: number): Promise<number> {
  const res = await c.cw.send(
    new GetMetricDataCommand({
      StartTime: new Date(startMs),
      EndTime: new Date(endMs),
      MetricDataQueries: [
        {
          Id: 'm',
          MetricStat: {
            Metric: { Namespace: 'AWS/DynamoDB', MetricName: name, Dimensions: [{ Name: 'TableName', Value: TABLE }] },
            Period: period,
            Stat: 'Sum',
          },
        },
      ],
    }),
  );
  return (res.MetricDataResults?.[0]?.Values ?? []).reduce((s, v) => s + v, 0);
}

async function topKeys(c: Clients, rule: string | undefined, startMs: number, endMs: number, period: number) {
  if (!rule) return [];
  const rep = await c.cw.send(
    new GetInsightRuleReportCommand({
      RuleName: rule,
      StartTime: new Date(startMs),
      EndTime: new Date(endMs),
      Period: period,
      MaxContributorCount: 3,
    }),
  );
  return (rep.Contributors ?? []).map((x) => ({
    key: x.Keys?.join(' / ') ?? '?',
    value: x.ApproximateAggregateValue ?? 0,
  }));
}

async function runPhase(
  c: Clients,
  o: DemoOptions,
  label: string,
  keyOf: (player: number) => string,
  rules: string[],
  period: number,
): Promise<PhaseReport> {
  const startMs = Date.now();
  const load: LoadResult = await runPacedLoad({
    callsPerSecond: o.rate / BATCH,
    durationMs: o.phaseSeconds * 1000,
    maxInFlight: 64,
    call: (i) => writeBatch(c, i, keyOf),
  });
  const endMs = Date.now();
  // Let the last period close before reading it back.
  await new Promise((r) => setTimeout(r, period * 1000 + 50));
  const to = endMs + period * 1000;
  const [consumed, throttleEvents, keyRange, provisioned, pkc, pkt] = await Promise.all([
    metricSum(c, 'ConsumedWriteCapacityUnits', startMs, to, period),
    metricSum(c, 'WriteThrottleEvents', startMs, to, period),
    metricSum(c, 'WriteKeyRangeThroughputThrottleEvents', startMs, to, period),
    metricSum(c, 'WriteProvisionedThroughputThrottleEvents', startMs, to, period),
    topKeys(
      c,
      rules.find((r) => r.includes('-PKC-')),
      startMs,
      to,
      period,
    ),
    topKeys(
      c,
      rules.find((r) => r.includes('-PKT-')),
      startMs,
      to,
      period,
    ),
  ]);
  // Throttle events per reason, from the per-reason CloudWatch metrics; load.reasons
  // holds the reasons of the (rarer) whole-batch exceptions, shown beside them.
  const reasons = new Map<string, number>();
  if (keyRange > 0) reasons.set('TableWriteKeyRangeThroughputExceeded', keyRange);
  if (provisioned > 0) reasons.set('TableWriteProvisionedThroughputExceeded', provisioned);
  for (const r of load.reasons.keys()) if (!reasons.has(r)) reasons.set(r, 0);
  return {
    label,
    load,
    seconds: load.elapsedMs / 1000,
    consumed,
    throttleEvents,
    reasons,
    exceptionReasons: load.reasons,
    pkc,
    pkt,
    offeredPerSecond: (load.sent * BATCH) / (load.elapsedMs / 1000),
  };
}

export async function runDemo(o: DemoOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const period = 1;
  let lab;
  try {
    lab = await startLab({
      port: o.port,
      host: o.host,
      periodSeconds: period,
      writeLimit: o.writeLimit,
      insightsTransitionMs: 200,
      tableStateMs: 0,
    });
  } catch (e) {
    err.write(`shardlens lab demo: cannot start the lab: ${(e as Error).message}\n`);
    return 1;
  }
  const config = {
    endpoint: lab.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'lab', secretAccessKey: 'lab' },
    // Off so every throttle shows; the SDK would otherwise retry with back-off.
    maxAttempts: 1,
  };
  const c: Clients = { ddb: new DynamoDBClient(config), cw: new CloudWatchClient(config) };
  try {
    out.write(
      `ShardLens lab demo: celebrity leaderboard at ${o.rate.toLocaleString('en-US')} WCU/s, ${o.phaseSeconds} s per phase\n` +
        `lab ${lab.url}, per-key ceiling ${o.writeLimit.toLocaleString('en-US')} WCU/s, metric period ${period} s; ` +
        `BatchWriteItem of ${BATCH} scores (1 WCU each), SDK retries off\n\n`,
    );
    await c.ddb.send(new CreateTableCommand(boardTable(TABLE)));
    await c.ddb.send(new UpdateContributorInsightsCommand({ TableName: TABLE, ContributorInsightsAction: 'ENABLE' }));
    const rules =
      (await c.ddb.send(new DescribeContributorInsightsCommand({ TableName: TABLE }))).ContributorInsightsRuleList ??
      [];

    out.write(`phase 1: every score under BOARD#global ...\n`);
    const hot = await runPhase(c, o, 'BOARD#global', () => 'BOARD#global', rules, period);
    out.write(`phase 2: scores under BOARD#global#<hash(player) % ${o.shards}> ...\n\n`);
    const sharded = await runPhase(
      c,
      o,
      `BOARD#global#<0..${o.shards - 1}>`,
      (p) => `BOARD#global#${hash32(String(p)) % o.shards}`,
      rules,
      period,
    );
    out.write(formatReport(hot, sharded));
    return 0;
  } catch (e) {
    err.write(`shardlens lab demo: ${(e as Error).stack ?? e}\n`);
    return 1;
  } finally {
    c.ddb.destroy();
    c.cw.destroy();
    await lab.close();
  }
}
