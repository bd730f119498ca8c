import type { MetricDataQuery } from '@aws-sdk/client-cloudwatch';
import type { MetricSeries, MetricTotals, PeriodOps } from './types';

/**
 * The AWS/DynamoDB metrics a heat report reads, summed over the window. Throttle
 * events are split by reason as DynamoDB publishes them: KeyRange (one partition
 * at its ceiling: the hot-key case), Provisioned (the table's or index's provisioned
 * rate), MaxOnDemand (the table's on-demand maximum) and AccountLimit.
 */
export const CONSUMED_METRICS = ['ConsumedReadCapacityUnits', 'ConsumedWriteCapacityUnits'] as const;
export const THROTTLE_METRICS = [
  'ReadThrottleEvents',
  'WriteThrottleEvents',
  ...(['Read', 'Write'] as const).flatMap((rw) =>
    ['KeyRangeThroughput', 'ProvisionedThroughput', 'MaxOnDemandThroughput', 'AccountLimit'].map(
      (reason) => `${rw}${reason}ThrottleEvents`,
    ),
  ),
];

/** One Sum query per metric; a global index adds the GlobalSecondaryIndexName dimension. */
export function metricQueries(table: string, globalIndex: string | null, periodSeconds: number): MetricDataQuery[] {
  const dimensions = [{ Name: 'TableName', Value: table }];
  if (globalIndex) dimensions.push({ Name: 'GlobalSecondaryIndexName', Value: globalIndex });
  return [...CONSUMED_METRICS, ...THROTTLE_METRICS].map((name, i) => ({
    Id: `m${i}`,
    MetricStat: {
      Metric: { Namespace: 'AWS/DynamoDB', MetricName: name, Dimensions: dimensions },
      Period: periodSeconds,
      Stat: 'Sum',
    },
    ReturnData: true,
  }));
}

/** One datapoint of a metric: its period's start (epoch ms) and the period's Sum. */
export interface MetricPoint {
  t: number;
  v: number;
}

/** Metric name → its values, in any order: what the sums need. */
export function valuesOf(points: Map<string, MetricPoint[]>): Map<string, number[]> {
  return new Map([...points].map(([name, ps]) => [name, ps.map((p) => p.v)]));
}

/** The window a series covers: [startMs, endMs) in periods of `periodSeconds`. */
export interface SeriesWindow {
  startMs: number;
  endMs: number;
  periodSeconds: number;
}

/**
 * The metrics per period on one time axis over the whole window: every period from the
 * window's start to its end (quiet ones too, so a chart shows when the traffic came, not
 * one lone point), plus any datapoint CloudWatch placed off that grid; 0 where a metric
 * has no datapoint (CloudWatch leaves out periods with no events). Throttle reasons that
 * never fired are left out, as in `sumMetrics`; the Read/Write totals are too (the
 * reasons split them).
 */
export function seriesOf(points: Map<string, MetricPoint[]>, w: SeriesWindow): MetricSeries {
  const step = w.periodSeconds * 1000;
  const grid: number[] = [];
  for (let t = Math.floor(w.startMs / step) * step; step > 0 && t < w.endMs; t += step) grid.push(t);
  const times = [...new Set([...grid, ...[...points.values()].flat().map((p) => p.t)])].sort((a, b) => a - b);
  const at = new Map(times.map((t, i) => [t, i]));
  const line = (name: string) => {
    const out = times.map(() => 0);
    for (const p of points.get(name) ?? []) out[at.get(p.t)!] += p.v;
    return out;
  };
  const throttlesByReason: Record<string, number[]> = {};
  for (const name of THROTTLE_METRICS) {
    if (name === 'ReadThrottleEvents' || name === 'WriteThrottleEvents') continue;
    const values = line(name);
    if (values.some((v) => v > 0)) throttlesByReason[name] = values;
  }
  return {
    times: times.map((t) => Math.floor(t / 1000)),
    consumedReadUnits: line('ConsumedReadCapacityUnits'),
    consumedWriteUnits: line('ConsumedWriteCapacityUnits'),
    throttlesByReason,
  };
}

const total = (xs: number[] | undefined) => (xs ?? []).reduce((s, x) => s + x, 0);

export function sumMetrics(values: Map<string, number[]>): MetricTotals {
  const throttlesByReason: Record<string, number> = {};
  for (const name of THROTTLE_METRICS) {
    if (name === 'ReadThrottleEvents' || name === 'WriteThrottleEvents') continue;
    const sum = total(values.get(name));
    if (sum > 0) throttlesByReason[name] = sum;
  }
  return {
    consumedReadUnits: total(values.get('ConsumedReadCapacityUnits')),
    consumedWriteUnits: total(values.get('ConsumedWriteCapacityUnits')),
    readThrottleEvents: total(values.get('ReadThrottleEvents')),
    writeThrottleEvents: total(values.get('WriteThrottleEvents')),
    throttlesByReason,
  };
}

/** Period start → the resource's read and write units and throttle events in that period. */
export function periodOps(points: Map<string, MetricPoint[]>): Map<number, PeriodOps> {
  const out = new Map<number, PeriodOps>();
  const add = (name: string, field: keyof PeriodOps) => {
    for (const p of points.get(name) ?? []) {
      let o = out.get(p.t);
      if (!o) out.set(p.t, (o = { readUnits: 0, writeUnits: 0, readThrottles: 0, writeThrottles: 0 }));
      o[field] += p.v;
    }
  };
  add('ConsumedReadCapacityUnits', 'readUnits');
  add('ConsumedWriteCapacityUnits', 'writeUnits');
  add('ReadThrottleEvents', 'readThrottles');
  add('WriteThrottleEvents', 'writeThrottles');
  return out;
}
