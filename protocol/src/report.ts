/**
 * The `shardlens check --format json` contract, version 1. Other tools read it:
 * within a version fields are only added; renaming, removing or changing what a
 * field means takes a new version.
 */
export type Classification =
  'constant' | 'time-bucket' | 'low-cardinality' | 'counter' | 'sharded' | 'high-cardinality' | 'unknown';

export interface JsonFinding {
  file: string;
  /** 1-based. */
  line: number;
  column: number;
  endLine: number;
  /** 1-based, exclusive. */
  endColumn: number;
  rule: string;
  category: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  table: string | null;
  keyTemplate: string;
  /** Other places that explain the finding: the key's constants, the writer of a key a reader misreads. */
  related: JsonRelated[];
  /** What could be done about it, as data (see docs/json-format.md). */
  fixes: JsonFix[];
  /**
   * Where the code runs: `app` (per request or per item), `test`, `example` or
   * `script` (once). One-off contexts are reported at `info` at most. Added within
   * version 1: readers of older output see no field and should assume `app`.
   */
  context?: 'app' | 'test' | 'example' | 'script';
  /**
   * How the workspace uses the key of a constant-key or few-values finding (SL001, SL003): `read` (read-hot:
   * only or mostly read), `write` or `both`, with the call sites on request paths that
   * read and write it and the entry points reaching each (null when none is known).
   * Added within version 1.
   */
  keyUse?: {
    verdict: 'read' | 'write' | 'both';
    reads: number;
    writes: number;
    readEntries: number | null;
    writeEntries: number | null;
    /** API Gateway integrations that read / write the key in their definitions, without code: counted among the entries, not the call sites. Absent when none. Added within version 1. */
    directReads?: number;
    directWrites?: number;
    /** State machine steps that read / write the key without code, in machines an API route, an API event or an event starts: counted among the entries, not the call sites. Absent when none. Added within version 1. */
    stepReads?: number;
    stepWrites?: number;
    /** `live` when the window's live reads and writes decided the verdict (`check --heat`); absent when the call sites did. Added within version 1. */
    source?: 'live';
    /** With `source: 'live'`: the key's reads and writes in the window (capacity units; peaks per second). */
    live?: {
      window: string;
      readUnits: number;
      writeUnits: number;
      readPeak: number;
      writePeak: number;
      readThrottles: number;
      writeThrottles: number;
    };
  };
}

