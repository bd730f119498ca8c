/**
 * The DynamoDB request a PynamoDB call makes, as the model's request value: the
 * model's key attributes under the names they are stored by, put where the SDK request
 * carries them (`Key`, `Item`, a key condition), so the shared stages read it like any
 * request. A key value carries its attribute's declaration in `via`: a finding's related
 * location is the model.
 */
import type { Declaration, Span } from '../../model';
import { literal, literalText } from '../../model/template';
import type { Entry, Value } from '../../model/value';
import { keyConditionEntries, perItem, type RangeCondition } from '../library-requests';
import type { AttributeSchema, ModelSchema } from './schema';

/** The value a call gives an attribute (by Python name), or undefined when it gives none. */
export type Values = (attribute: string) => Value | undefined;

export const str = (s: string, span: Span): Value => ({ kind: 'scalar', template: literal(s), span });

export function obj(entries: Entry[], span: Span): Value {
  return { kind: 'object', entries, span };
}

/** The declaration a key value comes through: `forum_name = UnicodeAttribute(hash_key=True)`. */
export function attributeDeclaration(m: ModelSchema, a: AttributeSchema): Declaration {
  return { name: `${m.name}.${a.name}`, file: a.file, span: a.span, valueSpan: a.span };
}

/** A key attribute's value at a call, through its declaration; a value not given is one not read. */
export function keyValue(m: ModelSchema, a: AttributeSchema, v: Value | undefined, at: Span): Value {
  if (!v) return { kind: 'scalar', template: { parts: [{ hole: { kind: 'unknown', source: a.name } }] }, span: at };
  if (v.kind !== 'scalar') return v;
  return { ...v, via: [...(v.via ?? []), attributeDeclaration(m, a)] };
}

export function withTable(m: ModelSchema, rest: Entry[]): Entry[] {
  return m.table ? [['TableName', m.table], ...rest] : rest;
}

/** `{ hash: h, range: r }` under the stored names. */
export function keyObject(m: ModelSchema, values: Values, at: Span): Value {
  const key: Entry[] = [[m.hash.stored, keyValue(m, m.hash, values(m.hash.name), at), at]];
  if (m.range) key.push([m.range.stored, keyValue(m, m.range, values(m.range.name), at), at]);
  return obj(key, at);
}

export function keyRequest(m: ModelSchema, values: Values, at: Span, extra: Entry[] = []): Value {
  return obj(withTable(m, [['Key', keyObject(m, values, at), at], ...extra]), at);
}

/**
 * The item a save writes: every attribute the instance was given, under its stored
 * name, and each key attribute it was not given from its `default` (a random default
 * is drawn per item: `perItem`).
 */
export function item(m: ModelSchema, given: Array<[string, Value]>, at: Span): Value {
  const entries: Entry[] = [];
  const seen = new Set<string>();
  for (const [name, v] of given) {
    const a = m.attributes.get(name);
    if (!a) continue;
    seen.add(name);
    entries.push([a.stored, a.hash || a.range || isIndexKey(m, a) ? keyValue(m, a, v, at) : v, at]);
  }
  for (const a of m.attributes.values()) {
    if (seen.has(a.name) || !a.default) continue;
    if (a.hash || a.range || isIndexKey(m, a))
      entries.push([a.stored, keyValue(m, a, defaultAt(a.default, at), at), at]);
  }
  // The hash key first, then the range key: an item's first attribute is its partition key
  // to a reader that knows no key schema for the table.
  const rank = (n: string) => (n === m.hash.stored ? 0 : n === m.range?.stored ? 1 : 2);
  const ordered = entries.map((e, i) => [e, i] as const).sort((a, b) => rank(a[0][0]) - rank(b[0][0]) || a[1] - b[1]);
  return obj(
    ordered.map(([e]) => e),
    at,
  );
}

function isIndexKey(m: ModelSchema, a: AttributeSchema): boolean {
  for (const ix of m.indexes.values()) if (ix.hash.name === a.name || ix.range?.name === a.name) return true;
  return false;
}

/** A default as a call's value: drawn per item, reported at the call that leaves the attribute out. */
function defaultAt(v: Value, at: Span): Value {
  return perItem({ ...v, span: at });
}

/**
 * The hash keys (of the table or an index) a save leaves to a constant `default=`, by
 * stored name: the model's own site reports that key (`schema-sites.ts`), the save is
 * related to it.
 */
export function constantDefaults(m: ModelSchema, given: Array<[string, Value]>): string[] {
  const out = new Set<string>();
  const constant = (d: Value | undefined) => d?.kind === 'scalar' && literalText(d.template) !== null;
  const left = (name: string) => !given.some(([g]) => g === name);
  if (left(m.hash.name) && constant(m.hash.default)) out.add(m.hash.stored);
  for (const ix of m.indexes.values()) {
    const own = m.attributes.get(ix.hash.name);
    if (left(ix.hash.name) && (constant(own?.default) || constant(ix.hash.default))) out.add(ix.hash.stored);
  }
  return [...out];
}

export function putRequest(m: ModelSchema, given: Array<[string, Value]>, at: Span): Value {
  return obj(withTable(m, [['Item', item(m, given, at), at]]), at);
}

/** A range key condition: the operator and its operands. */
export type { RangeCondition };

/** A query of the table or of an index: `#pk = :pk`, with the range key condition when given. */
export function queryRequest(
  m: ModelSchema,
  hash: AttributeSchema,
  range: AttributeSchema | null,
  hashValue: Value | undefined,
  condition: RangeCondition | null,
  indexName: string | null,
  at: Span,
  extra: Entry[] = [],
): Value {
  const key = keyConditionEntries(hash.stored, keyValue(m, hash, hashValue, at), range?.stored ?? null, condition, at);
  return obj(
    withTable(m, [...(indexName ? ([['IndexName', str(indexName, at)]] as Entry[]) : []), ...key, ...extra]),
    at,
  );
}

/** A table name for `RequestItems`: the literal, else a placeholder. */
export function tableKey(m: ModelSchema): string {
  const t = m.table;
  if (t?.kind === 'scalar' && t.template.parts.every((p) => 'literal' in p))
    return t.template.parts.map((p) => ('literal' in p ? p.literal : '')).join('');
  return '[table]';
}
