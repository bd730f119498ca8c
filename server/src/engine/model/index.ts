/**
 * The language-neutral model every front-end produces and every rule reads.
 * Plain data only: the CLI, the language server and the tests all pass it around.
 */

import type { FileRole } from './file-context';
import type { AccessReach } from './entry';

export type SourceLanguage = 'typescript' | 'tsx' | 'javascript' | 'python';

export type { SourceRange, Span } from './range';
import type { SourceRange, Span } from './range';

/**
 * A declaration a value passed through on its way to a key: `const GLOBAL_BOARD =
 * "LEADERBOARD#GLOBAL"`, a module constant imported from another file, an assignment.
 */
export interface Declaration {
  name: string;
  file: string;
  /** The whole declarator (`GLOBAL_BOARD = "LEADERBOARD#GLOBAL"`). */
  span: Span;
  /** The value expression it binds (`"LEADERBOARD#GLOBAL"`). */
  valueSpan: Span;
}

/**
 * Where a template part's text came from: the expression in `file` at `span`, reached
 * through `via` (the declarations passed through, the one nearest the use first).
 * Parts of one template may come from different files.
 */
export interface Origin {
  file: string;
  span: Span;
  via: Declaration[];
}

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
  /** The expression that fixes how many shards there are, when the code names one. */
  count?: ShardCount;
}

/** `BOARD_SHARDS` in `Math.floor(Math.random() * BOARD_SHARDS)`, or the literal `10`. */
export interface ShardCount {
  /** The count expression's source text. */
  expression: string;
  /** The constant it names (`BOARD_SHARDS`), or null for a literal. */
  name: string | null;
  /** Where that constant is declared (`BOARD_SHARDS = 10`). */
  declaration: SourceRange | null;
  /** Its value, when known. */
  value: number | null;
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
  /**
   * A date the request carries (`event.body.date`, `req.params.day`): the caller
   * chooses it, it is not read from the clock, so it spreads like any input value.
   */
  input?: true;
  /**
   * A random value evaluated once per process: at module level or in a class body
   * (`SHARD = random.randint(0, 9)`, `static SUFFIX = Math.floor(Math.random() * 10)`).
   * Every request of one process gets the same value, so it spreads nothing (SL010).
   */
  once?: true;
  /** A uniform random number in [0, 1) (`Math.random()`): times N, it picks one of N shards. */
  unit?: boolean;
  /**
   * Why an `unknown` hole is unknown when it is not the code's doing: the value nests
   * deeper than evaluation follows, or its call site spent its evaluation budget.
   */
  limit?: 'depth' | 'budget';
  /**
   * The value is a function's parameter that nothing in the analysis gave a value: its
   * name and position (0-based, `self` not counted), and the properties read from it
   * (`product.id` is `product` with path `["id"]`; a destructured `{ id }` parameter is
   * `#0` with path `["id"]`). A wrapper's summary replaces these holes with the
   * arguments at each caller; coverage reports keys left this way.
   */
  param?: { name: string; index: number; path?: string[] };
}

/**
 * A piece of a key. `origin` is where its text came from; neighbouring literals
 * from different places stay separate parts so no origin is lost (`render` and
 * `literalText` join them for display).
 */
export type TemplatePart =
  | {
      literal: string;
      origin?: Origin;
      /**
       * The literal stands in for an environment variable left unset (`process.env.ORDERS_TABLE
       * ?? 'Orders'`): a table name the infrastructure that sets the variable overrides.
       */
      unlessEnv?: string;
    }
  | { hole: Hole; origin?: Origin };

/** A key value as literal text with holes, e.g. `BOARD#global#{shard 0..9}`. */
export interface KeyTemplate {
  parts: TemplatePart[];
}

/**
 * The table a call names: a literal (written in place or through a constant, then
 * `via` holds the declarations), an environment variable's name, or unknown. `span`
 * is the table expression in the call, when there is one.
 */
/**
 * Where an environment-named table's name came from: the function environment of a
 * template or Serverless service that sets the variable for the code's handler.
 */
export interface EnvTableSource {
  /** The variable the code reads (`TABLE_NAME`). */
  variable: string;
  /** The table's logical id when the template declares it (`VotesTable`), else null. */
  logicalId: string | null;
  /**
   * The template or service file that sets the variable; the file declaring the table when
   * that is another (a CDK stack given another stack's table), so `file` and `logicalId`
   * name one definition.
   */
  file: string;
}

