/**
 * A name compared with a literal where it is used: inside `if (id !== "UNKNOWN") { ... }`
 * (or the `else` of `if (id === "UNKNOWN")`), or after `if (sub === "anonymous") throw ...`
 * (a `return`, `continue` or `break` too) in an enclosing block, the name cannot hold that
 * literal. A key built from it there is not the constant, even when the name is that
 * constant on some paths (`approvalId ? String(approvalId) : "UNKNOWN"`): the code itself
 * keeps the placeholder away from the table. `&&`/`and` and `||`/`or` combine checks as
 * they do at run time. Each front-end says how its language writes the pieces.
 */
import type { Node } from 'web-tree-sitter';
import type { EvalContext } from '../model/eval-context';
import { literalText } from '../model/template';
import type { Value } from '../model/value';
import { namedValue } from './evaluation';

export interface LiteralGuardSyntax {
  /**
   * The conditions an ancestor `p` decides whether its child `c` runs by, each with the value
   * it has there (`c` the consequence of an `if`: its condition, true; an `else`: false).
   */
  branches(p: Node, c: Node): { condition: Node; holds: boolean }[];
  /** `a === b` (equal) or `a !== b`; null for any other condition. */
  comparison(condition: Node): { left: Node; right: Node; equal: boolean } | null;
  /** `a && b` (and) or `a || b`; null for any other condition. */
  junction(condition: Node): { and: boolean; left: Node; right: Node } | null;
  /** The condition of a statement `if (c) return;` whose branch always leaves the rest of its block, else null. */
  exitCondition(statement: Node): Node | null;
  isBlock(n: Node): boolean;
  isFunction(n: Node): boolean;
}

/** `(x)` as `x`: both grammars name the parentheses alike. */
export function unwrap(n: Node): Node {
  let x = n;
  while (x.type === 'parenthesized_expression' && x.namedChild(0)) x = x.namedChild(0)!;
  return x;
}

/**
 * The value of the identifier `use` with the literal it is on some paths taken out where a
 * check around it keeps that literal away: then it is what its name says (`approvalId`, an id).
 */
export function withoutExcluded(use: Node, v: Value, ctx: EvalContext, syntax: LiteralGuardSyntax): Value {
  if (v.kind !== 'scalar' || !v.someOfPaths) return v;
  const text = literalText(v.template);
  if (text === null || !excludedLiterals(use, ctx, syntax).has(text)) return v;
  return namedValue(use, use.text);
}

/** The literal texts the identifier `use` cannot hold where it is, by the checks around it in its function. */
export function excludedLiterals(use: Node, ctx: EvalContext, syntax: LiteralGuardSyntax): Set<string> {
  const out = new Set<string>();
  const name = use.text;
  let c: Node = use;
  for (let p = use.parent; p && !syntax.isFunction(p); c = p, p = p.parent) {
    // The cheap test first: a check that does not name the identifier excludes nothing.
    for (const b of syntax.branches(p, c))
      if (b.condition.text.includes(name) && !assignedBetween(p, name, b.condition.endIndex, use.startIndex))
        collect(b.condition, b.holds, name, ctx, syntax, out);
    if (!syntax.isBlock(p)) continue;
    for (const s of p.namedChildren) {
      if (!s || s.startIndex >= c.startIndex) break;
      const condition = syntax.exitCondition(s);
      if (condition?.text.includes(name) && !assignedBetween(p, name, s.endIndex, use.startIndex))
        collect(condition, false, name, ctx, syntax, out);
    }
  }
  return out;
}

/** The literals `name` is not, when `condition` has the value `holds`. */
function collect(
  condition: Node,
  holds: boolean,
  name: string,
  ctx: EvalContext,
  syntax: LiteralGuardSyntax,
  out: Set<string>,
): void {
  const cond = unwrap(condition);
  const j = syntax.junction(cond);
  if (j) {
    // Both sides hold when `a && b` does; both fail when `a || b` does.
    if (j.and === holds) for (const side of [j.left, j.right]) collect(side, holds, name, ctx, syntax, out);
    return;
  }
  const cmp = syntax.comparison(cond);
  // `x !== T` holding, or `x === T` failing.
  if (!cmp || cmp.equal === holds) return;
  const [left, right] = [unwrap(cmp.left), unwrap(cmp.right)];
  const other =
    left.type === 'identifier' && left.text === name
      ? right
      : right.type === 'identifier' && right.text === name
        ? left
        : null;
  const value = other && ctx.evaluate(other, ctx);
  const text = value?.kind === 'scalar' ? literalText(value.template) : null;
  if (text !== null) out.add(text);
}

/** Whether the text between two offsets (inside `within`) assigns `name` again. */
function assignedBetween(within: Node, name: string, from: number, to: number): boolean {
  if (to <= from) return false;
  const between = within.text.slice(Math.max(0, from - within.startIndex), to - within.startIndex);
  if (!between.includes(name)) return false;
  const escaped = name.replace(/[$]/g, '\\$');
  return new RegExp(String.raw`(?<![\w$.])${escaped}\s*(?:[-+*/%&|^]|\?\?|\|\||&&|:)?=(?!=)`).test(between);
}
