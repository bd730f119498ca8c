import { parseKeyCondition } from './expressions';
import type { KeyNames, TableHint } from '../model/call-site';
import type { Hole, KeyGap, KeyOperator, KeyValue, Operation, SortKeyCondition, Span } from '../model';
import { isPartitionKeyName, isSortKeyName } from '../frontends/names';
import { spanWithin } from '../syntax/span';
import { literalText } from '../model/template';
import { entry, entryOf, unwrapAttributeValue, type Value } from '../model/value';

/**
 * Reading the key out of a request: the partition and sort key of a `Key` or an
 * `Item`, and a query's key condition (an expression, boto3 `Key()` conditions, or the
 * legacy `KeyConditions`) with its sort-key operator.
 */
/** A key attribute's value; `use` is the property or clause that carries it into the request. */
export function keyValue(attribute: string, v: Value, call: Span, use?: Span): KeyValue | null {
  const u = unwrapAttributeValue(v);
  if (u.kind !== 'scalar') return null;
  return {
    attribute,
    template: u.template,
    span: u.span,
    inline: spanWithin(u.span, call),
    use: use ?? u.span,
    via: u.via ?? (v.kind === 'scalar' ? (v.via ?? []) : []),
    ...(u.someOfPaths ? { someOfPaths: true } : {}),
  };
}

/** A key attribute of an object (`Key`, `Item`), used at its `name: value` pair. */
function keyEntry(obj: Value | undefined, name: string, call: Span): KeyValue | null {
  const e = entryOf(obj, name);
  return e ? keyValue(name, e[1], call, e[2]) : null;
}

/**
 * Picks the partition and sort key out of a key object (`Key`) or an item (`Item`).
 * A `Key` names only key attributes, so its first is the partition key unless names
 * say otherwise; an `Item` needs a conventional name (`pk`) or a schema hint.
 */
export function keysOf(obj: Value | undefined, isItem: boolean, told: TableHint | undefined, call: Span): Keys {
  if (obj?.kind !== 'object' || obj.entries.length === 0) return NO_KEYS;
  const names = obj.entries.map(([k]) => k);
  // An item whose names are not all read (`[Keys.pk]` unresolved) shows its key no better than a spread.
  const hidden = !!obj.hidden || (isItem && names.some(isAlias));
  const hint = hidden ? shownHint(names, told) : told;
  const pkName = hidden
    ? visibleKeyName(names, hint?.partition, isPartitionKeyName)
    : guessedPartition(names, isItem, hint);
  if (!pkName) return NO_KEYS;
  const skName = hidden
    ? visibleKeyName(names, hint?.sort, isSortKeyName)
    : ((hint?.sort && names.includes(hint.sort) ? hint.sort : undefined) ??
      names.find(isSortKeyName) ??
      (!isItem && names.length === 2 ? names.find((n) => n !== pkName) : undefined));
  // A `Key` names only key attributes: an unread name there is the key the workspace names.
  const named = (kv: KeyValue | null, known: string | undefined) =>
    kv && known && isAlias(kv.attribute) ? { ...kv, attribute: known } : kv;
  const pk = named(keyEntry(obj, pkName, call), hint?.partition);
  const sk = named(skName ? keyEntry(obj, skName, call) : null, hint?.sort);
  return { pk, sk, condition: sk ? { attribute: sk.attribute, operator: '=' as const, operands: [sk] } : null };
}

/**
 * Of the key names calls tell for the table, those the object shows: where two files
 * disagree (`pk`, `PK`), an item spreading its key in and showing `PK` is keyed by it.
 */
function shownHint(names: string[], hint: TableHint | undefined): TableHint | undefined {
  if (!hint?.partition || names.includes(hint.partition)) return hint;
  const other = hint.others?.find((o) => names.includes(o.partition));
  return other ? { ...hint, partition: other.partition, sort: other.sort } : hint;
}

/** Without a schema: a key name by convention, else an item's first attribute or a `Key`'s first non-sort one. */
function guessedPartition(names: string[], isItem: boolean, hint: TableHint | undefined): string {
  return (
    (hint?.partition && names.includes(hint.partition) ? hint.partition : undefined) ??
    names.find(isPartitionKeyName) ??
    (isItem ? names[0] : (names.find((n) => !isSortKeyName(n)) ?? names[0]))
  );
}

