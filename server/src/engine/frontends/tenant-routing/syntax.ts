/**
 * The few node shapes the tenant-routing reading needs, named once for JavaScript /
 * TypeScript and once for Python: a call, a member read, a subscript, parentheses.
 */
import type { Node } from 'web-tree-sitter';

export interface Shapes {
  call: string;
  member: string;
  /** The field of a member read that names the member (`property`, `attribute`). */
  memberName: string;
  subscript: string;
  /** The fields of a subscript: what is indexed, and the index. */
  subscriptObject: string;
  subscriptIndex: string;
  binary: string;
  /** Nodes that hold a value unchanged (`(x)`, TypeScript's `x as T` and `x!`). */
  transparent: readonly string[];
  functions: readonly string[];
}

export const JS_SHAPES: Shapes = {
  call: 'call_expression',
  member: 'member_expression',
  memberName: 'property',
  subscript: 'subscript_expression',
  subscriptObject: 'object',
  subscriptIndex: 'index',
  binary: 'binary_expression',
  transparent: ['parenthesized_expression', 'as_expression', 'non_null_expression', 'satisfies_expression'],
  functions: ['function_declaration', 'method_definition', 'arrow_function', 'function_expression', 'function'],
};

export const PY_SHAPES: Shapes = {
  call: 'call',
  member: 'attribute',
  memberName: 'attribute',
  subscript: 'subscript',
  subscriptObject: 'value',
  subscriptIndex: 'subscript',
  binary: 'binary_operator',
  transparent: ['parenthesized_expression'],
  functions: ['function_definition'],
};

/** The value inside parentheses and type assertions. */
export function inner(n: Node, s: Shapes): Node {
  let at = n;
  while (s.transparent.includes(at.type)) {
    const next = at.namedChildren.find((c) => c && c.type !== 'comment');
    if (!next) break;
    at = next;
  }
  return at;
}

/** A call's arguments by position (keyword arguments, spreads and comments left out). */
export function positional(call: Node): Node[] {
  return (call.childForFieldName('arguments')?.namedChildren ?? []).filter(
    (a): a is Node =>
      !!a && !['comment', 'keyword_argument', 'spread_element', 'list_splat', 'dictionary_splat'].includes(a.type),
  );
}

/** The last name of a callee or member read: `hash` for `mmh3.hash`, `digest` for `h.digest`. */
export function lastName(n: Node, s: Shapes): string {
  if (n.type === s.member) return n.childForFieldName(s.memberName)?.text ?? '';
  return n.type === 'identifier' ? n.text : '';
}

/** The operator of a binary node (`%`, `in`), as written. */
export function operatorOf(n: Node): string {
  return n.childForFieldName('operator')?.text ?? '';
}

/** Splits `tenantId`, `TENANT_ID`, `tenant_id` into lower-case words. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}
