/**
 * A TypeDORM call as the request the library sends: `Key` for `findOne`, `exists`,
 * `delete` and `update` (`{ views: { INCREMENT_BY: 1 } }` is an increment),
 * `Item` for `create` (each index partition it writes as a site of its own), and a key
 * condition for `find`/`count` on the table or an index (`{ queryIndex: 'GSI1',
 * keyCondition: { BEGINS_WITH: 'ORDER#' } }`). Keys are stored under the table's
 * attribute names (`storedNames`).
 */
import type { KeyOperator, Span } from '../../model';
import type { TableHint } from '../../model/call-site';
import { entry, type Entry, type Value } from '../../model/value';
import { keyConditionEntries, obj, str, type RangeCondition } from '../library-requests';
import { storedKey, type Given, type Stored } from './keys';
import { storedNames, type EntitySchema, type KeySchema } from './schema';

const withTable = (e: EntitySchema, rest: Entry[]): Entry[] =>
  e.table?.name ? [['TableName', e.table.name], ...rest] : rest;

export function givenOf(v: Value | undefined): Given {
  return (name) => entry(v, name);
}

/** The key names the request reader is told: the table's and each index's, as the entity stores them. */
export function keySchemaOf(e: EntitySchema): TableHint {
  const names = storedNames(e, e.primary);
  const indexes = Object.fromEntries(
    e.indexes.map((k) => {
      const n = storedNames(e, k);
      return [k.name, n.sort ? { partition: n.partition, sort: n.sort } : { partition: n.partition }];
    }),
  );
  return { partition: names.partition, ...(names.sort ? { sort: names.sort } : {}), indexes };
}

/** A key's partition and sort values, or null when the call does not fill its partition. */
function keyPair(e: EntitySchema, key: KeySchema, g: Given, put: boolean, at: Span): [Entry[], Stored] | null {
  const names = storedNames(e, key);
  const partition = key.local ? e.primary.partition : key.partition;
  const pk = storedKey(e, key.local ? e.primary : key, partition, g, put, at);
  if (!pk) return null;
  const sk = key.sort ? storedKey(e, key, key.sort, g, put, at) : null;
  const entries: Entry[] = [[names.partition, pk.value, at]];
  if (sk && names.sort) entries.push([names.sort, sk.value, at]);
  return [entries, pk];
}

/** The table's key for a get, delete or update, or null when the call does not fill it. */
export function keyRequest(e: EntitySchema, g: Given, at: Span, extra: Entry[] = []): Value | null {
  const pair = keyPair(e, e.primary, g, false, at);
  return pair ? obj(withTable(e, [['Key', obj(pair[0], at), at], ...extra]), at) : null;
}

/** A create's item: the table's key and the attributes the item holds. */
export function putRequest(e: EntitySchema, item: Value | undefined, at: Span): { input: Value; pk: Stored } | null {
  const pair = keyPair(e, e.primary, givenOf(item), true, at);
  if (!pair) return null;
  const [keys, pk] = pair;
  const entries: Entry[] = [...keys];
  if (item?.kind === 'object')
    for (const [name, v, span] of item.entries) if (!entries.some(([n]) => n === name)) entries.push([name, v, span]);
  return { input: obj(withTable(e, [['Item', obj(entries, at), at]]), at), pk };
}

/** An index partition a write stores, or null when the item leaves its key out (a sparse index). */
export function indexWrite(
  e: EntitySchema,
  key: KeySchema,
  g: Given,
  put: boolean,
  at: Span,
): { input: Value; pk: Stored } | null {
  if (key.local) return null;
  const pair = keyPair(e, key, g, put, at);
  if (!pair) return null;
  const input = obj(
    withTable(e, [
      ['IndexName', str(key.name, at)],
      ['Item', obj(pair[0], at)],
    ]),
    at,
  );
  return { input, pk: pair[1] };
}

/**
 * `{ views: { INCREMENT_BY: 1 } }` in an update's body: `SET #views = #views + :views`,
 * as TypeDORM writes it; `{ views: { ADD: 1 } }`: `ADD #views :views`.
 */
export function incrementOf(body: Value | undefined, at: Span): Entry[] {
  if (body?.kind !== 'object') return [];
  for (const [name, v] of body.entries) {
    const set = entry(v, 'INCREMENT_BY');
    const by = set ?? entry(v, 'ADD');
    if (!by) continue;
    const expression = set ? `SET #${name} = #${name} + :${name}` : `ADD #${name} :${name}`;
    return [
      ['UpdateExpression', str(expression, at)],
      ['ExpressionAttributeNames', obj([[`#${name}`, str(name, at)]], at)],
      ['ExpressionAttributeValues', obj([[`:${name}`, by]], at)],
    ];
  }
  return [];
}

const OPERATORS: Record<string, KeyOperator> = { EQ: '=', LT: '<', LE: '<=', GT: '>', GE: '>=' };

/** `keyCondition: { BEGINS_WITH: 'ORDER#' }` (or `EQ`, `LT`, ..., `BETWEEN: [a, b]`): the sort key's range. */
function rangeOf(keyCondition: Value | undefined): RangeCondition | null {
  if (keyCondition?.kind !== 'object' || keyCondition.entries.length === 0) return null;
  const [op, v] = keyCondition.entries[0];
  if (op === 'BEGINS_WITH') return { operator: 'begins_with', operands: [v] };
  if (op === 'BETWEEN')
    return v.kind === 'array' && v.items.length === 2 ? { operator: 'BETWEEN', operands: v.items } : null;
  return OPERATORS[op] ? { operator: OPERATORS[op], operands: [v] } : null;
}

/** A find or count: `#pk = :pk` on the table or index, and the sort key's `keyCondition`. */
export function queryRequest(
  e: EntitySchema,
  key: KeySchema,
  g: Given,
  options: Value | undefined,
  at: Span,
): Value | null {
  const names = storedNames(e, key);
  const pk = storedKey(e, key.local ? e.primary : key, key.local ? e.primary.partition : key.partition, g, false, at);
  if (!pk) return null;
  const limit = entry(options, 'limit');
  return obj(
    withTable(e, [
      ...(key.name !== 'primary' ? ([['IndexName', str(key.name, at)]] as Entry[]) : []),
      ...keyConditionEntries(names.partition, pk.value, names.sort, rangeOf(entry(options, 'keyCondition')), at),
      ...(limit ? ([['Limit', limit]] as Entry[]) : []),
    ]),
    at,
  );
}
