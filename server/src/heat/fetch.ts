import { GetInsightRuleReportCommand, GetMetricDataCommand, type MetricDataQuery } from '@aws-sdk/client-cloudwatch';
import {
  DescribeContributorInsightsCommand,
  DescribeTableCommand,
  type KeySchemaElement,
} from '@aws-sdk/client-dynamodb';
import { withBackoff, type BackoffOptions } from './backoff';
import type { HeatClients } from './clients';
import { classify, type CallContext } from './errors';
import { insightsProblem } from './insights';
import {
  THROTTLE_METRICS,
  metricQueries,
  periodOps,
  seriesOf,
  sumMetrics,
  valuesOf,
  type MetricPoint,
} from './metrics';
import type {
  Contributor,
  HeatProblem,
  HeatTarget,
  InsightsMode,
  LiveData,
  PeriodOps,
  RuleKind,
  RuleReport,
  TableInfo,
} from './types';
import { periodFor, windowRange } from './window';

/**
 * One fetch of what AWS knows about a table or index over a window:
 * DescribeTable → DescribeContributorInsights → GetInsightRuleReport per rule →
 * GetMetricData. Only DescribeTable failing stops it (nothing else can be read
 * without the key schema); a later failure becomes a problem beside what was read.
 */

/** DynamoDB's Contributor Insights reports at most 25 contributors. */
export const MAX_CONTRIBUTORS = 25;

export type FetchResult = { ok: true; live: LiveData } | { ok: false; problem: HeatProblem; error: unknown };

const hashOf = (ks: KeySchemaElement[] | undefined) => ks?.find((k) => k.KeyType === 'HASH')?.AttributeName ?? '';
const rangeOf = (ks: KeySchemaElement[] | undefined) => ks?.find((k) => k.KeyType === 'RANGE')?.AttributeName ?? null;

/** The rule kind a managed rule name carries (`DynamoDBContributorInsights-PKC-…`): read, never built. */
export function ruleKindOf(name: string): RuleKind | null {
  const m = /^DynamoDBContributorInsights-(PKC|PKT|SKC|SKT)-/.exec(name);
  return m ? (m[1] as RuleKind) : null;
}

export async function fetchLive(
  clients: HeatClients,
  target: HeatTarget,
  nowMs: number = Date.now(),
  backoff: BackoffOptions = {},
): Promise<FetchResult> {
  const index = target.index ?? null;
  const resource = index ? `index "${index}" of table "${target.table}"` : `table "${target.table}"`;
  const ctx = (action: string): CallContext => ({ action, connection: clients.connection, resource });

  let table: TableInfo;
  try {
    const d = await withBackoff(() => clients.ddb.send(new DescribeTableCommand({ TableName: target.table })), backoff);
    const t = d.Table!;
    table = {
      table: target.table,
      partitionKey: hashOf(t.KeySchema),
      sortKey: rangeOf(t.KeySchema),
      billingMode: t.BillingModeSummary?.BillingMode === 'PAY_PER_REQUEST' ? 'PAY_PER_REQUEST' : 'PROVISIONED',
      indexes: [
        ...(t.GlobalSecondaryIndexes ?? []).map((i) => ({
          name: i.IndexName!,
          kind: 'global' as const,
          partitionKey: hashOf(i.KeySchema),
          sortKey: rangeOf(i.KeySchema),
        })),
        ...(t.LocalSecondaryIndexes ?? []).map((i) => ({
          name: i.IndexName!,
          kind: 'local' as const,
          partitionKey: hashOf(i.KeySchema),
          sortKey: rangeOf(i.KeySchema),
        })),
      ],
    };
  } catch (e) {
    return { ok: false, problem: classify(e, ctx('dynamodb:DescribeTable')), error: e };
  }
  const indexInfo = index ? table.indexes.find((i) => i.name === index) : undefined;
  if (index && !indexInfo) {
    const names = table.indexes.map((i) => i.name);
    return {
      ok: false,
      problem: {
        code: 'index-not-found',
        message: `Table "${target.table}" has no index "${index}"${names.length ? `; its indexes: ${names.join(', ')}` : ' (it has no secondary index)'}.`,
        command: null,
      },
      error: null,
    };
  }
  const hasSortKey = (indexInfo ? indexInfo.sortKey : table.sortKey) !== null;
  const periodSeconds = target.periodSeconds ?? periodFor(target.window);
  const range = windowRange(target.window, nowMs);
  // The window starts on a period boundary, so Contributor Insights' periods and
  // CloudWatch's are the same periods and a key's datapoint meets the table's reads and
  // writes of the same seconds.
  const startMs = Math.floor(range.startMs / (periodSeconds * 1000)) * periodSeconds * 1000;
  const endMs = range.endMs;
  const problems: HeatProblem[] = [];
  const reports: RuleReport[] = [];
  let mode: InsightsMode | null = null;

  try {
    const ci = await withBackoff(
      () =>
        clients.ddb.send(
          new DescribeContributorInsightsCommand({ TableName: target.table, IndexName: index ?? undefined }),
        ),
      backoff,
    );
    const status = ci.ContributorInsightsStatus ?? 'DISABLED';
    if (status === 'ENABLED') {
      mode = (ci.ContributorInsightsMode as InsightsMode | undefined) ?? 'ACCESSED_AND_THROTTLED_KEYS';
      for (const rule of ci.ContributorInsightsRuleList ?? []) {
        const kind = ruleKindOf(rule);
        if (!kind || (kind.startsWith('SK') && !hasSortKey)) continue;
        try {
          reports.push(await ruleReport(clients, rule, kind, startMs, endMs, periodSeconds, backoff));
        } catch (e) {
          problems.push(classify(e, ctx('cloudwatch:GetInsightRuleReport')));
        }
      }
    } else {
      problems.push(insightsProblem(status, target.table, index));
    }
  } catch (e) {
    problems.push(classify(e, ctx('dynamodb:DescribeContributorInsights')));
  }

  let metrics = null;
  let series = null;
  let periods = new Map<number, PeriodOps>();
  try {
    const queries = metricQueries(target.table, indexInfo?.kind === 'global' ? index : null, periodSeconds);
    const points = await metricData(clients, queries, startMs, endMs, backoff);
    metrics = sumMetrics(valuesOf(points));
    series = seriesOf(points, { startMs, endMs, periodSeconds });
    periods = periodOps(points);
  } catch (e) {
    problems.push(classify(e, ctx('cloudwatch:GetMetricData')));
  }

  return {
    ok: true,
    live: {
      table,
      index,
      window: target.window,
      periodSeconds,
      startMs,
      endMs,
      mode,
      reports,
      metrics,
      series,
      periods,
      problems: dedupe(problems),
    },
  };
}

