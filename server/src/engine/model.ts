/**
 * The language-neutral model every front-end produces and every rule reads.
 * Plain data only: the CLI, the language server and the tests all pass it around.
 */

export type SourceLanguage = 'typescript' | 'tsx' | 'javascript' | 'python';

/** Zero-based positions, as tree-sitter and LSP count them. */
export interface Span {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

/** Where a key part's value comes from. */
export type HoleClass =
  'constant' | 'time' | 'random' | 'entity-id' | 'low-cardinality' | 'shard' | 'counter' | 'unknown';

/**
 * A recognised shard expression. `random`: a random suffix; `hash`: a calculated
 * suffix (hash or id modulo N); `loop`: a reader's loop over shard numbers;
 * `list`: an explicit list of shard values.
 */
export interface ShardSet {
  method: 'random' | 'hash' | 'loop' | 'list';
  /** The shard numbers, when known: 0..N-1 or 1..N or a literal list. */
  values: number[] | null;
}

/**
 * A time value: `bucket` is a calendar slot (today's date, this hour) that every
 * writer in that slot shares; `instant` is a timestamp that changes every moment.
 */
export type TimeGranularity = 'bucket' | 'instant';

export interface Hole {
  kind: HoleClass;
  /** The source text of the expression this hole stands for. */
  source: string;
  shards?: ShardSet;
  time?: TimeGranularity;
}

export type TemplatePart = { literal: string } | { hole: Hole };

/** A key value as literal text with holes, e.g. `BOARD#global#{shard 0..9}`. */
export interface KeyTemplate {
  parts: TemplatePart[];
}

export type TableRef = { kind: 'literal'; name: string } | { kind: 'env'; name: string } | { kind: 'unknown' };

export type Operation =
  | 'PutItem'
  | 'GetItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'Query'
  | 'BatchWriteItem'
  | 'BatchGetItem'
  | 'TransactWriteItems'
  | 'TransactGetItems'
  | 'ExecuteStatement';

export type SdkStyle =
  'aws-sdk-v3' | 'lib-dynamodb' | 'aws-sdk-v2' | 'aws-sdk-v2-document-client' | 'boto3-resource' | 'boto3-client';

export interface KeyValue {
  attribute: string;
  template: KeyTemplate;
  /** The value expression's span; `inline` when it is written inside the call. */
  span: Span;
  inline: boolean;
}

/** One read or write of one item collection at one call site. */
export interface Access {
  file: string;
  language: SourceLanguage;
  operation: Operation;
  /** For batch and transact calls, the kind of the single request inside them. */
  kind: 'read' | 'write';
  sdk: SdkStyle;
  table: TableRef;
  /** The whole call expression. */
  span: Span;
  partitionKey: KeyValue | null;
  sortKey: KeyValue | null;
  /** An update that increments a number attribute (`ADD n :one`, `SET n = n + :one`). */
  increments: boolean;
  /** A paginator (`paginateQuery`) or a loop over `LastEvaluatedKey`. */
  paginated: boolean;
  /** The query asks for at most `Limit` items: a top-N read, not a read of everything. */
  limited: boolean;
  /** For a put, the item's approximate size in bytes from what the code shows, else null. */
  itemBytes: number | null;
}

export type Classification =
  'constant' | 'time-bucket' | 'low-cardinality' | 'counter' | 'sharded' | 'high-cardinality' | 'unknown';

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  file: string;
  span: Span;
  rule: string;
  category: string;
  severity: Severity;
  message: string;
  access: Access;
}

export interface SkippedFile {
  file: string;
  reason: string;
}