/** A range in a file, 1-based; `endColumn` exclusive. */
export interface JsonLocation {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface JsonRelated extends JsonLocation {
  message: string;
}

export interface JsonShardCount {
  /** The count expression's source text (`BOARD_SHARDS`, `10`). */
  expression: string;
  /** The constant it names, or null for a literal. */
  name: string | null;
  declaration: JsonLocation | null;
  value: number | null;
}

export interface JsonShardSet {
  method: 'random' | 'hash' | 'loop' | 'list';
  values: number[] | null;
  count: JsonShardCount | null;
}

/** `key` is the logical key's display form (`leaderboard · PK = BOARD#global`). */
export type JsonFix =
  | { kind: 'add-shard-suffix'; key: string; at: JsonLocation; separator: string; shardCount: JsonShardCount | null }
  | { kind: 'scatter-gather-reader'; key: string; shards: JsonShardSet; writer: JsonLocation }
  | { kind: 'align-shard-range'; key: string; want: number[]; have: number[]; writer: JsonLocation }
  | { kind: 'paginate-shards'; key: string }
  | { kind: 'spread-counter'; key: string }
  | { kind: 'cache-read'; key: string; ttlSeconds: number }
  | { kind: 'rekey-record'; key: string; by: string | null; suffixes: number }
  | { kind: 'dedicated-tenants'; key: string; tenant: string };

export interface JsonAccess {
  file: string;
  line: number;
  column: number;
  operation: string;
  table: string | null;
  partitionKey: {
    attribute: string | null;
    template: string | null;
    classification: Classification;
    shards: number | null;
  };
  /** The secondary index a read goes through (`IndexName`), else null. */
  index: string | null;
  /** The logical key's display form: `leaderboard · PK = BOARD#global`; null when the key is unknown. */
  logicalKey: string | null;
  /** The sort-key condition (`=` for an item operation), or null. */
  sortKey: { attribute: string; operator: string; template: string } | null;
  /** Where the key enters the call (`PK: GLOBAL_BOARD`), 1-based. */
  use: { line: number; column: number } | null;
  /** A call to a wrapper in another module: where the DynamoDB call inside it is (added within version 1). */
  through?: { file: string; line: number; column: number };
  /** Read by the call's shape (a DynamoDB helper library outside the workspace); added within version 1. */
  guessed?: true;
  /** A call to a wrapper that picks the operation by name, named by this expression (not a literal): `operation` is then only the wrapper's first choice. */
  operationFrom?: string;
  /**
   * The code names the table by an environment variable, and infrastructure code sets it
   * for the functions that run this call (added within version 1). With a physical name
   * there, `table` is that name; else `table` stays `$VARIABLE`.
   */
  tableFrom?: { variable: string; logicalId: string | null; file: string };
  /** The functions that run this call set the variable to different tables: `table` stays `$VARIABLE`. */
  tableCandidates?: string[];
  /**
   * The entry points that reach the call (routes, schedules, consumers, handlers, scripts,
   * tests), present once the workspace's reachability pass has run; empty when none does.
   * Added within version 1.
   */
  entryPoints?: JsonEntryPoint[];
  /** `once-per-batch`: a consumer makes it outside the loop over its records; `unreached`: nothing reaches it. */
  reach?: 'once-per-batch' | 'unreached';
}

/** One entry point of `JsonAccess.entryPoints`. */
export interface JsonEntryPoint {
  kind: 'api' | 'schedule' | 'queue' | 'stream' | 'event' | 'websocket' | 'script' | 'test' | 'unknown';
  name: string;
  trigger: string;
  /** Invocations per hour a schedule states, else null. */
  ratePerHour: number | null;
  /** Where it is declared, 1-based. */
  file: string;
  line: number;
}

/** A trigger of a function, as infrastructure code declares it (`check --format json`, `functions[].triggers`). */
export interface JsonTrigger {
  kind: string;
  name: string;
  trigger: string;
  /** Invocations per hour a schedule states; null when not stated or not computed. */
  ratePerHour: number | null;
  batchSize: number | null;
  /** Where the template declares it, 1-based. */
  line: number;
}

/** A function infrastructure code declares (added within version 1). */
export interface JsonFunction {
  name: string;
  /** The template or service file, and the 1-based line of the function in it. */
  file: string;
  line: number;
  format: string;
  runtime: string | null;
  handler: string;
  /** The source file the handler leads to; null when it leads nowhere. */
  handlerFile: string | null;
  handlerFunction: string | null;
  triggers: JsonTrigger[];
  /** Variable → `{ kind: 'text' | 'template' | 'opaque', text }` or `{ kind: 'table', logicalId }`. */
  environment: Record<string, { kind: string; text?: string; logicalId?: string }>;
}

/** A DynamoDB table infrastructure code declares (added within version 1). */
export interface JsonTable {
  logicalId: string;
  /** The physical name the template states, deploy-time parts as `{$Stage}`; null when it states none. */
  tableName: string | null;
  file: string;
  line: number;
  partitionKey: { name: string; type: string | null } | null;
  sortKey: { name: string; type: string | null } | null;
  indexes: Array<{
    name: string;
    kind: 'global' | 'local';
    partitionKey: { name: string; type: string | null };
    sortKey: { name: string; type: string | null } | null;
  }>;
  billingMode: string | null;
  capacity: { read: number | null; write: number | null } | null;
  contributorInsights: boolean | null;
}

export interface JsonReport {
  version: 1;
  findings: JsonFinding[];
  accesses: JsonAccess[];
}

/**
 * `coverage` of `check --format json`: what the analysis could follow, so "no finding"
 * can be told from "not understood" (docs/json-format.md). `calls` counts the entries of
 * `accesses`; `calls = resolved + the sum of unresolved[].count`.
 */
export interface JsonCoverage {
  /** Files analysed. */
  files: number;
  /** Key values (partition or sort) nested deeper than evaluation follows. */
  keysTooDeep: number;
  /** Added within version 1: absent in older output. */
  calls?: number;
  /** Accesses whose partition key is resolved (classified, not `unknown`) and whose table is known. */
  resolved?: number;
  /** The others, by reason, most frequent first. */
  unresolved?: JsonUnresolved[];
  /**
   * Parts of files' analyses that failed (an engine bug): `stage` is the part (`the whole
   * file` when nothing of it could be reported). Added within version 1; absent when none failed.
   */
  failures?: Array<{ file: string; stage: string; message: string }>;
  /**
   * Infrastructure files (SAM/CloudFormation templates, Serverless services) read, and
   * the parts of them not read with why: a malformed file, a handler that leads nowhere
   * (`line` 1-based). Added within version 1; absent when there are none.
   */
  infrastructure?: { read: number; skipped: Array<{ file: string; line: number; reason: string }> };
  /**
   * Calls an entry point is known to reach (`reached`) and calls no entry point reaches in
   * a project whose entry points are all known (`unreached`). Added within version 1.
   */
  entryPoints?: { reached: number; unreached: number };
}

/**
 * The share of calls understood, in whole percent, rounded down: one call not understood
 * among 1,000 shows 99%, never 100%. Null when there are no calls.
 */
export function percentUnderstood(resolved: number, calls: number): number | null {
  return calls === 0 ? null : Math.floor((resolved * 100) / calls);
}

export interface JsonUnresolved {
  /** A stable code: `parameter-without-callers`, `table-unknown`, ... */
  reason: string;
  /** The reason in words. */
  label: string;
  count: number;
  /** 1-based; the key expression when there is one, else the call (or its table). */
  sites: Array<{ file: string; line: number; column: number; detail: string }>;
}

/** `shardlens keys --format json`: the workspace's logical keys and their call sites. */
export interface JsonKeysReport {
  version: 1;
  tables: Array<{
    /** As in `JsonFinding.table`; null when the calls do not say. */
    table: string | null;
    /**
     * For a table named by an environment variable that infrastructure code sets to a table
     * it declares without a name: that table's logical ids, as `tableFrom` gives them (added
     * within version 1; absent when none).
     */
    logicalIds?: string[];
    indexes: Array<{
      /** The GSI/LSI name, or null for the table's own key. */
      index: string | null;
      keys: JsonLogicalKey[];
    }>;
  }>;
}

export interface JsonLogicalKey {
  /** The display form: `leaderboard · PK = BOARD#global`. */
  logicalKey: string;
  table: string | null;
  index: string | null;
  attribute: string;
  /** The library model it is declared in: `score entity · byBoard` (ElectroDB). */
  model?: string;
  /** The key template without its shard part. */
  template: string;
  /** The shard set of the first sharded call site, when one is sharded. */
  shards: { method: 'random' | 'hash' | 'loop' | 'list'; values: number[] | null } | null;
  sites: JsonKeySite[];
}

export interface JsonKeySite extends JsonLocation {
  kind: 'read' | 'write';
  operation: string;
  /** This call's own template, shard part included. */
  template: string;
  shards: number[] | null;
  findings: Array<{
    rule: string;
    severity: 'error' | 'warning' | 'info';
    message: string;
    /**
     * The key's read-hot/write-hot verdict on an SL001/SL003 finding, as in `check`'s JSON:
     * `source: 'live'` when live data decided it (the language server applies its live
     * reports), absent when the workspace's call sites did. Added within version 1.
     */
    keyUse?: JsonFinding['keyUse'];
  }>;
}

/** `shardlens keys --match KEY... --format json`. */
export interface JsonMatchReport {
  version: 1;
  matches: Array<{
    /** The concrete key as given. */
    key: string;
    /** Empty when no template of the workspace matches it. */
    logicalKeys: Array<{
      logicalKey: string;
      table: string | null;
      index: string | null;
      attribute: string;
      /** The library model it is declared in: `score entity · byBoard` (ElectroDB). */
      model?: string;
      /** The shard the key is, for a sharded template; else null. */
      shard: number | null;
      /** The templates that matched, e.g. `BOARD#global#{shard 0..9}`. */
      templates: string[];
    }>;
  }>;
}
