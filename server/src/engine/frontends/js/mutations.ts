import type { Node } from 'web-tree-sitter';
import { recordNode, unknownValue } from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { spanOf } from '../../syntax/span';
import { literalText } from '../../model/template';
import type { Entry, Value } from '../../model/value';
import { leavesBeforeUse, statementsOnPath, type StatementSyntax } from '../mutation-path';

/**
 * Containers built by mutation before they are used: `const item = {}` then
 * `item.pk = "inbox"` or `item["sk"] = id`, `Object.assign(item, {...})`, and
 * `requests.push({ PutRequest: ... })` in a loop before `batchWrite`. The writes are
 * folded into the declared value in the order they appear, up to the statement that
 * uses the name, along the path to the use (`statementsOnPath`). A mutation inside a loop
 * or a branch counts once: the value shows what may be written, not how often; one in a
 * branch that returns or throws before the use not at all.
 */
export function withMutations(value: Value, name: string, declared: Node, use: Node, ctx: EvalContext): Value {
  if (value.kind !== 'object' && value.kind !== 'array') return value;
  let out: Value = value;
  for (const stmt of statementsOnPath(declared, use, STATEMENTS)) {
    for (const m of stmt.descendantsOfType(['assignment_expression', 'call_expression'])) {
      if (m && !leavesBeforeUse(m, stmt, STATEMENTS)) out = apply(out, m, name, ctx);
    }
  }
  return out;
}

/** Statements that define code rather than run it where they stand: no mutation happens there. */
const DEFINES_CODE =
  /^(function_declaration|generator_function_declaration|class_declaration|abstract_class_declaration|interface_declaration|type_alias_declaration|comment)$/;

const BLOCKS = new Set(['statement_block', 'program', 'class_body', 'switch_case', 'switch_default']);

const STATEMENTS: StatementSyntax = {
  isBlock: (n) => BLOCKS.has(n.type),
  exits: new Set(['return_statement', 'throw_statement']),
  definesCode: (stmt) => DEFINES_CODE.test(stmt.type) || DEFINES_CODE.test(stmt.namedChild(0)?.type ?? ''),
};

function apply(v: Value, m: Node, name: string, ctx: EvalContext): Value {
  if (m.type === 'assignment_expression') {
    const left = m.childForFieldName('left');
    const right = m.childForFieldName('right');
    if (!left || !right || v.kind !== 'object') return v;
    const key = propertyOf(left, name, ctx);
    if (key === null) return v;
    recordNode(ctx, m);
    return withEntry(v, [key, ctx.evaluate(right, ctx) ?? unknownValue(right), spanOf(m)]);
  }
  const fn = m.childForFieldName('function');
  const args = m.childForFieldName('arguments')?.namedChildren.filter((a): a is Node => !!a) ?? [];
  // `Object.assign(item, { pk, sk })`
  if (fn?.text === 'Object.assign' && args[0]?.type === 'identifier' && args[0].text === name && v.kind === 'object') {
    recordNode(ctx, m);
    let out = v;
    for (const a of args.slice(1)) {
      const merged = ctx.evaluate(a, ctx);
      if (merged?.kind === 'object') for (const e of merged.entries) out = withEntry(out, e);
    }
    return out;
  }
  // `requests.push(x, y)`, `requests.unshift(x)`
  if (fn?.type === 'member_expression' && v.kind === 'array') {
    const obj = fn.childForFieldName('object');
    const method = fn.childForFieldName('property')?.text;
    if (obj?.type !== 'identifier' || obj.text !== name || (method !== 'push' && method !== 'unshift')) return v;
    recordNode(ctx, m);
    const items = args.map((a) => ctx.evaluate(a, ctx) ?? unknownValue(a));
    return { ...v, items: method === 'push' ? [...v.items, ...items] : [...items, ...v.items] };
  }
  return v;
}

/** `item.pk` or `item["pk"]` (a literal key) as the property it assigns, else null. */
function propertyOf(left: Node, name: string, ctx: EvalContext): string | null {
  const obj = left.childForFieldName('object');
  if (obj?.type !== 'identifier' || obj.text !== name) return null;
  if (left.type === 'member_expression') return left.childForFieldName('property')?.text ?? null;
  if (left.type === 'subscript_expression') {
    const index = ctx.evaluate(left.childForFieldName('index'), ctx);
    return index?.kind === 'scalar' ? literalText(index.template) : null;
  }
  return null;
}

function withEntry(v: Extract<Value, { kind: 'object' }>, e: Entry): Extract<Value, { kind: 'object' }> {
  return { ...v, entries: [...v.entries, e] };
}
