/**
 * An access's keys: each key attribute's value, a query's sort-key condition, why a
 * partition key is missing, and the logical key accesses are grouped by.
 */
import type { Declaration, Hole, KeyTemplate, ShardSet } from './key-template';
import type { Span } from './range';

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
