import { RequestType } from 'vscode-languageserver-protocol';
import type { JsonKeysReport } from './report';

/**
 * The live-heat contract, version 1: `shardlens heat --format json` prints a
 * `JsonHeatReport`, and the language server answers `shardlens/heat` with the same
 * shape, so the panel, the CLI and other tools read one thing. Within a version
 * fields are only added. Documented in docs/heat.md, schema in
 * docs/schemas/heat.schema.json.
 */

export type HeatWindow = '15m' | '1h' | '3h' | '24h';

/** Contributor Insights mode of the table or index; null when it is not enabled. */
export type InsightsMode = 'ACCESSED_AND_THROTTLED_KEYS' | 'THROTTLED_KEYS';

/** One concrete partition key value as Contributor Insights reports it. */
export interface JsonLiveKey {
  key: string;
  /** ConsumedThroughputUnits (3 × write units + read units) over the window; null in THROTTLED_KEYS mode. */
  consumedUnits: number | null;
  /** Throttle events over the window (0 when the key is not among the throttled contributors). */
  throttles: number;
  /** The highest units per second of one report period; null in THROTTLED_KEYS mode. */
  peakUnitsPerSecond: number | null;
}

/** What one kind of call did to a key. */
export interface JsonOpHeat {
  consumedUnits: number | null;
  throttles: number;
  peakUnitsPerSecond: number | null;
}

export interface JsonShardHeat {
  shard: number;
  consumedUnits: number | null;
  throttles: number;
}

export interface JsonKeyHeat {
  /** The logical key's display form (docs/keys.md). */
  logicalKey: string;
  /** Its template without the shard part. */
  template: string;
  /** The call sites: `kind` says whose figures (`operations.read` or `.write`) are theirs. */
  sites: Array<{ file: string; line: number; kind: 'read' | 'write'; operation: string }>;
  /** 1 for the key with the most consumed units (throttles when the mode has no units). */
  rank: number;
  consumedUnits: number | null;
  /** consumedUnits / the table's (or index's) total consumed units over the window, 0..1. */
  share: number | null;
  throttles: number;
  peakUnitsPerSecond: number | null;
  /**
   * The same figures by the calls that made them, from CloudWatch's per-period read/write
   * split (Contributor Insights counts both on one scale): `unknown` is what periods with
   * both reads and writes leave open. The three add up to the key's figures.
   */
  operations: { read: JsonOpHeat; write: JsonOpHeat; unknown: JsonOpHeat };
  /** Every shard of the set with its units, for a sharded key; null otherwise. */
  shards: JsonShardHeat[] | null;
  /** max and mean units per shard over the set (mean counts idle shards); null when not sharded. */
  shardBalance: { maxShard: number; max: number; mean: number; ratio: number } | null;
  topKeys: JsonLiveKey[];
  /** The hottest items (partition key + sort key) of this key, from the SKC/SKT rules. */
  topItems: Array<{ key: string; sortKey: string; consumedUnits: number | null; throttles: number }>;
}

export interface JsonHeatProblem {
  /** A stable code: insights-disabled, access-denied, expired-token, no-credentials, ... (docs/heat.md). */
  code: string;
  /** What went wrong and what to do, in one or two sentences. */
  message: string;
  /** A shell command that fixes it, when there is one. */
  command: string | null;
}

export interface JsonHeatReport {
  version: 1;
  table: string;
  index: string | null;
  window: HeatWindow;
  /** Start and end of the window, ISO 8601. */
  from: string;
  to: string;
  periodSeconds: number;
  mode: InsightsMode | null;
  billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED';
  /** The resource's total consumed units over the window (every contributor, not only the top 25). */
  totalUnits: number | null;
  keys: JsonKeyHeat[];
  unmatched: JsonLiveKey[];
  /** CloudWatch's figures for the resource over the window; null when they could not be read. */
  metrics: {
    consumedReadUnits: number;
    consumedWriteUnits: number;
    readThrottleEvents: number;
    writeThrottleEvents: number;
    /** Metric name → sum, e.g. WriteKeyRangeThroughputThrottleEvents. */
    throttlesByReason: Record<string, number>;
  } | null;
  problems: JsonHeatProblem[];
}

/** What `shardlens heat --format json` prints when AWS gave no report (exit code 1). */
export interface JsonHeatFailure {
  version: 1;
  error: JsonHeatProblem;
}

export interface HeatParams {
  table: string;
  index?: string | null;
  window?: HeatWindow;
  /** Skip the cache and ask AWS again. */
  refresh?: boolean;
}

/**
 * CloudWatch's figures for the resource per report period over the window: the same
 * metrics `metrics` sums, kept per period so the panel can draw them over time. Not in
 * `JsonHeatReport`, whose JSON stays sums; `shardlens/heat` sends it beside the report.
 */
export interface HeatSeries {
  /** Period starts, epoch seconds, ascending. */
  times: number[];
  consumedReadUnits: number[];
  consumedWriteUnits: number[];
  /** Metric name (e.g. WriteKeyRangeThroughputThrottleEvents) → events per period; reasons with no event left out. */
  throttlesByReason: Record<string, number[]>;
}

/**
 * The answer to `shardlens/heat`: the report (with its series, null when CloudWatch's
 * figures could not be read), or the one problem that stopped it.
 */
export type HeatResult =
  { ok: true; report: JsonHeatReport; series?: HeatSeries | null } | { ok: false; problem: JsonHeatProblem };

/** Client → server: the workspace's logical keys (the `shardlens keys --format json` shape). */
export const KeysRequest = new RequestType<Record<string, never>, JsonKeysReport, void>('shardlens/keys');
/** Client → server: the linked live heat of one table or index. */
export const HeatRequest = new RequestType<HeatParams, HeatResult, void>('shardlens/heat');

/** The answer to `shardlens/listTables`: the account's tables in the connection's region. */
export type ListTablesResult = { ok: true; tables: string[] } | { ok: false; problem: JsonHeatProblem };
/**
 * Client → server: the account's table names (`ListTables`), for the pick that maps an
 * environment-named table of the code (`$SCORES_TABLE_NAME`) to one of them.
 */
export const ListTablesRequest = new RequestType<Record<string, never>, ListTablesResult, void>('shardlens/listTables');
