import { parseIncrements, parseKeyCondition } from './expressions';
import type { Access, KeyValue, Operation, SdkStyle, SourceLanguage, Span, TableRef } from './model';
import { isPartitionKeyName, isSortKeyName } from './names';
import { parsePartiql, type PartiqlValue } from './partiql';
import { literal, literalText } from './template';
import { entry, unwrapAttributeValue, type Value } from './value';

/**
 * The input field a request must carry to be a DynamoDB call: where the receiver is
 * unknown, this tells `table.put(...)` from `map.get(k)` or `cache.put(k, v)`.
 */
export const REQUIRED_FIELD: Record<Operation, string> = {
  PutItem: 'Item',
  GetItem: 'Key',
  UpdateItem: 'Key',
  DeleteItem: 'Key',
  Query: 'KeyConditionExpression',
  BatchWriteItem: 'RequestItems',
  BatchGetItem: 'RequestItems',
  TransactWriteItems: 'TransactItems',
  TransactGetItems: 'TransactItems',
  ExecuteStatement: 'Statement',
};

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
  paginated: boolean;
}

/** Known key attribute names per table, learned from `Key` objects and key conditions. */
export type KeySchemaHints = Map<string, { partition: string; sort?: string }>;

function tableKey(t: TableRef): string {
  return t.kind === 'unknown' ? '?' : `${t.kind}:${t.name}`;
}

