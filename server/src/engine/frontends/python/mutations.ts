import type { Node } from 'web-tree-sitter';
import { recordNode, unknownValue } from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { spanOf } from '../../syntax/span';
import { literalText } from '../../model/template';
import type { Entry, Value } from '../../model/value';
import { kwargsValue } from './structures';
import { leavesBeforeUse, statementsOnPath, type StatementSyntax } from '../mutation-path';

/**
 * Containers built by mutation before they are used: `item = {}` then
 * `item["pk"] = "inbox"`, `item.update({...})` or `item.update(sk=x)`, and
 * `requests.append({...})` / `requests.extend([...])` in a loop before a batch call.
 * The writes are folded into the assigned value in the order they appear, up to the
 * statement that uses the name, along the path to the use (`statementsOnPath`); one inside
 * a loop or a branch counts once, and one in a branch that returns or raises before the use
 * not at all.
 */
export function withMutations(value: Value, name: string, assigned: Node, use: Node, ctx: EvalContext): Value {
  if (value.kind !== 'object' && value.kind !== 'array') return value;
  let out: Value = value;
  for (const stmt of statementsOnPath(assigned, use, STATEMENTS)) {
    for (const m of stmt.descendantsOfType(['assignment', 'call']))
      if (m && !leavesBeforeUse(m, stmt, STATEMENTS)) out = apply(out, m, name, ctx);
  }
  return out;
}

/** Statements that define code rather than run it where they stand: no mutation happens there. */
const DEFINES_CODE = new Set(['function_definition', 'class_definition', 'decorated_definition', 'comment']);

const STATEMENTS: StatementSyntax = {
  isBlock: (n) => n.type === 'block' || n.type === 'module',
  exits: new Set(['return_statement', 'raise_statement']),
  definesCode: (stmt) => DEFINES_CODE.has(stmt.type),
};

function apply(v: Value, m: Node, name: string, ctx: EvalContext): Value {
  if (m.type === 'assignment') {
    const left = m.childForFieldName('left');
    const right = m.childForFieldName('right');
    if (left?.type !== 'subscript' || !right || v.kind !== 'object') return v;
    const obj = left.childForFieldName('value');
    if (obj?.type !== 'identifier' || obj.text !== name) return v;
    const key = ctx.evaluate(left.childForFieldName('subscript'), ctx);
    const text = key?.kind === 'scalar' ? literalText(key.template) : null;
    if (text === null) return v;
    recordNode(ctx, m);
    return withEntries(v, [[text, ctx.evaluate(right, ctx) ?? unknownValue(right), spanOf(m)]]);
  }
  const fn = m.childForFieldName('function');
  const obj = fn?.type === 'attribute' ? fn.childForFieldName('object') : null;
  const method = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : undefined;
  if (obj?.type !== 'identifier' || obj.text !== name) return v;
  const args = m.childForFieldName('arguments')?.namedChildren.filter((a): a is Node => !!a) ?? [];
  if (method === 'update' && v.kind === 'object') {
    recordNode(ctx, m);
    const positional = args[0] && args[0].type !== 'keyword_argument' ? ctx.evaluate(args[0], ctx) : null;
    const keywords = kwargsValue(m, ctx);
    const entries = [
      ...(positional?.kind === 'object' ? positional.entries : []),
      ...(keywords.kind === 'object' ? keywords.entries : []),
    ];
    return withEntries(v, entries);
  }
  if ((method === 'append' || method === 'extend' || method === 'insert') && v.kind === 'array') {
    recordNode(ctx, m);
    const arg = method === 'insert' ? args[1] : args[0];
    if (!arg) return v;
    const got = ctx.evaluate(arg, ctx) ?? unknownValue(arg);
    const items = method === 'extend' ? (got.kind === 'array' ? got.items : []) : [got];
    return { ...v, items: [...v.items, ...items] };
  }
  return v;
}

function withEntries(v: Extract<Value, { kind: 'object' }>, es: Entry[]): Extract<Value, { kind: 'object' }> {
  return { ...v, entries: [...v.entries, ...es] };
}
