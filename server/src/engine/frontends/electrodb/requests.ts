/**
 * The DynamoDB request an ElectroDB call makes, as the model's request value: the
 * entity's keys rendered from the call's attribute values (`keys.ts`) put where the
 * SDK request carries them (`Key`, `Item`, a key condition), so the shared stages read
 * it like any request. Key values carry the access pattern's `pk` declaration in
 * `via`: a finding's related location is the schema.
 */
import type { Declaration, KeyOperator, KeyTemplate, Origin, Span } from '../../model';
import { literal } from '../../model/template';
import { entry, type Entry, type Value } from '../../model/value';
import { perItem } from '../library-requests';
import { partitionPrefix, renderKey, sortPrefix, type Composites, type Prefix } from './keys';
import type { AccessPattern, EntitySchema } from './schema';

/** The declaration a key's values come through: the access pattern's `pk: { ... }`. */
export function patternDeclaration(e: EntitySchema, p: AccessPattern): Declaration {
  return { name: `${e.entity}.${p.name}.pk`, file: e.file, span: p.pk.span, valueSpan: p.pk.span };
}

function scalarAt(template: KeyTemplate, span: Span, via: Declaration[]): Value {
  return { kind: 'scalar', template, span, via };
}

const str = (s: string, span: Span): Value => ({ kind: 'scalar', template: literal(s), span });

/** Where a key value is reported: the first composite value written as a constant, else `fallback`. */
function keySpan(p: AccessPattern, values: Composites, fallback: Span): Span {
  for (const attr of p.pk.composite) {
    const v = values(attr);
    if (v?.kind === 'scalar' && v.template.parts.every((x) => 'literal' in x)) return v.span;
  }
  return fallback;
}

export interface Keys {
  pk: Value;
  sk: Value | null;
  /** The sort key is a prefix (a composite attribute was not given). */
  skPrefix: boolean;
}

/** The pattern's partition and sort key at a call; `at` is where the call gives its values. */
export function patternKeys(e: EntitySchema, p: AccessPattern, values: Composites, at: Span, prefix: Prefix): Keys {
  const via = [patternDeclaration(e, p)];
  const origin = (span: Span): Origin => ({ file: e.file, span, via: [] });
  const pk = renderKey(p.pk, partitionPrefix(e, p), values, origin(p.pk.span), 'none');
  const sk = p.sk ? renderKey(p.sk, sortPrefix(e, p), values, origin(p.sk.span), prefix) : null;
  return {
    pk: scalarAt(pk.template, keySpan(p, values, at), via),
    sk: sk ? scalarAt(sk.template, at, []) : null,
    skPrefix: !!sk && !sk.complete,
  };
}

const withTable = (e: EntitySchema, rest: Entry[]): Entry[] => (e.table ? [['TableName', e.table], ...rest] : rest);

/** `{ TableName, Key: { pk, sk } }` for get, delete, update and patch. */
export function keyRequest(
  e: EntitySchema,
  p: AccessPattern,
  values: Composites,
  at: Span,
  extra: Entry[] = [],
): Value {
  const k = patternKeys(e, p, values, at, 'none');
  const key: Entry[] = [[p.pk.field, k.pk, at]];
  if (p.sk && k.sk) key.push([p.sk.field, k.sk, at]);
  return {
    kind: 'object',
    entries: withTable(e, [['Key', { kind: 'object', entries: key, span: at }, at], ...extra]),
    span: at,
  };
}

/** The item a put writes: every access pattern's keys (index keys included), then the attributes. */
export function item(e: EntitySchema, values: Composites, given: Value | undefined, at: Span): Value {
  const entries: Entry[] = [];
  for (const p of e.patterns) {
    const k = patternKeys(e, p, values, at, 'none');
    entries.push([p.pk.field, k.pk, at]);
    if (p.sk && k.sk) entries.push([p.sk.field, k.sk, at]);
  }
  if (given?.kind === 'object') entries.push(...given.entries.filter(([n]) => !entries.some(([m]) => m === n)));
  return { kind: 'object', entries, span: at };
}

export function putRequest(e: EntitySchema, values: Composites, given: Value | undefined, at: Span): Value {
  return { kind: 'object', entries: withTable(e, [['Item', item(e, values, given, at), at]]), span: at };
}

export interface SortRange {
  operator: KeyOperator;
  /** The values of the sort-key method's arguments (`.between(a, b)` has two). */
  operands: Composites[];
}

/**
 * A query of one access pattern: `#pk = :pk`, and on the sort key the method's operator
 * (`begins`, `between`, `gt`, ...) or, without one, `begins_with` the prefix the given
 * composite attributes make.
 */
export function queryRequest(
  e: EntitySchema,
  p: AccessPattern,
  values: Composites,
  range: SortRange | null,
  at: Span,
  extra: Entry[] = [],
): Value {
  const k = patternKeys(e, p, values, at, 'labelled');
  const names: Entry[] = [['#pk', str(p.pk.field, at)]];
  const vals: Entry[] = [[':pk', k.pk, at]];
  let condition = '#pk = :pk';
  if (p.sk) {
    names.push(['#sk', str(p.sk.field, at)]);
    const operands = range
      ? range.operands.map((o) => patternKeys(e, p, (a) => o(a) ?? values(a), at, 'operand').sk!)
      : k.sk
        ? [k.sk]
        : [];
    operands.forEach((o, i) => vals.push([`:sk${i}`, o, at]));
    const op = range?.operator ?? 'begins_with';
    if (operands.length > 0)
      condition +=
        op === 'begins_with'
          ? ' and begins_with(#sk, :sk0)'
          : op === 'BETWEEN'
            ? ' and #sk BETWEEN :sk0 AND :sk1'
            : ` and #sk ${op} :sk0`;
  }
  const entries = withTable(e, [
    ...(p.index ? ([['IndexName', str(p.index, at)]] as Entry[]) : []),
    ['KeyConditionExpression', str(condition, at)],
    ['ExpressionAttributeNames', { kind: 'object', entries: names, span: at }],
    ['ExpressionAttributeValues', { kind: 'object', entries: vals, span: at }],
    ...extra,
  ]);
  return { kind: 'object', entries, span: at };
}

/**
 * The attribute values a call gives, with an attribute's `default` where a write leaves it out
 * and its `set` over both. `defaultsAt`: where a default stands in the call's file, when the
 * entity is declared in another (its own position means nothing there): the write leaving it out.
 */
export function compositesOf(e: EntitySchema, given: Value | undefined, write: boolean, defaultsAt?: Span): Composites {
  return (attr) => {
    const a = e.attributes.get(attr);
    if (write && a?.set && a.set.kind === 'scalar' && !isUnknown(a.set)) return perItem(a.set);
    const v = entry(given, attr);
    if (v) return v;
    // A default fills an attribute the write is known to leave out: not one of an item passed
    // whole (`put(prompt)`, a parameter typed to carry it) or spread in (`{ ...input }`).
    if (!write || !a?.default || given?.kind !== 'object' || given.hidden) return undefined;
    return perItem(defaultsAt ? { ...a.default, span: defaultsAt } : a.default);
  };
}

function isUnknown(v: Value): boolean {
  return (
    v.kind === 'scalar' &&
    v.template.parts.length === 1 &&
    'hole' in v.template.parts[0] &&
    v.template.parts[0].hole.kind === 'unknown'
  );
}
