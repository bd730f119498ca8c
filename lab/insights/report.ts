// GetInsightRuleReport for a lab rule: contributors ranked over the time
// range, their datapoints per requested period, and the rule's metrics.

import { HyperLogLog } from '../metrics/hyperloglog';
import { Stat } from '../metrics/stat';
import type { InsightsEntry, RuleKind } from './registry';
import type { RulePeriod } from './rule-data';

/** Contributor Insights for DynamoDB reports at most this many contributors. */
export const MAX_CONTRIBUTORS = 25;
export const REPORT_METRICS = [
  'UniqueContributors',
  'MaxContributorValue',
  'SampleCount',
  'Average',
  'Sum',
  'Minimum',
  'Maximum',
] as const;

export interface ReportRequest {
  startMs: number;
  endMs: number;
  periodMs: number;
  maxContributors: number;
  metrics: string[];
  orderBy: 'Sum' | 'Maximum';
}

export interface Report {
  KeyLabels: string[];
  AggregationStatistic: 'Sum';
  AggregateValue: number;
  ApproximateUniqueCount: number;
  Contributors: Array<{
    Keys: string[];
    ApproximateAggregateValue: number;
    Datapoints: Array<{ Timestamp: Date; ApproximateValue: number }>;
  }>;
  MetricDatapoints: Array<Record<string, number | Date>>;
}

interface PeriodAgg {
  start: number;
  values: Map<string, number>;
  unique: HyperLogLog;
  events: Stat;
}

function keysOf(kind: RuleKind, key: string): string[] {
  return kind === 'SKC' || kind === 'SKT' ? (JSON.parse(key) as string[]) : [key];
}

export function buildReport(entry: InsightsEntry, kind: RuleKind, q: ReportRequest): Report {
  const rule = entry.rules.get(kind);
  const periods = new Map<number, PeriodAgg>();
  const totalUnique = new HyperLogLog();
  const total = new Stat();
  for (const b of rule ? rule.ring.range(q.startMs, q.endMs) : []) {
    const start = q.startMs + Math.floor((b.start - q.startMs) / q.periodMs) * q.periodMs;
    let agg = periods.get(start);
    if (!agg) periods.set(start, (agg = { start, values: new Map(), unique: new HyperLogLog(), events: new Stat() }));
    const p: RulePeriod = b.value;
    for (const [key, v] of p.top.entries()) agg.values.set(key, (agg.values.get(key) ?? 0) + v);
    agg.unique.merge(p.unique);
    agg.events.merge(p.events);
    totalUnique.merge(p.unique);
    total.merge(p.events);
  }
  const ordered = [...periods.values()].sort((a, b) => a.start - b.start);

  const perKey = new Map<
    string,
    { sum: number; max: number; points: Array<{ Timestamp: Date; ApproximateValue: number }> }
  >();
  for (const p of ordered) {
    for (const [key, v] of p.values) {
      let c = perKey.get(key);
      if (!c) perKey.set(key, (c = { sum: 0, max: 0, points: [] }));
      c.sum += v;
      c.max = Math.max(c.max, v);
      c.points.push({ Timestamp: new Date(p.start), ApproximateValue: v });
    }
  }
  const rank = q.orderBy === 'Maximum' ? (c: { max: number }) => c.max : (c: { sum: number }) => c.sum;
  const contributors = [...perKey]
    .sort((a, b) => rank(b[1]) - rank(a[1]) || (a[0] < b[0] ? -1 : 1))
    .slice(0, Math.min(q.maxContributors, MAX_CONTRIBUTORS))
    .map(([key, c]) => ({ Keys: keysOf(kind, key), ApproximateAggregateValue: c.sum, Datapoints: c.points }));

  const metricDatapoints = q.metrics.length
    ? ordered.map((p) => {
        const dp: Record<string, number | Date> = { Timestamp: new Date(p.start) };
        const maxContributor = Math.max(0, ...p.values.values());
        const values: Record<string, number> = {
          UniqueContributors: p.unique.count(),
          MaxContributorValue: maxContributor,
          SampleCount: p.events.count,
          Average: p.events.get('Average') ?? 0,
          Sum: p.events.sum,
          Minimum: p.events.get('Minimum') ?? 0,
          Maximum: p.events.get('Maximum') ?? 0,
        };
        for (const m of q.metrics) dp[m] = values[m];
        return dp;
      })
    : [];

  return {
    KeyLabels: kind === 'SKC' || kind === 'SKT' ? [entry.hashKey, entry.rangeKey ?? ''] : [entry.hashKey],
    AggregationStatistic: 'Sum',
    AggregateValue: total.sum,
    ApproximateUniqueCount: totalUnique.count(),
    Contributors: contributors,
    MetricDatapoints: metricDatapoints,
  };
}
