import { parseKeyCondition } from './expressions';
import type { TableHint } from './interpret';
import type { Hole, KeyGap, KeyOperator, KeyValue, Operation, SortKeyCondition, Span } from './model';
import { isPartitionKeyName, isSortKeyName } from './names';
import { spanWithin } from './span';
import { literalText } from './template';
import { entry, entryOf, unwrapAttributeValue, type Value } from './value';

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
export function keysOf(obj: Value | undefined, isItem: boolean, hint: TableHint | undefined, call: Span): Keys {
  if (obj?.kind !== 'object' || obj.entries.length === 0) return NO_KEYS;
  const names = obj.entries.map(([k]) => k);
  const pkName = obj.hidden
    ? visibleKeyName(names, hint?.partition, isPartitionKeyName)
    : guessedPartition(names, isItem, hint);
  if (!pkName) return NO_KEYS;
  const skName = obj.hidden
    ? visibleKeyName(names, hint?.sort, isSortKeyName)
    : ((hint?.sort && names.includes(hint.sort) ? hint.sort : undefined) ??
      names.find(isSortKeyName) ??
      (!isItem && names.length === 2 ? names.find((n) => n !== pkName) : undefined));
  const pk = keyEntry(obj, pkName, call);
  const sk = skName ? keyEntry(obj, skName, call) : null;
  return { pk, sk, condition: sk ? { attribute: sk.attribute, operator: '=' as const, operands: [sk] } : null };
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

export function keysOfQuery(input: Value, call: Span): Keys {
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

/**
 * Why a request shows no partition key, for `interpret` to note on the access when it
 * reads none: the whole request unread, its `Item`/`Key`/key condition unread or
 * absent, or a key condition whose `:value` is missing.
 */
export function keyGapOf(operation: Operation, input: Value): KeyGap {
  if (input.kind !== 'object') return { field: 'request', hole: soleHole(input) };
  if (input.entries.length === 0) return { field: 'request', hole: null };
  // The field `interpret` reads the key from (it reads batch and transact requests one by one).
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
  // An item whose key is in a spread it cannot see into: what was spread is what is missing.
  return { field, hole: soleHole(value.kind === 'object' && value.hidden ? value.hidden : value) };
}

/** The single hole a value is, when it is one unread value (`params`, `make_item(x)`). */
function soleHole(v: Value | undefined): Hole | null {
  if (v?.kind !== 'scalar' || v.template.parts.length !== 1) return null;
  const p = v.template.parts[0];
  return 'hole' in p ? p.hole : null;
}
