/** Findings: what a rule reports on an access, the fixes it offers, and how the workspace uses the key. */
import type { Access } from './access';
import type { FileRole } from './file-context';
import type { ShardCount, ShardSet } from './key-template';
import type { TenantRoute } from './library-access';
import type { SourceRange, Span } from './range';

/** How a partition key spreads traffic: one definition, shared with the JSON contract. */
export type { Classification } from '../../../../protocol/src/report';

export type Severity = 'error' | 'warning' | 'info';

/** Another place that explains a finding: the constant's declaration, the writer of a key. */
export interface RelatedLocation {
  file: string;
  span: Span;
  message: string;
}

/**
 * What could be done about a finding, as plain data; the features layer turns it
 * into edits. `key` names the logical key (its display form).
 */
export type FixDescriptor =
  | {
      kind: 'add-shard-suffix';
      key: string;
      /**
       * Where to append the shard: the origin of the key's last literal part when the
       * key ends in literal text, else the key expression itself (appending after
       * `LOGS#` in `LOGS#{time}` would be wrong).
       */
      at: SourceRange;
      separator: string;
      /** The shard count the workspace already uses for this key, if any. */
      shardCount: ShardCount | null;
    }
  | { kind: 'scatter-gather-reader'; key: string; shards: ShardSet; writer: SourceRange }
  | { kind: 'align-shard-range'; key: string; want: number[]; have: number[]; writer: SourceRange }
  | { kind: 'paginate-shards'; key: string }
  /** A counter item every caller increments: spread the count over N items and sum them on read. */
  | { kind: 'spread-counter'; key: string }
  /**
   * A read of a read-hot key (`KeyUse`): serve it from an in-process cache for `ttlSeconds`,
   * one caller refreshing an expired entry while the others wait for it or get the stale value.
   */
  | { kind: 'cache-read'; key: string; ttlSeconds: number }
  /**
   * A Kafka record keyed by few values or a constant (SL020): key it by `by`, the entity id
   * the code reads beside the key (`order.id` for `order.status`), or with `by` null append a
   * random suffix of `suffixes` values to the key. Either changes which records keep one order.
   */
  | { kind: 'rekey-record'; key: string; by: string | null; suffixes: number }
  /**
   * A tenant routed by a hash with nothing to send a hot tenant elsewhere (SL021): a module
   * map of dedicated tenants, each to its own shard number, read before the hash.
   */
  | { kind: 'dedicated-tenants'; key: string; route: TenantRoute };

/** The kinds of fix descriptor: what a rule declares it may carry (`RuleInfo.fixKinds`). */
export type FixKind = FixDescriptor['kind'];

/** The descriptor of a write-shard fix: append a shard suffix to a write's key. */
export type ShardSuffix = Extract<FixDescriptor, { kind: 'add-shard-suffix' }>;

export interface Finding {
  file: string;
  /** The finding's own range: the key expression at its use site by default. */
  span: Span;
  rule: string;
  category: string;
  severity: Severity;
  message: string;
  access: Access;
  related: RelatedLocation[];
  fixes: FixDescriptor[];
  /** Which of its rule's messages (`RuleInfo.messages`) this is. */
  messageId?: string;
  /** The role of the code the finding sits in (`app` when not said). */
  context?: FileRole;
  /** How the workspace uses the finding's logical key (read-hot, write-hot or both), for a hot-key finding. */
  keyUse?: KeyUse;
  /**
   * What the finding said before its key's verdict reworded it (`rules/key-use.ts`): live
   * data that decides the verdict otherwise judges the finding again from this.
   */
  unjudged?: Pick<Finding, 'severity' | 'message' | 'messageId' | 'fixes'>;
}

/**
 * Whether a logical key is hot by its reads, its writes or both, as the workspace shows
 * it (`rules/key-use.ts`): the call sites on paths that run per request (application code,
 * not only tests, scripts or schedules) that read and write it, and the entry points
 * reaching them where the reachability pass knows them. `mostly` says a key written too is
 * judged read-hot because its reads are reached from at least three times as many entry
 * points (or, with none known, call sites) as its writes.
 */
export interface KeyUse {
  verdict: 'read' | 'write' | 'both';
  reads: number;
  writes: number;
  /** Entry points that reach the reads / the writes; null when the reachability pass knows none. */
  readEntries: number | null;
  writeEntries: number | null;
  /**
   * API Gateway integrations that read / write the key in their definitions, without code
   * (`keys/direct-requests.ts`): each an API method, run per request, counted among the
   * entry points too. Absent when there are none.
   */
  directReads?: number;
  directWrites?: number;
  /**
   * State machine steps that read / write the key without code (a `dynamodb:getItem` task)
   * in a machine an API route, an API event or an event starts: each runs as often as its
   * machine, counted among the entry points too. A machine started on a schedule, or by
   * code or a person (how often is not written), is left out. Absent when there are none.
   */
  stepReads?: number;
  stepWrites?: number;
  mostly?: true;
  /** Set when live data decided the verdict (`rules/live-use.ts`): what Contributor Insights and CloudWatch showed. */
  live?: LiveUse;
}

/**
 * A logical key's reads and writes over a live window, as the heat service attributed its
 * Contributor Insights units and throttles (docs/heat.md, "Whose calls"). Units are the
 * service's: read capacity units (an eventually consistent read of up to 4 KB is half of
 * one) and write capacity units (Contributor Insights counts each as 3). Peaks are the
 * busiest report period's units per second.
 */
export interface LiveUse {
  window: string;
  readUnits: number;
  writeUnits: number;
  readPeak: number;
  writePeak: number;
  readThrottles: number;
  writeThrottles: number;
}
