import type { MetricDataQuery } from '@aws-sdk/client-cloudwatch';
import type { MetricTotals } from './types';

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