/**
 * A key attribute of an object with a spread it cannot see into: the table's key name
 * when the workspace tells it (and the object shows it), a conventional key name when
 * it does not, else none. Never a visible attribute by position: with `{ ...input,
 * createdAt: now }` the key is in `input`, and `createdAt` is not it.
 */
function visibleKeyName(names: string[], known: string | undefined, conventional: (n: string) => boolean) {
  if (known) return names.includes(known) ? known : undefined;
  return names.find(conventional);
}

export interface Keys {
  pk: KeyValue | null;
  sk: KeyValue | null;
  condition: SortKeyCondition | null;
}

export const NO_KEYS: Keys = { pk: null, sk: null, condition: null };

function resolveName(name: string, names: Value | undefined): string {
  if (!name.startsWith('#')) return name;
  const v = entry(names, name);
  const text = v?.kind === 'scalar' ? literalText(v.template) : null;
  return text ?? name;
}

/** An attribute name left as the request writes it: an alias (`#pk`) or a computed name (`[Keys.pk]`). */
export function isAlias(name: string): boolean {
  return name.startsWith('#') || name.startsWith('[');
}

/**
 * Unresolved aliases named by the known key names: the first equality is on the
 * partition key (unless another clause names it), any other clause on the sort key.
 */
function namedByKnown(clauses: Clause[], known: KeyNames): Clause[] {
  let partitionNamed = clauses.some((c) => c.attribute === known.partition);
  return clauses.map((c) => {
    if (!isAlias(c.attribute)) return c;
    if (!partitionNamed && c.op === '=') {
      partitionNamed = true;
      return { ...c, attribute: known.partition };
    }
    return known.sort ? { ...c, attribute: known.sort } : c;
  });
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

/**
 * A query's keys. `known`: the key names the workspace tells for the table or index,
 * which name an alias the request leaves unresolved (`#pk` with its name from a
 * parameter): the equality clause is on the partition key whatever its alias.
 */
export function keysOfQuery(input: Value, call: Span, known?: KeyNames): Keys {
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
  if (known) clauses = namedByKnown(clauses, known);
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

/**
 * Why a request shows no partition key, for `accessesOfCallSite` to note on the access when it
 * reads none: the whole request unread, its `Item`/`Key`/key condition unread or
 * absent, or a key condition whose `:value` is missing.
 */
export function keyGapOf(operation: Operation, input: Value): KeyGap {
  if (input.kind !== 'object') return { field: 'request', hole: soleHole(input) };
  if (input.entries.length === 0) return { field: 'request', hole: null };
  // The field `accessesOfCallSite` reads the key from (it reads batch and transact requests one by one).
  const field =
    operation === 'Query'
      ? !entry(input, 'KeyConditionExpression') && entry(input, 'KeyConditions')
        ? 'KeyConditions'
        : 'KeyConditionExpression'
      : operation === 'PutItem'
        ? 'Item'
        : 'Key';
  const value = entry(input, field);
  if (!value) return { field, hole: null };
  if (value.kind === 'scalar' && field === 'KeyConditionExpression' && soleHole(value) === null) {
    // A literal condition whose values are not there: the values map is what is missing.
    const values = entryOf(input, 'ExpressionAttributeValues');
    return { field: 'ExpressionAttributeValues', hole: soleHole(values?.[1]) };
  }
  // An item whose key is in a spread it cannot see into: what was spread is what is missing;
  // one whose names are not read (`[names.pk]`): the first such name.
  if (value.kind === 'object' && value.hidden) return { field, hole: soleHole(value.hidden) };
  const unread = value.kind === 'object' ? value.entries.find(([k]) => isAlias(k)) : undefined;
  if (unread) return { field, hole: { kind: 'unknown', source: unread[0].replace(/^\[|\]$/g, '') } };
  return { field, hole: soleHole(value) };
}

/** The single hole a value is, when it is one unread value (`params`, `make_item(x)`). */
function soleHole(v: Value | undefined): Hole | null {
  if (v?.kind !== 'scalar' || v.template.parts.length !== 1) return null;
  const p = v.template.parts[0];
  return 'hole' in p ? p.hole : null;
}
