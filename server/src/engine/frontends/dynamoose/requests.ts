/**
 * The DynamoDB request a dynamoose call sends, as a request value: the model's keys
 * under the names they are stored by, where the SDK request carries them (`Key`, `Item`,
 * a key condition, `RequestItems`), so the shared stages read it like any request. A key
 * value carries its attribute's declaration in `via`: a finding's related location is
 * the schema.
 */
import type { Declaration, Span } from '../../model';
import { literal, literalText } from '../../model/template';
import type { Entry, Value } from '../../model/value';
import { keyConditionEntries, perItem, type RangeCondition } from '../library-requests';
import { attributeNamed, type ModelSchema } from './schema';

export const str = (s: string, span: Span): Value => ({ kind: 'scalar', template: literal(s), span });
export const obj = (entries: Entry[], span: Span): Value => ({ kind: 'object', entries, span });

/** The values a call gives, by the schema's attribute names. */
export type Values = Map<string, Value>;

/** An object the call gives (an item, a key) by the schema's names; a scalar key is the hash key's value. */
export function valuesOf(m: ModelSchema, v: Value | undefined): Values {
  const out: Values = new Map();
  if (v?.kind === 'scalar') out.set(m.hash, v);
  else if (v?.kind === 'object') for (const [name, value] of v.entries) out.set(attributeNamed(m, name), value);
  return out;
}

function declaration(m: ModelSchema, attr: string): Declaration | null {
  const a = m.attributes.get(attr);
  return a ? { name: `${m.name}.${attr}`, file: m.file, span: a.span, valueSpan: a.span } : null;
}

/** A key attribute's value at a call, through its declaration; a value not given is one not read. */
function keyValue(m: ModelSchema, attr: string, v: Value | undefined, at: Span): Value {
  if (!v) return { kind: 'scalar', template: { parts: [{ hole: { kind: 'unknown', source: attr } }] }, span: at };
  const d = declaration(m, attr);
  return v.kind === 'scalar' && d ? { ...v, via: [...(v.via ?? []), d] } : v;
}

function keyAttributes(m: ModelSchema): Set<string> {
  return new Set([m.hash, m.range, ...m.indexes.flatMap((ix) => [ix.hash, ix.range])].filter((a): a is string => !!a));
}

const withTable = (m: ModelSchema, rest: Entry[]): Entry[] => [['TableName', m.table], ...rest];

export function keyObject(m: ModelSchema, values: Values, at: Span): Value {
  const key: Entry[] = [[m.hash, keyValue(m, m.hash, values.get(m.hash), at), at]];
  if (m.range) key.push([m.range, keyValue(m, m.range, values.get(m.range), at), at]);
  return obj(key, at);
}

export function keyRequest(m: ModelSchema, values: Values, at: Span, extra: Entry[] = []): Value {
  return obj(withTable(m, [['Key', keyObject(m, values, at), at], ...extra]), at);
}

/**
 * The item a write stores: what the call gives, and each key attribute (of the table or
 * an index) it leaves out from its `default`, drawn per item. The hash key first: an
 * item's first attribute is its partition key to a reader that knows no key schema.
 */
export function item(m: ModelSchema, values: Values, at: Span): Value {
  const keys = keyAttributes(m);
  const entries: Entry[] = [];
  for (const [name, v] of values) entries.push([name, keys.has(name) ? keyValue(m, name, v, at) : v, at]);
  for (const a of m.attributes.values())
    if (!values.has(a.name) && a.default && keys.has(a.name))
      entries.push([a.name, keyValue(m, a.name, perItem({ ...a.default, span: at }), at), at]);
  // The table's keys are in every item dynamoose writes: one not given nor defaulted is one not read.
  for (const k of [m.hash, m.range])
    if (k && !entries.some(([n]) => n === k)) entries.push([k, keyValue(m, k, undefined, at), at]);
  const rank = (n: string) => (n === m.hash ? 0 : n === m.range ? 1 : 2);
  return obj(
    entries
      .map((e, i) => [e, i] as const)
      .sort((a, b) => rank(a[0][0]) - rank(b[0][0]) || a[1] - b[1])
      .map(([e]) => e),
    at,
  );
}