async function ruleReport(
  clients: HeatClients,
  rule: string,
  kind: RuleKind,
  startMs: number,
  endMs: number,
  periodSeconds: number,
  backoff: BackoffOptions,
): Promise<RuleReport> {
  const r = await withBackoff(
    () =>
      clients.cw.send(
        new GetInsightRuleReportCommand({
          RuleName: rule,
          StartTime: new Date(startMs),
          EndTime: new Date(endMs),
          Period: periodSeconds,
          MaxContributorCount: MAX_CONTRIBUTORS,
          OrderBy: 'Sum',
        }),
      ),
    backoff,
  );
  const contributors: Contributor[] = (r.Contributors ?? []).map((c) => ({
    keys: c.Keys ?? [],
    value: c.ApproximateAggregateValue ?? 0,
    peak: Math.max(0, ...(c.Datapoints ?? []).map((d) => d.ApproximateValue ?? 0)),
    points: (c.Datapoints ?? []).map((d) => ({ t: d.Timestamp?.getTime() ?? NaN, v: d.ApproximateValue ?? 0 })),
  }));
  return { kind, rule, keyLabels: r.KeyLabels ?? [], aggregateValue: r.AggregateValue ?? 0, contributors };
}

/** Metric name → its datapoints (period start, Sum), following NextToken. */
async function metricData(
  clients: HeatClients,
  queries: MetricDataQuery[],
  startMs: number,
  endMs: number,
  backoff: BackoffOptions,
): Promise<Map<string, MetricPoint[]>> {
  const out = new Map<string, MetricPoint[]>();
  let token: string | undefined;
  do {
    const r = await withBackoff(
      () =>
        clients.cw.send(
          new GetMetricDataCommand({
            MetricDataQueries: queries,
            StartTime: new Date(startMs),
            EndTime: new Date(endMs),
            NextToken: token,
          }),
        ),
      backoff,
    );
    for (const m of r.MetricDataResults ?? []) {
      const label = queries.find((q) => q.Id === m.Id)?.MetricStat?.Metric?.MetricName ?? m.Id ?? '';
      const values = m.Values ?? [];
      const points = (m.Timestamps ?? []).map((t, i) => ({ t: t.getTime(), v: values[i] ?? 0 }));
      out.set(label, [...(out.get(label) ?? []), ...points]);
    }
    token = r.NextToken;
  } while (token);
  for (const name of THROTTLE_METRICS) if (!out.has(name)) out.set(name, []);
  return out;
}

function dedupe(problems: HeatProblem[]): HeatProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => !seen.has(p.message) && seen.add(p.message));
}
