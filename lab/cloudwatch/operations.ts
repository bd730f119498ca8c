// The CloudWatch operations the lab answers: GetMetricStatistics and
// GetMetricData over the AWS/DynamoDB metrics it records, and
// GetInsightRuleReport / DescribeInsightRules over the Contributor Insights
// rules of tables that have insights on. Inputs are protocol-neutral objects;
// outputs carry Dates, which each protocol writes in its own way.

import { buildReport, MAX_CONTRIBUTORS, REPORT_METRICS } from '../insights/report';
import { ruleName, type InsightsRegistry } from '../insights/registry';
import type { Dimensions, MetricStore } from '../metrics/metric-store';
import { STATISTICS } from '../metrics/stat';
import { invalidParameter, ruleNotFound, unknownCloudWatchOperation } from './errors';
import { integer, list, object, required, text, texts, timestamp, type Input } from './input';

export const NAMESPACE = 'AWS/DynamoDB';
const MAX_QUERIES = 500;

export interface CloudWatchBackend {
  metrics: MetricStore;
  insights: InsightsRegistry;
  /** The lab's own period; requested periods must be multiples of it. */
  periodMs: number;
}

function periodOf(input: Input, periodMs: number, name = 'Period'): number {
  const seconds = integer(input, name);
  const ms = seconds * 1000;
  if (seconds <= 0 || ms % periodMs !== 0) {
    throw invalidParameter(
      `The parameter ${name} must be a positive multiple of the lab's period (${periodMs / 1000} s); got ${seconds}.`,
    );
  }
  return ms;
}

function timeRange(input: Input, periodMs: number): { startMs: number; endMs: number } {
  const start = timestamp(input, 'StartTime');
  const endMs = timestamp(input, 'EndTime');
  if (endMs <= start) throw invalidParameter('The parameter StartTime must be less than the parameter EndTime.');
  // CloudWatch aligns datapoints to period boundaries; so does the lab.
  return { startMs: Math.floor(start / periodMs) * periodMs, endMs };
}

function dimensionsOf(v: unknown): Dimensions {
  const dims: Dimensions = {};
  for (const d of Array.isArray(v) ? v : []) {
    const o = object(d, 'Dimensions.member');
    dims[text(o, 'Name')] = text(o, 'Value');
  }
  return dims;
}

function checkStat(stat: string): void {
  if (!(STATISTICS as readonly string[]).includes(stat)) {
    throw invalidParameter(
      `The lab supports the statistics ${STATISTICS.join(', ')}; "${stat}" (percentiles, trimmed means) is not supported.`,
    );
  }
}

function getMetricStatistics(b: CloudWatchBackend, input: Input): Input {
  const namespace = text(input, 'Namespace');
  const name = text(input, 'MetricName');
  const stats = texts(input, 'Statistics');
  if (list(input, 'ExtendedStatistics').length > 0) {
    throw invalidParameter('The lab does not support ExtendedStatistics (percentiles).');
  }
  if (stats.length === 0) throw invalidParameter('The parameter Statistics or ExtendedStatistics is required.');
  stats.forEach(checkStat);
  const period = periodOf(input, b.periodMs);
  const { startMs, endMs } = timeRange(input, period);
  const buckets =
    namespace === NAMESPACE ? b.metrics.query(name, dimensionsOf(input.Dimensions), startMs, endMs, period) : [];
  return {
    Label: name,
    Datapoints: buckets.map((bk) => {
      const dp: Input = { Timestamp: new Date(bk.start), Unit: 'Count' };
      for (const s of stats) dp[s] = bk.value.get(s);
      return dp;
    }),
  };
}