export type TableRef =
  /** `unlessEnv`: the name is a fallback for that variable (`process.env.X ?? 'Orders'`), which a function's environment may set. */
  | { kind: 'literal'; name: string; span?: Span; via?: Declaration[]; fromEnv?: EnvTableSource; unlessEnv?: string }
  /**
   * `fromEnv` on an env table: infrastructure code declares the table the variable names but
   * states no physical name (a `!Ref` table without `TableName`); `candidates`: the functions
   * that reach this code set the variable to different tables, so it stays the variable.
   */
  | { kind: 'env'; name: string; span?: Span; via?: Declaration[]; fromEnv?: EnvTableSource; candidates?: string[] }
  /**
   * A name fixed at deploy time: literal text around environment variables
   * (`f"inventory-{STAGE}"`, `` `orders-${process.env.STAGE}` ``), shown `inventory-{$STAGE}`.
   */
  | { kind: 'template'; name: string; span?: Span; via?: Declaration[]; fromEnv?: EnvTableSource }
  /**
   * `source`: the expression that should name it, as written (`get_table_name()`, the receiver `conn`).
   * `candidates`: the tables (as `tableName` writes them) that the constructions of the class
   * whose field holds the table pass, when they differ: it may be any of them.
   */
  | { kind: 'unknown'; span?: Span; source?: string; candidates?: string[] };

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
  /**
   * Where the key enters the request: the property or argument in the call (`PK:
   * GLOBAL_BOARD`, `":p": kind`, `Key("pk").eq(x)`); the whole call when the request
   * object was built elsewhere.
   */
  use: Span;
  /** The declarations the whole value passed through, nearest the use first. */
  via: Declaration[];
  /**
   * The value is one of several that reach the use (an `if`/`else`, a ternary, a
   * `try`/`except` fallback): this is the one the rules judged, taken on some paths only.
   */
  someOfPaths?: boolean;
}

export type KeyOperator = '=' | '<' | '<=' | '>' | '>=' | 'BETWEEN' | 'begins_with';

/** A query's sort-key condition: `sk BETWEEN :a AND :b` has two operands. */
export interface SortKeyCondition {
  attribute: string;
  operator: KeyOperator;
  operands: KeyValue[];
}

/** What a read asks for beyond its key. */
export interface ReadShape {
  /** `Limit`: its value when literal, `dynamic` when computed, null when absent. */
  limit: number | 'dynamic' | null;
  /** `ScanIndexForward` when written as a literal, else null. */
  scanIndexForward: boolean | null;
  projection: string | null;
  /**
   * Fields that change which items or attributes come back (`FilterExpression`,
   * `AttributesToGet`, `Select`...), which a generated reader does not carry over.
   */
  shaping: string[];
  /** `ExpressionAttributeNames` with literal values (`#pk` → `pk`). */
  names: Record<string, string>;
  /** Passes `ExclusiveStartKey` (a loop over `LastEvaluatedKey`). */
  exclusiveStartKey: boolean;
  /** Reads through a paginator (`paginateQuery`, `get_paginator('query')`). */
  paginator: boolean;
  /** `ConsistentRead: true`. */
  consistent: boolean;
  /**
   * The request's other fields as the code writes them, for a reader of every shard that
   * sends them on unchanged; absent when the request is not an object the code spells out.
   */
  written?: WrittenRequest;
}

/** A request field as written: where its value is, and its text when it is a literal. */
export interface WrittenField {
  span: Span;
  literal: string | null;
  /** `condition` for a boto3 `Key(...)` / `Attr(...)` condition object, else what the value is. */
  kind: 'object' | 'array' | 'scalar' | 'condition';
}

/** An entry of `ExpressionAttributeNames` / `ExpressionAttributeValues` as written (`':p': priority`). */
export interface WrittenEntry {
  alias: string;
  /** The whole `alias: value` pair; null when the entry is not written as one (a computed key). */
  pair: Span | null;
}

export interface WrittenRequest {
  /** Every top-level field by name (`FilterExpression`, `Select`, `KeyConditionExpression`...). */
  fields: Record<string, WrittenField>;
  /** The two alias maps' entries; null when the map is not an object literal (built elsewhere). */
  names: WrittenEntry[] | null;
  values: WrittenEntry[] | null;
}

/**
 * How a call is written, for code that must look like the code around it: the
 * client receiver, the call's form, whether the enclosing function is async, and the
 * statement it stands in.
 */
export interface CallStyle {
  /** `ddb`, `docClient`, `table`, `self.table`; null when there is none (`paginateQuery`). */
  receiver: string | null;
  form:
    | 'send-command'
    | 'paginator'
    | 'v2-promise'
    | 'v2-callback'
    | 'v2-call'
    | 'boto3-table'
    | 'boto3-client'
    | 'boto3-batch-writer'
    | 'boto3-paginator';
  /** The command class (`QueryCommand`) or method name (`query`, `put_item`). */
  callee: string;
  async: boolean;
  /** The statement holding the call, and its indentation. */
  statement: Span;
  indent: string;
}

