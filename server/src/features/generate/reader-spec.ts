import type { KeyOperator, SdkStyle } from '../../engine';

/**
 * Everything a scatter-gather reader generator needs, as plain data: the fixes build
 * it from the engine's model (the read, the writers' shard set, the file's imports),
 * the generators only print it. Expressions are source text in the target language.
 */
export interface ReaderSpec {
  style: SdkStyle;
  /** How a page is read: `send(new QueryCommand(...))`, v2's `.query(...).promise()`, or v3's aggregated `.query(...)`. */
  call: 'send' | 'promise' | 'method';
  /** TypeScript: annotate parameters, locals and the return type. */
  typed: boolean;
  name: string;
  /** The logical key's display form, for the doc comment. */
  keyId: string;
  /** The expression queries are sent through: `ddb`, or the client parameter's name. */
  client: string;
  /** When the reader takes its client as a parameter (`this.docClient`, `self.table`, another file). */
  clientParam: { name: string; type: string | null } | null;
  /** The `TableName` expression; null for boto3's `Table` resource. */
  table: string | null;
  index: string | null;
  consistent: boolean;
  partition: PartitionKeySpec;
  shards: ShardLoop;
  sort: SortSpec | null;
  /** Top-N: the sort attribute the shards are merged by, and N (a number or a parameter). */
  top: { attribute: string; limit: number | { param: string }; forward: boolean } | null;
  /**
   * The order a read of every item keeps: the sort key and direction its single-key
   * Query returned items in, so the shards are merged in that order; null when the key
   * has no known sort key (one item per key: nothing to order).
   */
  order: { attribute: string; forward: boolean } | null;
  /**
   * Key attributes the code names through a constant (`UserVotesKeys.pk`, `KEYS["pk"]`):
   * attribute → that expression, written in place of the name so the reader follows the
   * constant as the code around it does.
   */
  attributeCode?: Record<string, string>;
  /** Parameters after the client, in order: the sort-key operands, then the limit. */
  params: Param[];
  /**
   * The read's own filter, projection and `Select`, with the aliases they use: taken as
   * the options parameter (`param`) the call fills as the read wrote them, and sent to
   * every shard. `aliases` are the ones it holds, which the reader's own must not reuse.
   */
  options?: { param: string; aliases: string[] } | null;
  indentUnit: string;
  /** The line width the target's project keeps to (`projectLineWidth`): a longer signature is broken. */
  width?: number;
  quote: "'" | '"';
  /** SDK v2 low-level: how the file names `AWS.DynamoDB.Converter`. */
  converter?: string;
  /**
   * The name the file gives the SDK package as a whole (`import * as DDB from
   * '@aws-sdk/lib-dynamodb'`): the reader's commands and types are read through it
   * (`new DDB.QueryCommand`), as the file's own calls are, and nothing is imported.
   */
  namespace?: string;
}

/** The key as the writers build it: the text before the shard (constants by name), the separator, the text after. */
export interface PartitionKeySpec {
  attribute: string;
  before: KeyPiece[];
  after: string;
}

export type KeyPiece = { literal: string } | { name: string };

/** Shard numbers: `start .. start+count-1` with `count` an expression (the writers' constant), or a literal list. */
export type ShardLoop = { kind: 'range'; start: number; count: string } | { kind: 'list'; values: number[] };

export interface SortSpec {
  attribute: string;
  operator: KeyOperator;
  operands: Operand[];
}

/** A sort-key operand: a literal written into the reader, or one of its parameters. */
export type Operand = { literal: string | number } | { param: string };

export interface Param {
  name: string;
  /** A sort-key operand, the limit, or what the call passes because the reader cannot see it. */
  kind: 'operand' | 'limit' | 'count' | 'table' | 'options';
}

/** An alias of the reader's own (`#pk`, `:sk2`) that none of the read's options uses. */
export function freshAlias(alias: string, taken: string[] | undefined): string {
  let name = alias;
  for (let i = 1; taken?.includes(name); i++) name = `${alias}Reader${i > 1 ? i : ''}`;
  return name;
}

/** `BOARD#global` → `BoardGlobal`: the key's words for a function name. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const OPERATOR_WORDS: Record<KeyOperator, string> = {
  '=': 'eq',
  '<': 'lt',
  '<=': 'le',
  '>': 'gt',
  '>=': 'ge',
  BETWEEN: 'between',
  begins_with: 'begins with',
};

/**
 * The reader's name says what it reads, so two reads of one key with different shapes
 * get two readers and one read finds its reader again (the fixes are idempotent by name):
 * `queryBoardGlobalShards`, `queryBoardGlobalLast10`, `query_board_global_shards_where_sk_begins_with`.
 */
export function readerName(
  stem: string,
  shape: {
    index: string | null;
    sort: SortSpec | null;
    top: ReaderSpec['top'];
    options?: boolean;
    /** A read of every item in descending order: another reader than the ascending one of the same key. */
    descending?: boolean;
  },
  python: boolean,
): string {
  const parts = ['query', ...words(stem).slice(0, 6)];
  if (parts.length === 1) parts.push('key');
  if (shape.index) parts.push('on', ...words(shape.index));
  if (shape.top) {
    const n = typeof shape.top.limit === 'number' ? String(shape.top.limit) : 'n';
    parts.push(shape.top.forward ? 'first' : 'last', n);
  } else parts.push('shards', ...(shape.descending ? ['descending'] : []));
  if (shape.sort)
    parts.push('where', ...words(shape.sort.attribute), ...OPERATOR_WORDS[shape.sort.operator].split(' '));
  // A reader that takes the read's filter and projection has another signature than one that does not.
  if (shape.options) parts.push('with', 'options');
  if (python) return parts.join('_');
  return parts.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
}
