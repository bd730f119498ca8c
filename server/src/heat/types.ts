import type { HeatSeries, HeatWindow, InsightsMode } from '../../../protocol/src/heat';
import type { Access, LogicalKey, Span } from '../engine';

export type { HeatWindow, InsightsMode };

/**
 * The heat service's data, plain objects all the way: what AWS said (`LiveData`)
 * and what it means for the code (`HeatReport`). The JSON contract
 * (protocol/src/heat.ts) is derived from `HeatReport` by `toJsonHeat`.
 */

/** Where to read live data from. Credentials never appear here: only the SDK's default chain supplies them. */
export interface HeatConnection {
  /** A named profile of the shared config files; the SDK's default when absent. */
  profile?: string;
  /** The region; the SDK's default (AWS_REGION, the profile) when absent. */
  region?: string;
  /** One URL for DynamoDB and CloudWatch (the lab); the regional endpoints when absent. */
  endpoint?: string;
  /** Per-request timeout; a slower answer is reported as a timeout. Default 10 s. */
  timeoutMs?: number;
}

export interface HeatTarget {
  table: string;
  index?: string | null;
  window: HeatWindow;
  /** Report period in seconds; by default one that suits the window (see `periodFor`). */
  periodSeconds?: number;
  /** The code's names for this table (`$SCORES_TABLE_NAME` mapped to it): its keys link first. */
  aliases?: string[];
}

export type RuleKind = 'PKC' | 'PKT' | 'SKC' | 'SKT';

/** One contributor of a rule report: its key values (as the report's KeyLabels order them). */
export interface Contributor {
  keys: string[];
  /** Sum over the window. */
  value: number;
  /** The largest single-period value. */
  peak: number;
  /** Its value per report period (period start, epoch ms); empty when the report gave none. */
  points: Array<{ t: number; v: number }>;
}

export interface RuleReport {
  kind: RuleKind;
  /** The rule's name as DescribeContributorInsights listed it. */
  rule: string;
  keyLabels: string[];
  /** Every contributor's total over the window, not only the top ones. */
  aggregateValue: number;
  contributors: Contributor[];
}

export interface IndexInfo {
  name: string;
  kind: 'global' | 'local';
  partitionKey: string;
  sortKey: string | null;
}

export interface TableInfo {
  table: string;
  partitionKey: string;
  sortKey: string | null;
  billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED';
  indexes: IndexInfo[];
}

/** The same metrics per report period (the panel's time series): protocol/src/heat.ts. */
export type MetricSeries = HeatSeries;

export interface MetricTotals {
  consumedReadUnits: number;
  consumedWriteUnits: number;
  readThrottleEvents: number;
  writeThrottleEvents: number;
  throttlesByReason: Record<string, number>;
}

export type ProblemCode =
  | 'insights-disabled'
  | 'insights-enabling'
  | 'access-denied'
  | 'expired-token'
  | 'no-credentials'
  | 'no-region'
  | 'unknown-region'
  | 'endpoint-unreachable'
  | 'timeout'
  | 'throttled'
  | 'table-not-found'
  | 'index-not-found'
  | 'table-unmapped'
  | 'failed';

/** A failure as the user should read it: what happened, what to do, and a command when one fixes it. */
export interface HeatProblem {
  code: ProblemCode;
  message: string;
  command: string | null;
  /** Set on insights-disabled: what `enableInsights` would switch on. */
  enable?: { table: string; index: string | null; mode: InsightsMode };
}

/**
 * The resource's reads and writes in one report period, from CloudWatch: what tells
 * whose a key's units and throttles were, since Contributor Insights counts both on one
 * scale per key (its rules do not split reads from writes).
 */
export interface PeriodOps {
  readUnits: number;
  writeUnits: number;
  readThrottles: number;
  writeThrottles: number;
}

/** Everything fetched for one table or index over one window. */
export interface LiveData {
  table: TableInfo;
  index: string | null;
  window: HeatWindow;
  periodSeconds: number;
  startMs: number;
  endMs: number;
  mode: InsightsMode | null;
  reports: RuleReport[];
  metrics: MetricTotals | null;
  /** Null when GetMetricData failed (as `metrics`). */
  series: MetricSeries | null;
  /** Period start (epoch ms) → the resource's reads and writes then; empty when GetMetricData failed. */
  periods: Map<number, PeriodOps>;
  problems: HeatProblem[];
}

/** A concrete partition key value with its live figures. */
export interface LiveKey {
  key: string;
  consumedUnits: number | null;
  throttles: number;
  peakUnitsPerSecond: number | null;
}

/** What one operation did to a key: read figures for readers, write figures for writers. */
export interface OpHeat {
  /** ConsumedThroughputUnits (a write unit counts 3); null in THROTTLED_KEYS mode. */
  consumedUnits: number | null;
  throttles: number;
  /** The busiest report period's units per second; null in THROTTLED_KEYS mode. */
  peakUnitsPerSecond: number | null;
}

/**
 * A key's figures by operation: `read` and `write` are what CloudWatch's per-period
 * read/write split proves (see attribute.ts), `unknown` what could be either (periods
 * with both, and reports without datapoints). The three add up to the key's figures.
 */
export interface KeyOps {
  read: OpHeat;
  write: OpHeat;
  unknown: OpHeat;
}

export interface HeatSite {
  file: string;
  span: Span;
  kind: 'read' | 'write';
  access: Access;
}

export interface ShardHeat {
  shard: number;
  consumedUnits: number | null;
  throttles: number;
}

export interface ShardBalance {
  maxShard: number;
  max: number;
  /** Over every shard of the set, idle ones included. */
  mean: number;
  ratio: number;
}

export interface KeyHeat {
  key: LogicalKey;
  /**
   * Other logical keys of the code that are this same key on this table (its name under
   * another table name of the code, mapped here): their calls are among `sites`.
   */
  aliases: string[];
  template: string;
  sites: HeatSite[];
  rank: number;
  consumedUnits: number | null;
  share: number | null;
  throttles: number;
  peakUnitsPerSecond: number | null;
  /** The same figures by the operation that made them: shown on readers and writers apart. */
  operations: KeyOps;
  shards: ShardHeat[] | null;
  shardBalance: ShardBalance | null;
  topKeys: LiveKey[];
  topItems: Array<{ key: string; sortKey: string; consumedUnits: number | null; throttles: number }>;
}

export interface HeatReport {
  version: 1;
  table: string;
  index: string | null;
  window: HeatWindow;
  startMs: number;
  endMs: number;
  periodSeconds: number;
  mode: InsightsMode | null;
  billingMode: TableInfo['billingMode'];
  totalUnits: number | null;
  keys: KeyHeat[];
  unmatched: LiveKey[];
  metrics: MetricTotals | null;
  series: MetricSeries | null;
  problems: HeatProblem[];
}

/** The outcome of one fetch: a report, or the problem that stopped it before any figure. */
export type HeatOutcome = { ok: true; report: HeatReport } | { ok: false; problem: HeatProblem };