function getMetricData(b: CloudWatchBackend, input: Input): Input {
  const queries = list(input, 'MetricDataQueries');
  if (queries.length === 0) required(input, 'MetricDataQueries');
  if (queries.length > MAX_QUERIES)
    throw invalidParameter(`The collection MetricDataQueries must not have a size greater than ${MAX_QUERIES}.`);
  const startIn = timestamp(input, 'StartTime');
  const endMs = timestamp(input, 'EndTime');
  if (endMs <= startIn) throw invalidParameter('The parameter StartTime must be less than the parameter EndTime.');
  const descending = text(input, 'ScanBy', 'TimestampDescending') !== 'TimestampAscending';
  const results: Input[] = [];
  for (const q of queries) {
    const query = object(q, 'MetricDataQueries.member');
    const id = text(query, 'Id');
    if (!/^[a-z][a-zA-Z0-9_]*$/.test(id)) {
      throw invalidParameter(
        `The value ${id} for parameter MetricDataQueries.member.Id is not valid: it must start with a lowercase letter and contain only letters, digits and underscores.`,
      );
    }
    if (query.Expression !== undefined) {
      throw invalidParameter(
        `The lab does not evaluate metric math (query ${id}); ask for the metrics with MetricStat and combine them yourself.`,
      );
    }
    const stat = object(required(query, 'MetricStat'), 'MetricStat');
    const metric = object(required(stat, 'Metric'), 'MetricStat.Metric');
    const statName = text(stat, 'Stat');
    checkStat(statName);
    const period = periodOf(stat, b.periodMs);
    const startMs = Math.floor(startIn / period) * period;
    const name = text(metric, 'MetricName');
    const buckets =
      text(metric, 'Namespace') === NAMESPACE
        ? b.metrics.query(name, dimensionsOf(metric.Dimensions), startMs, endMs, period)
        : [];
    if (descending) buckets.reverse();
    const returnData = query.ReturnData === undefined || query.ReturnData === true || query.ReturnData === 'true';
    if (!returnData) continue;
    results.push({
      Id: id,
      Label: typeof query.Label === 'string' ? query.Label : name,
      Timestamps: buckets.map((bk) => new Date(bk.start)),
      Values: buckets.map((bk) => bk.value.get(statName) ?? 0),
      StatusCode: 'Complete',
    });
  }
  return { MetricDataResults: results, Messages: [] };
}

function getInsightRuleReport(b: CloudWatchBackend, input: Input): Input {
  const name = text(input, 'RuleName');
  const period = periodOf(input, b.periodMs);
  const { startMs, endMs } = timeRange(input, period);
  const max = integer(input, 'MaxContributorCount', MAX_CONTRIBUTORS);
  if (max < 1 || max > 100) throw invalidParameter('The parameter MaxContributorCount must be between 1 and 100.');
  const metrics = texts(input, 'Metrics');
  for (const m of metrics) {
    if (!(REPORT_METRICS as readonly string[]).includes(m)) {
      throw invalidParameter(`The metric ${m} is not one of ${REPORT_METRICS.join(', ')}.`);
    }
  }
  const orderBy = text(input, 'OrderBy', 'Sum');
  if (orderBy !== 'Sum' && orderBy !== 'Maximum')
    throw invalidParameter('The parameter OrderBy must be Sum or Maximum.');
  const found = b.insights.findRule(name);
  if (!found) throw ruleNotFound(name);
  return buildReport(found.entry, found.kind, {
    startMs,
    endMs,
    periodMs: period,
    maxContributors: max,
    metrics,
    orderBy,
  }) as unknown as Input;
}

function describeInsightRules(b: CloudWatchBackend): Input {
  const rules: Input[] = [];
  for (const e of b.insights.all()) {
    if (e.status !== 'ENABLED' && e.status !== 'ENABLING') continue;
    for (const kind of e.rules.keys()) {
      const keys = kind.startsWith('PK') ? [e.hashKey] : [e.hashKey, e.rangeKey];
      rules.push({
        Name: ruleName(e, kind),
        State: 'ENABLED',
        Schema: 'CloudWatchLogRule/1',
        Definition: JSON.stringify({
          Schema: { Name: 'CloudWatchLogRule', Version: 1 },
          Contribution: { Keys: keys, ValueOf: kind.endsWith('C') ? 'ConsumedThroughputUnits' : 'ThrottleCount' },
          AggregateOn: 'Sum',
        }),
        ManagedRule: true,
      });
    }
  }
  return { InsightRules: rules };
}

export const CLOUDWATCH_OPERATIONS = [
  'DescribeInsightRules',
  'GetInsightRuleReport',
  'GetMetricData',
  'GetMetricStatistics',
];

export function runCloudWatch(b: CloudWatchBackend, op: string, input: Input): Input {
  switch (op) {
    case 'GetMetricStatistics':
      return getMetricStatistics(b, input);
    case 'GetMetricData':
      return getMetricData(b, input);
    case 'GetInsightRuleReport':
      return getInsightRuleReport(b, input);
    case 'DescribeInsightRules':
      return describeInsightRules(b);
    default:
      throw unknownCloudWatchOperation(op, CLOUDWATCH_OPERATIONS);
  }
}