/** One import of a file: `import { X, Y } from "m"`, `const { X } = require("m")`, `from m import X`. */
export interface ImportInfo {
  module: string;
  names: string[];
  span: Span;
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
  /** The secondary index a read goes through (`IndexName`), else null. */
  index: string | null;
  /**
   * An `IndexName` that is not literal text, as written: `$STATUS_INDEX` for an environment
   * variable (once infrastructure code sets it to a name, that name is `index` and this is
   * gone), else the expression. The read goes through some index, which one is not known.
   */
  indexUnknown?: string;
  /** The whole call expression. */
  span: Span;
  partitionKey: KeyValue | null;
  sortKey: KeyValue | null;
  /** A query's sort-key condition with its operator; for item operations, `=` on the sort key. */
  sortCondition: SortKeyCondition | null;
  /** A Query's options; null for other operations. */
  read: ReadShape | null;
  call: CallStyle;
  /** An update that increments a number attribute (`ADD n :one`, `SET n = n + :one`). */
  increments: boolean;
  /** A paginator (`paginateQuery`) or a loop over `LastEvaluatedKey`. */
  paginated: boolean;
  /** The query asks for at most `Limit` items: a top-N read, not a read of everything. */
  limited: boolean;
  /** For a put, the item's approximate size in bytes from what the code shows, else null. */
  itemBytes: number | null;
  /** Why the partition key is null, when it is: what stood where the key should be. */
  keyGap?: KeyGap;
  /** For a put or update: the attribute names it writes (an index keyed by one of them is written too). */
  written?: string[];
  /**
   * For a get, update or delete: every attribute name its `Key` object names, when all of
   * them are read (no spread, no computed name), to check against the table's key schema.
   */
  keyNames?: string[];
  /**
   * The access is made by a wrapper this call reaches in another module (`save(...)`
   * in `lib/db.js`): where the DynamoDB call inside it is written.
   */
  through?: SourceRange;
  /** The table came from the constructions of the class the wrapper is a method of: where they are (`CallSite.injected`). */
  injected?: SourceRange[];
  /** Made by a DynamoDB library's model (an ElectroDB entity): the entity and access pattern it goes through. */
  library?: LibraryAccess;
  /**
   * Read by the call's shape: a method with a DynamoDB-like name of a library outside
   * the workspace, given a key condition with `:` values or a key object with a
   * partition-key attribute (`db.putItem({ pk: "FEED", sk })`).
   */
  guessed?: boolean;
  /**
   * A call to a wrapper that chooses the operation by name, named here by a value not
   * read (`call(action, params)`, `action` from the event): the operation and the key
   * are not judged, and the call counts as not understood.
   */
  operationUnread?: string;
  /**
   * A read served through the cache fix's helper (`shardlensCached(key, ttl, () => <call>)`,
   * `shardlens_cached(key, ttl, lambda: <call>)`): the helper's name. It reaches DynamoDB
   * about once per TTL per process, not once per request (`frontends/cached-reads.ts`).
   */
  cachedBy?: string;
  /**
   * The entry points that reach the call (routes, schedules, consumers) and what they say of
   * its heat: attached by the workspace's reachability pass (`entry-points/`), absent before it.
   */
  reach?: AccessReach;
}

/** The DynamoDB libraries read by a front-end of their own (`frontends/<library>/`). */
export type LibraryName =
  | 'electrodb'
  | 'dynamodb-toolbox'
  | 'pynamodb'
  | 'dynamoose'
  | 'dynamodb-onetable'
  | 'typedorm'
  | 'kafka'
  | 'tenant-route';

/**
 * A Kafka producer's record (`frontends/kafka/`): its key stands where an item's partition
 * key stands, judged by SL020 alone; the DynamoDB rules and the cross-file groups leave it out.
 */
export function isKafkaAccess(a: Access): boolean {
  return a.library?.library === 'kafka';
}

/**
 * What an access is, when it is not a DynamoDB request: a Kafka record (SL020) or a tenant
 * routed by a hash (`frontends/tenant-routing/`, SL021). Only the rules of that subject
 * judge it; the DynamoDB rules and the cross-file groups leave it out.
 */
export type AccessSubject = 'kafka' | 'tenant-route';

export function subjectOf(a: Access): AccessSubject | null {
  const l = a.library?.library;
  return l === 'kafka' || l === 'tenant-route' ? l : null;
}

/**
 * What a DynamoDB library's schema says of an access: the library, the entity
 * (`Board`), the access pattern (`byBoard`) and where the pattern's partition key is
 * declared. Messages and hovers name them; fixes written for SDK requests are not
 * offered on such an access (its key is not written at the call).
 */
