/**
 * A OneTable call as the request the library sends: `Key` for a get, delete or
 * update (with `ADD` for `{ add: { count: 1 } }`), `Item` for a create (each index
 * partition it writes as a site of its own), and a key condition for a find on the
 * table or an index (`{ index: 'gs1' }`).
 */
import type { KeyOperator, Span } from '../../model';
import { literal } from '../../model/template';
import { entry, type Entry, type Value } from '../../model/value';
import { storedValue, type Given, type Stored } from './keys';
import type { IndexSchema, ModelSchema } from './schema';

const str = (s: string, span: Span): Value => ({ kind: 'scalar', template: literal(s), span });
const obj = (entries: Entry[], span: Span): Value => ({ kind: 'object', entries, span });

const withTable = (m: ModelSchema, rest: Entry[]): Entry[] =>
  m.tableName ? [['TableName', m.tableName], ...rest] : rest;

export function givenOf(v: Value | undefined): Given {
  return (name) => entry(v, name);
}

/** The table's key for a get, delete or update, or null when its partition key is not filled. */
export function keyRequest(m: ModelSchema, given: Given, at: Span, extra: Entry[] = []): Value | null {
  const pk = storedValue(m, m.primary.hash, given, 'key', at);
  if (!pk) return null;
  const sk = m.primary.sort ? storedValue(m, m.primary.sort, given, 'key', at) : null;
  const key: Entry[] = [[m.primary.hash, pk.value, at]];
  if (sk && m.primary.sort) key.push([m.primary.sort, sk.value, at]);
  return obj(withTable(m, [['Key', obj(key, at), at], ...extra]), at);
}

/** The fields an index is keyed by that the table's key is not: written by the index's own site. */
function indexFields(m: ModelSchema): Set<string> {
  const own = new Set([m.primary.hash, m.primary.sort]);
  return new Set(m.indexes.flatMap((i) => [i.hash, i.sort]).filter((f): f is string => !!f && !own.has(f)));
}

/** A create's item: the table's key and the properties the call gives, stored under their attributes. */
export function putRequest(m: ModelSchema, given: Value | undefined, at: Span): { input: Value; pk: Stored } | null {
  const g = givenOf(given);
  const pk = storedValue(m, m.primary.hash, g, 'put', at);
  if (!pk) return null;
  const sk = m.primary.sort ? storedValue(m, m.primary.sort, g, 'put', at) : null;
  const item: Entry[] = [[m.primary.hash, pk.value, at]];
  if (sk && m.primary.sort) item.push([m.primary.sort, sk.value, at]);
  const skip = indexFields(m);
  if (given?.kind === 'object')
    for (const [name, v, pair] of given.entries) {
      const field = m.fields.get(name)?.field ?? name;
      if (!skip.has(field) && !item.some(([n]) => n === field)) item.push([field, v, pair]);
    }
  return { input: obj(withTable(m, [['Item', obj(item, at), at]]), at), pk };
}

/** An index partition a create writes, or null when the item leaves the index's partition key out (a sparse index). */
export function indexWrite(
  m: ModelSchema,
  ix: IndexSchema,
  given: Given,
  at: Span,
): { input: Value; pk: Stored } | null {
  if (ix.hash === m.primary.hash) return null;
  const pk = storedValue(m, ix.hash, given, 'put', at);
  if (!pk) return null;
  const sk = ix.sort ? storedValue(m, ix.sort, given, 'put', at) : null;
  const item: Entry[] = [[ix.hash, pk.value, at]];
  if (sk && ix.sort) item.push([ix.sort, sk.value, at]);
  return {
    input: obj(
      withTable(m, [
        ['IndexName', str(ix.name, at)],
        ['Item', obj(item, at)],
      ]),
      at,
    ),
    pk,
  };
}

/** `{ add: { count: 1 } }` in an update's params: `ADD #count :count`. */
export function incrementOf(params: Value | undefined, m: ModelSchema, at: Span): Entry[] {
  const add = entry(params, 'add');
  if (add?.kind !== 'object' || add.entries.length === 0) return [];
  const [name, by] = add.entries[0];
  const field = m.fields.get(name)?.field ?? name;
  return [
    ['UpdateExpression', str(`ADD #${field} :${field}`, at)],
    ['ExpressionAttributeNames', obj([[`#${field}`, str(field, at)]], at)],
    ['ExpressionAttributeValues', obj([[`:${field}`, by]], at)],
  ];
}

/** A find: `#pk = :pk` on the table or index, and the sort key when the call fills its template. */
export function queryRequest(
  m: ModelSchema,
  ix: IndexSchema,
  given: Given,
  params: Value | undefined,
  at: Span,
): Value | null {
  const pk = storedValue(m, ix.hash, given, 'find', at);
  if (!pk || pk.begins) return null;
  const names: Entry[] = [['#pk', str(ix.hash, at)]];
  const values: Entry[] = [[':pk', pk.value, at]];
  let condition = '#pk = :pk';
  const sk = ix.sort ? storedValue(m, ix.sort, given, 'find', at) : null;
  if (sk && ix.sort) {
    const op: KeyOperator = sk.begins ? 'begins_with' : '=';
    names.push(['#sk', str(ix.sort, at)]);
    values.push([':sk0', sk.value, at]);
    condition += op === 'begins_with' ? ' and begins_with(#sk, :sk0)' : ' and #sk = :sk0';
  }
  const limit = entry(params, 'limit');
  return obj(
    withTable(m, [
      ...(ix.name !== 'primary' ? ([['IndexName', str(ix.name, at)]] as Entry[]) : []),
      ['KeyConditionExpression', str(condition, at)],
      ['ExpressionAttributeNames', obj(names, at)],
      ['ExpressionAttributeValues', obj(values, at)],
      ...(limit ? ([['Limit', limit]] as Entry[]) : []),
    ]),
    at,
  );
}
