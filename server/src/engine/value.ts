import type { KeyTemplate, Span } from './model';

/**
 * What a front-end makes of an SDK call's input: the object literals, dicts and
 * keyword arguments of every language become the same tree, so the SDK shapes
 * (`Item`, `Key`, `KeyConditionExpression`, ...) are read once for all languages.
 * Every scalar is a key template: literal text with classified holes.
 */
export type Value =
  | { kind: 'object'; entries: Array<[string, Value]>; span: Span }
  | { kind: 'array'; items: Value[]; span: Span }
  | { kind: 'scalar'; template: KeyTemplate; span: Span }
  /** boto3 `Key("pk").eq(x) & Key("sk").begins_with(y)`. */
  | { kind: 'condition'; clauses: ConditionClause[]; span: Span };

export interface ConditionClause {
  attribute: string;
  op: string;
  value: Value;
}

export function entry(v: Value | undefined, name: string): Value | undefined {
  if (v?.kind !== 'object') return undefined;
  for (let i = v.entries.length - 1; i >= 0; i--) {
    if (v.entries[i][0] === name) return v.entries[i][1];
  }
  return undefined;
}

const ATTRIBUTE_VALUE_TAGS = new Set(['S', 'N', 'B', 'BOOL']);

/** `{ S: "x" }` (a low-level AttributeValue) reads as `"x"`. */
export function unwrapAttributeValue(v: Value): Value {
  if (v.kind === 'object' && v.entries.length === 1 && ATTRIBUTE_VALUE_TAGS.has(v.entries[0][0])) {
    return v.entries[0][1];
  }
  return v;
}
