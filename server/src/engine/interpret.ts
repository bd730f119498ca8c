import { parseIncrements, parseKeyCondition } from './expressions';
import type {
  Access,
  CallStyle,
  KeyOperator,
  KeyValue,
  Operation,
  ReadShape,
  SdkStyle,
  SortKeyCondition,
  SourceLanguage,
  Span,
  TableRef,
} from './model';
import { isPartitionKeyName, isSortKeyName } from './names';
import { parsePartiql, type PartiqlValue } from './partiql';
import { envVariableOf } from './env';
import { indexWrites } from './index-writes';
import { tableKey } from './keys/table';
import { placeOrigins } from './evaluation';
import { literal, literalText } from './template';
import { entry, entryOf, unwrapAttributeValue, type Value } from './value';

/**
 * The input field a request must carry to be a DynamoDB call: where the receiver is
 * unknown, this tells `table.put(...)` from `map.get(k)` or `cache.put(k, v)`. A query
 * may instead use the legacy `KeyConditions` (see `isRequest`).
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

/** Whether an input carries the field that makes it this operation's request. */
export function isRequest(operation: Operation, input: Value | undefined): boolean {
  return !!entry(input, REQUIRED_FIELD[operation]) || (operation === 'Query' && !!entry(input, 'KeyConditions'));
}

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
}

/** Known key attribute names per table, learned from `Key` objects and key conditions. */
export type KeySchemaHints = Map<string, TableHint>;

export interface KeyNames {
  partition: string;
  sort?: string;
}

/** A table's key names (when a call named only its keys) and its indexes' key names. */
export interface TableHint {
  partition?: string;
  sort?: string;
  /** Index name → its key names, learned from queries with `IndexName`. */
  indexes?: Record<string, KeyNames>;
}

function tableOf(input: Value | undefined, fallback: TableRef): TableRef {
  const v = entry(input, 'TableName');
  return v ? tableRefOf(v) : fallback;
}

/** A table-name value as a table: a literal (maybe through constants), an environment variable, or unknown. */
export function tableRefOf(v: Value | null | undefined): TableRef {
  if (v?.kind !== 'scalar') return { kind: 'unknown', span: v?.span };
  const via = v.via ?? [];
  const text = literalText(v.template);
  if (text !== null) return { kind: 'literal', name: text, span: v.span, via };
  const env = envVariableOf(v.template);
  return env ? { kind: 'env', name: env, span: v.span, via } : { kind: 'unknown', span: v.span };
}

/** A key attribute's value; `use` is the property or clause that carries it into the request. */
function keyValue(attribute: string, v: Value, call: Span, use?: Span): KeyValue | null {
  const u = unwrapAttributeValue(v);
  if (u.kind !== 'scalar') return null;
  return {
    attribute,
    template: u.template,
    span: u.span,
    inline: within(u.span, call),
    use: use ?? u.span,
    via: u.via ?? (v.kind === 'scalar' ? (v.via ?? []) : []),
  };
}

