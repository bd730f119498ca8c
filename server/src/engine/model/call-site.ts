import type {
  CallStyle,
  Classification,
  Declaration,
  Operation,
  LibraryAccess,
  SdkStyle,
  SourceLanguage,
  SourceRange,
  Span,
  TableRef,
} from '.';
import type { Value } from './value';

/** What a front-end found: one SDK call and its input, before the SDK shape is read. */
export interface CallSite {
  file: string;
  language: SourceLanguage;
  operation: Operation;
  sdk: SdkStyle;
  span: Span;
  input: Value;
  /** The table when the call's receiver names it (boto3 `Table("x")`), else unknown. */
  table: TableRef;
  /** Reads every page: a paginator, or a loop over `LastEvaluatedKey`. */
  paginated: boolean;
  /** Read through a paginator (`paginateQuery`, `get_paginator('query')`). */
  paginator: boolean;
  /** How the call is written, for generated code that must look like it. */
  call: CallStyle;
  /**
   * The field of the enclosing class the table comes from (`self._table`, `TableName:
   * this.tableName`) when the front-end cannot read it there: a caller that sees the
   * instance's construction reads the table from the argument the constructor keeps in it.
   */
  tableField?: string;
  /**
   * A wrapper's site followed to its callers only for the table their constructions give
   * (its `tableField`; `TableGiven`): its key is the wrapper's own, so a caller's copy is
   * never judged there.
   */
  tableOnly?: true;
  /** The constructions (`new OrdersRepo(process.env.ORDERS_TABLE!, ddb)`) `table` was read from, at a caller. */
  injected?: SourceRange[];
  /** A call to a wrapper in another module: where the DynamoDB call it makes is written. */
  through?: SourceRange;
  /**
   * The helper whose loader a wrapper's DynamoDB call stands in (`shardlensCached(k, ttl,
   * () => <call>)`, `frontends/cached-reads.ts`): its reads are served about once per TTL at
   * every caller too.
   */
  cachedBy?: string;
  /** Made through a DynamoDB library's model (an ElectroDB entity): see `Access.library`. */
  library?: LibraryAccess;
  /**
   * The key names the library's model declares for the site's table and its indexes (a
   * PynamoDB model's hash and range keys): what the request's keys are read by, before
   * any guess from its attribute names.
   */
  keySchema?: TableHint;
  /** How the wrapper's own call is judged (its key with its parameters unknown), for a call through it. */
  wrapperClasses?: Classification[];
  /** The wrapper's parameters (Python) this call leaves out, whose defaults it therefore passes. */
  defaulted?: Declaration[];
  /**
   * Where the values this call passes come from when another module wrote them (`StartsWith.ARTS`
   * imported from a constants module): chosen at this call all the same.
   */
  passedIn?: SourceRange[];
  /** A call to a wrapper outside the workspace, read by its shape (`db.putItem({ pk: ... })`). */
  guessed?: boolean;
  /**
   * The operation is chosen by a parameter naming it (`new COMMANDS[action](params)`,
   * `doc[action](params)`): each caller's literal picks one of `operations`; `operation`
   * is only the first of them, so the call is never judged on its own.
   */
  dispatch?: { param: string; operations: Record<string, [Operation, SdkStyle]> };
  /** A caller of such a wrapper naming the operation by a value not read (`call(action, params)`): that expression. */
  operationUnread?: string;
}

/** Known key attribute names per table, learned from `Key` objects and key conditions. */
export type KeySchemaHints = Map<string, TableHint>;

export interface KeyNames {
  partition: string;
  sort?: string;
}

/** A table's definition: `literal:<name>` (as `tableKey` writes it) and what it says of its keys. */
export type TableDefinition = [table: string, hint: TableHint];

/** A table's key names (when a call named only its keys) and its indexes' key names. */
export interface TableHint {
  partition?: string;
  sort?: string;
  /** Index name → its key names, learned from queries with `IndexName`. */
  indexes?: Record<string, KeyNames>;
  /**
   * Other key names calls elsewhere tell for the table, when they disagree with `partition`
   * (`pk` in one file, `PK` in another), in file order: an item that spreads its key in and
   * shows one of them is keyed by it.
   */
  others?: KeyNames[];
}