function tableOf(input: Value | undefined, fallback: TableRef): TableRef {
  const v = entry(input, 'TableName');
  if (v?.kind !== 'scalar') return fallback;
  const text = literalText(v.template);
  if (text !== null) return { kind: 'literal', name: text };
  const h = v.template.parts.length === 1 && 'hole' in v.template.parts[0] ? v.template.parts[0].hole : null;
  const env = h?.source.match(
    /(?:process\.env\.|environ\[["']|getenv\(["']|environ\.get\(["'])([A-Za-z_][A-Za-z0-9_]*)/,
  );
  return env ? { kind: 'env', name: env[1] } : { kind: 'unknown' };
}

function keyValue(attribute: string, v: Value, call: Span): KeyValue | null {
  const u = unwrapAttributeValue(v);
  if (u.kind !== 'scalar') return null;
  return { attribute, template: u.template, span: u.span, inline: within(u.span, call) };
}

function within(inner: Span, outer: Span): boolean {
  const before = (l1: number, c1: number, l2: number, c2: number) => l1 < l2 || (l1 === l2 && c1 <= c2);
  return (
    before(outer.startLine, outer.startColumn, inner.startLine, inner.startColumn) &&
    before(inner.endLine, inner.endColumn, outer.endLine, outer.endColumn)
  );
}

/**
 * Picks the partition and sort key out of a key object (`Key`) or an item (`Item`).
 * A `Key` names only key attributes, so its first is the partition key unless names
 * say otherwise; an `Item` needs a conventional name (`pk`) or a schema hint.
 */
function keysOf(
  obj: Value | undefined,
  isItem: boolean,
  hint: { partition: string; sort?: string } | undefined,
  call: Span,
) {
  if (obj?.kind !== 'object' || obj.entries.length === 0) return { pk: null, sk: null };
  const names = obj.entries.map(([k]) => k);
  const pkName =
    (hint && names.includes(hint.partition) ? hint.partition : undefined) ??
    names.find(isPartitionKeyName) ??
    (isItem ? names[0] : (names.find((n) => !isSortKeyName(n)) ?? names[0]));
  const skName =
    (hint?.sort && names.includes(hint.sort) ? hint.sort : undefined) ??
    names.find(isSortKeyName) ??
    (!isItem && names.length === 2 ? names.find((n) => n !== pkName) : undefined);
  const pk = keyValue(pkName, entry(obj, pkName)!, call);
  const sk = skName ? keyValue(skName, entry(obj, skName)!, call) : null;
  return { pk, sk };
}

function resolveName(name: string, names: Value | undefined): string {
  if (!name.startsWith('#')) return name;
  const v = entry(names, name);
  const text = v?.kind === 'scalar' ? literalText(v.template) : null;
  return text ?? name;
}

function keysOfQuery(input: Value, call: Span) {
  const kce = entry(input, 'KeyConditionExpression');
  const names = entry(input, 'ExpressionAttributeNames');
  const values = entry(input, 'ExpressionAttributeValues');
  let clauses: Array<{ attribute: string; op: string; value: Value | undefined }> = [];
  if (kce?.kind === 'condition') {
    clauses = kce.clauses;
  } else if (kce?.kind === 'scalar') {
    const text = literalText(kce.template);
    const parsed = text === null ? null : parseKeyCondition(text);
    clauses = (parsed ?? []).map((c) => ({
      attribute: resolveName(c.attribute, names),
      op: c.op,
      value: entry(values, c.values[0]),
    }));
  }
  const equal = clauses.filter((c) => c.op === '=');
  const pkClause = equal.length > 1 ? (equal.find((c) => isPartitionKeyName(c.attribute)) ?? equal[0]) : equal[0];
  const skClause = clauses.find((c) => c !== pkClause);
  const pk = pkClause?.value ? keyValue(pkClause.attribute, pkClause.value, call) : null;
  const sk = skClause?.value ? keyValue(skClause.attribute, skClause.value, call) : null;
  return { pk, sk };
}

function increments(input: Value): boolean {
  const ue = entry(input, 'UpdateExpression');
  const text = ue?.kind === 'scalar' ? literalText(ue.template) : null;
  if (!text) return false;
  const values = entry(input, 'ExpressionAttributeValues');
  return parseIncrements(text).some(({ by }) => {
    const v = entry(values, by);
    if (!v) return true;
    const u = unwrapAttributeValue(v);
    // `ADD tags :set` adds to a set; only a number makes a counter.
    if (u.kind !== 'scalar') return false;
    const t = literalText(u.template);
    return t === null || /^-?\d+(\.\d+)?$/.test(t);
  });
}

/** Bytes a value of unknown content is counted as: an id, a short string or a number. */
const HOLE_BYTES = 16;

/**
 * DynamoDB's item size: attribute names plus values (strings by UTF-8 length,
 * numbers up to 21 bytes). Spread-in or computed attributes are not seen, so the
 * estimate is a lower bound of what the code writes.
 */
function estimateBytes(v: Value | undefined, depth = 0): number | null {
  if (!v || depth > 8) return null;
  const u = unwrapAttributeValue(v);
  switch (u.kind) {
    case 'object': {
      let sum = 3;
      for (const [k, x] of u.entries) sum += Buffer.byteLength(k) + (estimateBytes(x, depth + 1) ?? HOLE_BYTES);
      return sum;
    }
    case 'array':
      return u.items.reduce((n, x) => n + 1 + (estimateBytes(x, depth + 1) ?? HOLE_BYTES), 3);
    case 'scalar':
      return u.template.parts.reduce((n, p) => n + ('literal' in p ? Buffer.byteLength(p.literal) : HOLE_BYTES), 0);
    default:
      return HOLE_BYTES;
  }
}

const READS: Operation[] = ['GetItem', 'Query', 'BatchGetItem', 'TransactGetItems'];

function single(site: CallSite, operation: Operation, input: Value, table: TableRef, hints: KeySchemaHints): Access {
  const hint = hints.get(tableKey(table));
  const keys =
    operation === 'Query'
      ? keysOfQuery(input, site.span)
      : operation === 'PutItem'
        ? keysOf(entry(input, 'Item'), true, hint, site.span)
        : keysOf(entry(input, 'Key'), false, hint, site.span);
  return {
    file: site.file,
    language: site.language,
    operation: site.operation,
    kind: READS.includes(operation) ? 'read' : 'write',
    sdk: site.sdk,
    table,
    span: site.span,
    partitionKey: keys.pk,
    sortKey: keys.sk,
    increments: operation === 'UpdateItem' && increments(input),
    paginated: site.paginated,
    limited: operation === 'Query' && !!entry(input, 'Limit'),
    itemBytes: operation === 'PutItem' ? estimateBytes(entry(input, 'Item')) : null,
  };
}

function itemsOf(v: Value | undefined): Value[] {
  return v?.kind === 'array' ? v.items : v ? [v] : [];
}

/** Reads one call site's input as one access per item collection it touches. */
export function interpret(site: CallSite, hints: KeySchemaHints = new Map()): Access[] {
  const input = site.input;
  const table = tableOf(input, site.table);
  switch (site.operation) {
    case 'BatchWriteItem':
    case 'BatchGetItem': {
      const requestItems = entry(input, 'RequestItems');
      if (requestItems?.kind !== 'object') return [];
      return requestItems.entries.flatMap(([name, requests]) => {
        const t: TableRef = name.startsWith('[') ? { kind: 'unknown' } : { kind: 'literal', name };
        if (site.operation === 'BatchGetItem') {
          return itemsOf(entry(requests, 'Keys')).map((key) =>
            single(site, 'GetItem', { kind: 'object', entries: [['Key', key]], span: key.span }, t, hints),
          );
        }
        return itemsOf(requests).flatMap((r) => {
          const put = entry(r, 'PutRequest');
          const del = entry(r, 'DeleteRequest');
          if (put) return [single(site, 'PutItem', put, t, hints)];
          if (del) return [single(site, 'DeleteItem', del, t, hints)];
          return [];
        });
      });
    }
    case 'TransactWriteItems':
    case 'TransactGetItems': {
      const ops: Array<[string, Operation]> = [
        ['Put', 'PutItem'],
        ['Update', 'UpdateItem'],
        ['Delete', 'DeleteItem'],
        ['ConditionCheck', 'GetItem'],
        ['Get', 'GetItem'],
      ];
      return itemsOf(entry(input, 'TransactItems')).flatMap((item) => {
        for (const [field, op] of ops) {
          const inner = entry(item, field);
          if (inner) {
            const a = single(site, op, inner, tableOf(inner, table), hints);
            return [
              {
                ...a,
                kind: site.operation === 'TransactGetItems' ? 'read' : 'write',
                increments: op === 'UpdateItem' && increments(inner),
              } as Access,
            ];
          }
        }
        return [];
      });
    }
    case 'ExecuteStatement':
      return [partiqlAccess(site, input, table, hints)];
    default:
      return [single(site, site.operation, input, table, hints)];
  }
}

const PARTIQL_OPERATION = { insert: 'PutItem', select: 'GetItem', update: 'UpdateItem', delete: 'DeleteItem' } as const;

/**
 * A PartiQL statement read as the item operation it performs: its key values are
 * literals in the statement or the `Parameters` at the `?` positions.
 */
function partiqlAccess(site: CallSite, input: Value, fallback: TableRef, hints: KeySchemaHints): Access {
  const statement = entry(input, 'Statement');
  const text = statement?.kind === 'scalar' ? literalText(statement.template) : null;
  const parsed = text === null ? null : parsePartiql(text);
  if (!statement || !parsed)
    return single(site, 'GetItem', { kind: 'object', entries: [], span: site.span }, fallback, hints);
  const params = entry(input, 'Parameters');
  const valueOf = (v: PartiqlValue): Value =>
    'literal' in v
      ? { kind: 'scalar', template: literal(v.literal), span: statement.span }
      : params?.kind === 'array' && params.items[v.parameter]
        ? params.items[v.parameter]
        : { kind: 'scalar', template: { parts: [{ hole: { kind: 'unknown', source: '?' } }] }, span: statement.span };
  const key: Value = {
    kind: 'object',
    entries: parsed.attributes.map(([a, v]) => [a, valueOf(v)]),
    span: statement.span,
  };
  const operation = PARTIQL_OPERATION[parsed.kind];
  const field = operation === 'PutItem' ? 'Item' : 'Key';
  const table: TableRef = { kind: 'literal', name: parsed.table.split('.')[0] };
  return single(site, operation, { kind: 'object', entries: [[field, key]], span: site.span }, table, hints);
}

/** Learns each table's key attribute names from calls that name only keys. */
export function learnKeySchemas(sites: CallSite[], hintOf = schemaHintOf): KeySchemaHints {
  const hints: KeySchemaHints = new Map();
  for (const s of sites) {
    const h = hintOf(s);
    if (h && !hints.has(h[0])) hints.set(h[0], h[1]);
  }
  return hints;
}

/** What one call site says of its table's key names: a `Key` or a key condition names only keys. */
export function schemaHintOf(s: CallSite): [string, { partition: string; sort?: string }] | null {
  // Index queries name the index's keys, not the table's.
  const namesOnlyKeys = ['GetItem', 'UpdateItem', 'DeleteItem', 'Query'].includes(s.operation);
  if (!namesOnlyKeys || entry(s.input, 'IndexName')) return null;
  const a = single(s, s.operation, s.input, tableOf(s.input, s.table), new Map());
  if (!a.partitionKey || a.table.kind === 'unknown') return null;
  return [tableKey(a.table), { partition: a.partitionKey.attribute, sort: a.sortKey?.attribute }];
}