export interface LibraryAccess {
  library: LibraryName;
  /** The entity (ElectroDB, dynamodb-toolbox), the model (PynamoDB's class, dynamoose's name, OneTable's schema model). */
  entity: string;
  /** The access pattern (ElectroDB), the index attribute of the model (PynamoDB; '' for the table). */
  accessPattern: string;
  /** The pattern's `pk: { ... }` declaration; a PynamoDB model's hash key attribute. */
  declaration: SourceRange;
  /** A write's other access patterns, by the index they are on: the index partitions the write writes too. */
  byIndex?: Record<string, string>;
  /** The access is the schema's own: every write of the entity, where the schema alone fixes the key. */
  schema?: true;
  /**
   * A write's key attributes it leaves to a constant `default` of the schema (dynamoose,
   * PynamoDB), by stored name: the schema's own site reports that key, and this write is
   * one of its related locations (`rules/schema-default.ts`).
   */
  defaulted?: string[];
  /**
   * PynamoDB: the file declaring the model class, and the Python names of the key attributes
   * the access addresses (the index's when it is on one), as the fixes name them in code.
   */
  model?: { file: string; hash: string; range: string | null };
  /**
   * The attribute that holds the pattern's sort key, named as the library returns items
   * (dynamodb-toolbox: `postedAt` saved as `SK`; OneTable: the index's sort field), null
   * when the pattern has none: what a reader merges the shards' items by.
   */
  sortAttribute?: string | null;
  /** The model's declaration (OneTable: its fields object), where a fix adds an attribute. */
  modelAt?: SourceRange;
  /** The options the table is constructed with (OneTable), where a fix adds a table-wide callback. */
  tableAt?: SourceRange;
  /** The model's type field (OneTable's `_type`): its name in a template is the model's own. */
  typeField?: string;
  /** Where a fix in the library's style edits the schema and the call (ElectroDB). */
  edit?: LibraryEditSites;
  /**
   * A Kafka record keyed by a field of an object whose entity id the code around the call
   * reads (`order.status` beside `order.id`): that id, as written, for the quick fix.
   */
  entityId?: string;
  /** A tenant routed by a hash (SL021): what the quick fix needs to check a map of dedicated tenants first. */
  route?: TenantRoute;
}

/**
 * `hash(tenantId) % NUM_SHARDS`: the tenant as written, the remainder's span, the
 * top-level statement holding it (a module constant goes above it), and in TypeScript
 * the tenant parameter's declared type.
 */
export interface TenantRoute {
  tenant: string;
  hash: Span;
  before: Span;
  keyType: string | null;
}

/**
 * The places a fix written in an ElectroDB schema's own terms changes: the entity's
 * `attributes` object (a `shard` attribute joins it), each access pattern's partition key
 * (its `composite` array, its `template`), and at the call the object giving the composite
 * attributes and the `.go(...)` options. A span is null where the code does not write it
 * as a literal the fix could edit.
 */
export interface LibraryEditSites {
  /** The file the schema is written in. */
  schemaFile: string;
  attributes: Span | null;
  /** The entity's access patterns by name. */
  patterns: Record<string, LibraryPatternSites>;
  /** The call's object of composite attributes (`{ board, player }`), when it is an object literal. */
  argument: Span | null;
  /** The call's last step: `go` or `params`, and its argument list with the parentheses. */
  end: { method: string; args: Span } | null;
}

export interface LibraryPatternSites {
  /** The secondary index, or null for the table's own key. */
  index: string | null;
  collection: string | null;
  /** The attribute the partition key is stored in (`pk`, `gsi1pk`). */
  pkField: string;
  pk: string[];
  sk: string[];
  /** The partition key's `composite: [...]` array and `template` string. */
  composite: Span | null;
  template: Span | null;
  /** The sort key's field (`sk`, `gsi1sk`), or null when the pattern has none. */
  skField: string | null;
}

/**
 * Why an access's partition key is null, as `accessesOfCallSite` saw it: `field` is the request
 * field that should have held it (`request` for the whole input, `Item`, `Key`,
 * `KeyConditionExpression`, `ExpressionAttributeValues`), `hole` the value that stood
 * there when it was one unread value (its source, `param`, `limit`), else null.
 */
export interface KeyGap {
  field: string;
  hole: Hole | null;
}

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

/**
 * A logical key: one item collection as the code addresses it, whatever the shard.
 * `template` is the partition-key template without its shard part; `shards` the
 * shard set when the key is sharded. `id` is the one display form (and grouping id).
 */
export interface LogicalKey {
  table: string | null;
  index: string | null;
  attribute: string;
  template: KeyTemplate;
  shards: ShardSet | null;
  id: string;
  /**
   * The library model the key is declared in, for display: `score entity · byBoard` (an
   * ElectroDB entity and access pattern). Not part of the id: entities of one service
   * share partitions, and their calls must meet.
   */
  model?: string;
}

export type { FileContext, FileContexts, FileRole } from './file-context';
