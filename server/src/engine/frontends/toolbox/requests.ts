/**
 * A toolbox call as the request the library sends: `Key` for get and delete, `Item`
 * for a put (its index keys written by their own index sites), `ADD` for an update
 * that gives `$add(n)` (v1) or `{ $add: n }` (v0), and a key condition for a query.
 */
import type { KeyOperator, Span } from '../../model';
import { literal } from '../../model/template';
import { entry, type Entry, type Value } from '../../model/value';
import { keyConditionEntries, type RangeCondition } from '../library-requests';
import { storedValue, type Given, type Stored } from './keys';
import type { EntitySchema, IndexSchema } from './schema';

const str = (s: string, span: Span): Value => ({ kind: 'scalar', template: literal(s), span });

const withTable = (e: EntitySchema, rest: Entry[]): Entry[] =>
  e.table.name ? [['TableName', e.table.name], ...rest] : rest;

/** The call's values by entity attribute name. */
export function givenOf(v: Value | undefined): Given {
  return (attr) => entry(v, attr);
}

/** The table's own key for the call: `{ pk, sk }`, or null when its partition key is not read. */
export function keyOf(e: EntitySchema, given: Given, at: Span): Value | null {
  const pk = storedValue(e, e.table.pk, given, at);
  if (!pk) return null;
  const sk = e.table.sk ? storedValue(e, e.table.sk, given, at) : null;
  const entries: Entry[] = [[e.table.pk, pk.value, at]];
  if (sk && e.table.sk) entries.push([e.table.sk, sk.value, at]);
  return { kind: 'object', entries, span: at };
}

export function keyRequest(e: EntitySchema, given: Given, at: Span, extra: Entry[] = []): Value | null {
  const key = keyOf(e, given, at);
  return key ? { kind: 'object', entries: withTable(e, [['Key', key, at], ...extra]), span: at } : null;
}

/** The fields an index is keyed by that the table's key is not. */
function indexFields(e: EntitySchema): Set<string> {
  const own = new Set([e.table.pk, e.table.sk]);
  return new Set(e.table.indexes.flatMap((i) => [i.pk, i.sk]).filter((f): f is string => !!f && !own.has(f)));
}

/** A put's item: the table's key and the attributes the call gives, stored under their names. */
export function putRequest(e: EntitySchema, given: Value | undefined, at: Span): Value | null {
  const key = keyOf(e, givenOf(given), at);
  if (key?.kind !== 'object') return null;
  const skip = indexFields(e);
  const entries: Entry[] = [...key.entries];
  if (given?.kind === 'object')
    for (const [name, v, pair] of given.entries) {
      const field = e.attributes.get(name)?.field ?? name;
      if (!skip.has(field) && !entries.some(([n]) => n === field)) entries.push([field, v, pair]);
    }
  return { kind: 'object', entries: withTable(e, [['Item', { kind: 'object', entries, span: at }, at]]), span: at };
}

/** An index partition a put writes: the index's keys as stored, or null when the item does not write its partition key. */
export function indexWrite(
  e: EntitySchema,
  ix: IndexSchema,
  given: Given,
  at: Span,
): { input: Value; pk: Stored } | null {
  if (ix.pk === e.table.pk) return null;
  const pk = storedValue(e, ix.pk, given, at);
  if (!pk) return null;
  const sk = ix.sk ? storedValue(e, ix.sk, given, at) : null;
  const item: Entry[] = [[ix.pk, pk.value, at]];
  if (sk && ix.sk) item.push([ix.sk, sk.value, at]);
  const input: Value = {
    kind: 'object',
    entries: withTable(e, [
      ['IndexName', str(ix.name, at)],
      ['Item', { kind: 'object', entries: item, span: at }],
    ]),
    span: at,
  };
  return { input, pk };
}

/** `count: $add(1)` (v1) or `count: { $add: 1 }` (v0) in an update: `ADD #count :count`. */
export function incrementOf(given: Value | undefined, e: EntitySchema, at: Span): Entry[] {
  if (given?.kind !== 'object') return [];
  for (const [name, v] of given.entries) {
    const by =
      v.kind === 'object' && v.made?.name === '$add'
        ? v.made.args[0]
        : v.kind === 'object'
          ? entry(v, '$add')
          : undefined;
    if (!by) continue;
    const field = e.attributes.get(name)?.field ?? name;
    return [
      ['UpdateExpression', str(`ADD #${field} :${field}`, at)],
      ['ExpressionAttributeNames', { kind: 'object', entries: [[`#${field}`, str(field, at)]], span: at }],
      ['ExpressionAttributeValues', { kind: 'object', entries: [[`:${field}`, by]], span: at }],
    ];
  }
  return [];
}

export type Range = RangeCondition;

/** A query: `#pk = :pk` on the table or index, and the sort-key range when one is given. */
export function queryRequest(
  table: Value | undefined,
  keys: { index: string | null; pk: string; sk: string | null },
  partition: Value,
  range: Range | null,
  at: Span,
  extra: Entry[] = [],
): Value {
  const entries: Entry[] = [
    ...(table ? ([['TableName', table]] as Entry[]) : []),
    ...(keys.index ? ([['IndexName', str(keys.index, at)]] as Entry[]) : []),
    ...keyConditionEntries(keys.pk, partition, keys.sk, range, at),
    ...extra,
  ];
  return { kind: 'object', entries, span: at };
}

const RANGE_OPERATORS: Record<string, KeyOperator> = {
  beginsWith: 'begins_with',
  eq: '=',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  between: 'BETWEEN',
};

/** `range: { beginsWith: 'X' }` (v1) or the options `{ beginsWith, between: [a, b], ... }` (v0). */
export function rangeOf(v: Value | undefined): Range | null {
  if (v?.kind !== 'object') return null;
  for (const [name, value] of v.entries) {
    const operator = RANGE_OPERATORS[name];
    if (!operator) continue;
    const operands = operator === 'BETWEEN' && value.kind === 'array' ? value.items : [value];
    return { operator, operands };
  }
  return null;
}