/**
 * The hash keys (of the table or a global index) a write leaves to a constant `default`:
 * the schema's own site reports that key (`schema-sites.ts`), the write is related to it.
 */
export function constantDefaults(m: ModelSchema, values: Values): string[] {
  const hashes = new Set([m.hash, ...m.indexes.map((ix) => ix.hash)]);
  return [...hashes].filter((h) => {
    const d = m.attributes.get(h)?.default;
    return !values.has(h) && d?.kind === 'scalar' && literalText(d.template) !== null;
  });
}

export function putRequest(m: ModelSchema, values: Values, at: Span): Value {
  return obj(withTable(m, [['Item', item(m, values, at), at]]), at);
}

/**
 * `Model.update(key, { $ADD: { views: 1 }, $SET: { status: "x" }, name: "y" })`, or one
 * object holding the key and the update: `SET` for the values it sets, `ADD` for `$ADD`
 * (an increment).
 */
export function updateRequest(m: ModelSchema, key: Value | undefined, update: Value | undefined, at: Span): Value {
  const given = valuesOf(m, key);
  const changes: Value | undefined =
    update ??
    (key?.kind === 'object'
      ? obj(
          key.entries.filter(([n]) => {
            const a = attributeNamed(m, n);
            return a !== m.hash && a !== m.range;
          }),
          at,
        )
      : undefined);
  const set: Entry[] = [];
  const add: Entry[] = [];
  for (const [name, v, pair] of changes?.kind === 'object' ? changes.entries : []) {
    if (name === '$ADD' || name === '$SET') {
      if (v.kind === 'object') (name === '$ADD' ? add : set).push(...v.entries);
    } else if (!name.startsWith('$')) set.push([name, v, pair]);
  }
  const names: Entry[] = [];
  const vals: Entry[] = [];
  const clause = (entries: Entry[], form: (n: string) => string) =>
    entries.map(([name, v]) => {
      const attr = attributeNamed(m, name);
      const id = attr.replace(/\W/g, '_');
      names.push([`#${id}`, str(attr, at)]);
      vals.push([`:${id}`, v, at]);
      return form(id);
    });
  const sets = clause(set, (id) => `#${id} = :${id}`);
  const adds = clause(add, (id) => `#${id} :${id}`);
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', adds.length ? `ADD ${adds.join(', ')}` : '']
    .filter(Boolean)
    .join(' ');
  const extra: Entry[] = expression
    ? [
        ['UpdateExpression', str(expression, at)],
        ['ExpressionAttributeNames', obj(names, at)],
        ['ExpressionAttributeValues', obj(vals, at)],
      ]
    : [];
  return keyRequest(m, given, at, extra);
}

export type { RangeCondition };

/** A query of the table or an index: `#pk = :pk`, with the range key's condition when it has one. */
export function queryRequest(
  m: ModelSchema,
  keys: { index: string | null; hash: string; range: string | null },
  hashValue: Value,
  condition: RangeCondition | null,
  at: Span,
  extra: Entry[],
): Value {
  const key = keyConditionEntries(keys.hash, keyValue(m, keys.hash, hashValue, at), keys.range, condition, at);
  return obj(
    withTable(m, [...(keys.index ? ([['IndexName', str(keys.index, at)]] as Entry[]) : []), ...key, ...extra]),
    at,
  );
}

/** `RequestItems` of a batch: under the table's literal name, else a placeholder. */
export function batchRequest(m: ModelSchema, requests: Value, at: Span): Value {
  const name = m.table.kind === 'scalar' ? literalText(m.table.template) : null;
  return obj([['RequestItems', obj([[name ?? '[table]', requests, at]], at)]], at);
}
