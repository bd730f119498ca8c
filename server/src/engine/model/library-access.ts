import type { SourceRange, Span } from './range';

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