/** A key attribute of an object (`Key`, `Item`), used at its `name: value` pair. */
function keyEntry(obj: Value | undefined, name: string, call: Span): KeyValue | null {
  const e = entryOf(obj, name);
  return e ? keyValue(name, e[1], call, e[2]) : null;
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
function keysOf(obj: Value | undefined, isItem: boolean, hint: TableHint | undefined, call: Span) {
  if (obj?.kind !== 'object' || obj.entries.length === 0) return NO_KEYS;
  const names = obj.entries.map(([k]) => k);
  const pkName =
    (hint?.partition && names.includes(hint.partition) ? hint.partition : undefined) ??
    names.find(isPartitionKeyName) ??
    (isItem ? names[0] : (names.find((n) => !isSortKeyName(n)) ?? names[0]));
  const skName =
    (hint?.sort && names.includes(hint.sort) ? hint.sort : undefined) ??
    names.find(isSortKeyName) ??
    (!isItem && names.length === 2 ? names.find((n) => n !== pkName) : undefined);
  const pk = keyEntry(obj, pkName, call);
  const sk = skName ? keyEntry(obj, skName, call) : null;
  return { pk, sk, condition: sk ? { attribute: sk.attribute, operator: '=' as const, operands: [sk] } : null };
}

interface Keys {
  pk: KeyValue | null;
  sk: KeyValue | null;
  condition: SortKeyCondition | null;
}

const NO_KEYS: Keys = { pk: null, sk: null, condition: null };

function resolveName(name: string, names: Value | undefined): string {
  if (!name.startsWith('#')) return name;
  const v = entry(names, name);
  const text = v?.kind === 'scalar' ? literalText(v.template) : null;
  return text ?? name;
}

const OPERATORS: Record<string, KeyOperator> = {
  '=': '=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  between: 'BETWEEN',
  begins_with: 'begins_with',
};

interface Clause {
  attribute: string;
  op: string;
  /** Each operand with the place it is used at (the `":p": x` pair, or the boto3 clause). */
  operands: Array<{ value: Value | undefined; use?: Span }>;
}

function keysOfQuery(input: Value, call: Span): Keys {
  const kce = entry(input, 'KeyConditionExpression');
  const names = entry(input, 'ExpressionAttributeNames');
  const values = entry(input, 'ExpressionAttributeValues');
  let clauses: Clause[] = [];
  if (kce?.kind === 'condition') {
    clauses = kce.clauses.map((c) => ({
      attribute: c.attribute,
      op: c.op,
      operands: [c.value, ...(c.value2 ? [c.value2] : [])].map((value) => ({ value, use: c.use })),
    }));
  } else if (!kce && entry(input, 'KeyConditions')?.kind === 'object') {
    clauses = legacyKeyConditions(entry(input, 'KeyConditions'));
  } else if (kce?.kind === 'scalar') {
    const text = literalText(kce.template);
    const parsed = text === null ? null : parseKeyCondition(text);
    clauses = (parsed ?? []).map((c) => ({
      attribute: resolveName(c.attribute, names),
      op: c.op,
      operands: c.values.map((name) => {
        const e = entryOf(values, name);
        return { value: e?.[1], use: e?.[2] };
      }),
    }));
  }
  const equal = clauses.filter((c) => c.op === '=');
  const pkClause = equal.length > 1 ? (equal.find((c) => isPartitionKeyName(c.attribute)) ?? equal[0]) : equal[0];
  const skClause = clauses.find((c) => c !== pkClause);
  const operand = (c: Clause | undefined, i: number) => {
    const o = c?.operands[i];
    return o?.value ? keyValue(c!.attribute, o.value, call, o.use) : null;
  };
  const pk = operand(pkClause, 0);
  const sk = operand(skClause, 0);
  const operator = skClause ? OPERATORS[skClause.op] : undefined;
  const operands = skClause ? skClause.operands.map((_, i) => operand(skClause, i)) : [];
  const condition =
    skClause && operator && operands.every((o): o is KeyValue => o !== null)
      ? { attribute: skClause.attribute, operator, operands }
      : null;
  return { pk, sk, condition };
}

const LEGACY_OPERATORS: Record<string, string> = {
  EQ: '=',
  LT: '<',
  LE: '<=',
  GT: '>',
  GE: '>=',
  BETWEEN: 'between',
  BEGINS_WITH: 'begins_with',
};

/** `KeyConditions: { pk: { ComparisonOperator: 'EQ', AttributeValueList: [x] } }` (the legacy parameter). */
function legacyKeyConditions(v: Value | undefined): Clause[] {
  if (v?.kind !== 'object') return [];
  return v.entries.flatMap(([attribute, condition, pair]) => {
    const opValue = entry(condition, 'ComparisonOperator');
    const op = opValue?.kind === 'scalar' ? LEGACY_OPERATORS[literalText(opValue.template) ?? ''] : undefined;
    const list = entry(condition, 'AttributeValueList');
    if (!op || list?.kind !== 'array') return [];
    return [{ attribute, op, operands: list.items.map((value) => ({ value, use: pair })) }];
  });
}

/** A Query's options beyond its key condition. */
function readShape(input: Value, paginator: boolean): ReadShape {
  const text = (name: string) => {
    const v = entry(input, name);
    return v?.kind === 'scalar' ? literalText(v.template) : null;
  };
  const limitValue = entry(input, 'Limit');
  const limitText = text('Limit');
  const names: Record<string, string> = {};
  const nameMap = entry(input, 'ExpressionAttributeNames');
  if (nameMap?.kind === 'object') {
    for (const [alias, v] of nameMap.entries) {
      const t = v.kind === 'scalar' ? literalText(v.template) : null;
      if (t !== null) names[alias] = t;
    }
  }
  const forward = text('ScanIndexForward');
  return {
    limit: !limitValue ? null : limitText !== null && /^\d+$/.test(limitText) ? Number(limitText) : 'dynamic',
    scanIndexForward:
      forward === 'true' || forward === 'True' ? true : forward === 'false' || forward === 'False' ? false : null,
    projection: text('ProjectionExpression'),
    names,
    exclusiveStartKey: !!entry(input, 'ExclusiveStartKey'),
    paginator,
    consistent: /^(true|True)$/.test(text('ConsistentRead') ?? ''),
  };
}

/** `AttributeUpdates: { n: { Action: 'ADD', Value: 1 } }` (the legacy parameter) adds to a number. */
function legacyIncrements(input: Value): boolean {
  const updates = entry(input, 'AttributeUpdates');
  if (updates?.kind !== 'object') return false;
  return updates.entries.some(([, u]) => {
    const action = entry(u, 'Action');
    if (action?.kind !== 'scalar' || literalText(action.template) !== 'ADD') return false;
    const value = entry(u, 'Value');
    const inner = value ? unwrapAttributeValue(value) : undefined;
    const t = inner?.kind === 'scalar' ? literalText(inner.template) : null;
    return inner?.kind === 'scalar' && (t === null || /^-?\d+(\.\d+)?$/.test(t));
  });
}

function increments(input: Value): boolean {
  if (legacyIncrements(input)) return true;
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
  const index = entry(input, 'IndexName');
  const read = operation === 'Query' ? readShape(input, site.paginator) : null;
  return {
    file: site.file,
    language: site.language,
    operation: site.operation,
    kind: READS.includes(operation) ? 'read' : 'write',
    sdk: site.sdk,
    table,
    index: index?.kind === 'scalar' ? literalText(index.template) : null,
    span: site.span,
    partitionKey: keys.pk,
    sortKey: keys.sk,
    sortCondition: keys.condition,
    read,
    call: site.call,
    increments: operation === 'UpdateItem' && increments(input),
    paginated: site.paginated || !!read?.exclusiveStartKey,
    limited: read?.limit != null,
    itemBytes: operation === 'PutItem' ? estimateBytes(entry(input, 'Item')) : null,
  };
}

function itemsOf(v: Value | undefined): Value[] {
  return v?.kind === 'array' ? v.items : v ? [v] : [];
}

/**
 * Reads one call site's input as one access per item collection it touches, with
 * every origin and declaration made in this file naming it.
 */
export function interpret(site: CallSite, hints: KeySchemaHints = new Map()): Access[] {
  return placeOrigins(accessesOf(site, hints), site.file);
}

function accessesOf(site: CallSite, hints: KeySchemaHints): Access[] {
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
    default: {
      const base = single(site, site.operation, input, table, hints);
      return [
        base,
        ...indexWrites(base, input, hints.get(tableKey(table)), (key) => single(site, 'PutItem', key, table, hints)),
      ];
    }
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

/**
 * Learns each table's key attribute names from calls that name only keys, and its
 * indexes' key names from queries through them (the first hint of each kind wins).
 */
export function learnKeySchemas(sites: CallSite[], hintOf = schemaHintOf): KeySchemaHints {
  const hints: KeySchemaHints = new Map();
  for (const s of sites) {
    const h = hintOf(s);
    if (!h) continue;
    const known = hints.get(h[0]) ?? {};
    hints.set(h[0], {
      partition: known.partition ?? h[1].partition,
      sort: known.partition ? known.sort : h[1].sort,
      ...(known.indexes || h[1].indexes ? { indexes: { ...h[1].indexes, ...known.indexes } } : {}),
    });
  }
  return hints;
}

/**
 * What one call site says of its table's key names: a `Key` or a key condition names
 * only keys; a query through an index names that index's keys.
 */
export function schemaHintOf(s: CallSite): [string, TableHint] | null {
  const namesOnlyKeys = ['GetItem', 'UpdateItem', 'DeleteItem', 'Query'].includes(s.operation);
  if (!namesOnlyKeys) return null;
  const a = single(s, s.operation, s.input, tableOf(s.input, s.table), new Map());
  if (!a.partitionKey || a.table.kind === 'unknown') return null;
  const names: KeyNames = { partition: a.partitionKey.attribute, sort: a.sortKey?.attribute };
  return [tableKey(a.table), a.index ? { indexes: { [a.index]: names } } : names];
}
