import type { AccessReach } from './entry';
import type { KeyGap, KeyValue, SortKeyCondition } from './keys';
import type { SourceLanguage } from './language';
import type { LibraryAccess } from './library-access';
import type { SourceRange, Span } from './range';
import type { CallStyle, Operation, ReadShape, SdkStyle } from './request';
import type { TableRef } from './table-ref';

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
 * A table a caller's construction gives a wrapper's call: a repository's method sends
 * `self._table.get_item(...)` / `TableName: this.tableName` on a field its constructor
 * keeps, and this file makes the instance with the table (`FlagRepository(boto3.resource(
 * "dynamodb").Table(os.environ["FLAGS_TABLE"]))`). The wrapper's own access, whose module
 * cannot name its table, takes it when every construction seen in the workspace gives the
 * same one (`workspace/given-tables.ts`), even where the key is the wrapper's alone and the
 * call is judged there.
 */
export interface TableGiven {
  /** The wrapper's own call site (`Access.through` of the caller's copy). */
  through: SourceRange;
  table: TableRef;
  /** Where the instance is made (`Access.injected`). */
  injected: SourceRange[];
}
