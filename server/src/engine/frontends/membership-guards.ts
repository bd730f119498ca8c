/**
 * A name checked against a short list of literals where it is used: after
 * `if (!COUNTERS.includes(name)) throw ...` / `if name not in COUNTERS: raise ...` (or a
 * `return`) in the same function, or inside `if (ALLOWED.has(name))` / `if name in ALLOWED:`.
 * Only the list's values get past the check, so a key written from the name takes a few
 * values whatever the name is called: a counter kept per name of a two-name list is two hot
 * items, not one per caller. Each front-end says how its language writes the check.
 */
import type { Node } from 'web-tree-sitter';
import type { EvalContext } from '../model/eval-context';
import type { Value } from '../model/value';
import { literalText } from '../model/template';

/** More literals than this is no short list (a loop over literals has the same bound). */
export const MAX_FEW_VALUES = 32;

/** Whether values (an array's items, a loop's elements) are a short list of literals. */
export function fewLiterals(items: readonly Value[]): boolean {
  return (
    items.length > 0 &&
    items.length <= MAX_FEW_VALUES &&
    items.every((i) => i.kind === 'scalar' && literalText(i.template) !== null)
  );
}

/** How a language writes a membership check. */
export interface MembershipSyntax {
  /** The list a condition checks `name` against, and whether it asks for its absence; else null. */
  checked(condition: Node, name: string): { list: Node; negated: boolean } | null;
  /** Whether a branch always leaves the function (ends with a throw/raise or a return). */
  leaves(branch: Node): boolean;
}

/** Whether `use` (an identifier in `fn`) is held to a short list of literals by a check in `fn`. */
export function guardedToFewValues(use: Node, fn: Node, ctx: EvalContext, syntax: MembershipSyntax): boolean {
  const body = fn.childForFieldName('body');
  if (!body) return false;
  for (const check of body.descendantsOfType('if_statement')) {
    if (!check || check.startIndex > use.startIndex) break;
    let condition = check.childForFieldName('condition');
    while (condition?.type === 'parenthesized_expression') condition = condition.namedChild(0);
    const membership = condition && syntax.checked(condition, use.text);
    const list = membership && ctx.evaluate(membership.list, ctx);
    if (list?.kind !== 'array' || !fewLiterals(list.items)) continue;
    const then = check.childForFieldName('consequence');
    if (!then) continue;
    if (membership!.negated) {
      // A statement of the body itself: one nested in a branch or a loop may not run.
      if (check.parent?.id === body.id && check.endIndex <= use.startIndex && syntax.leaves(then)) return true;
    } else if (then.startIndex <= use.startIndex && use.endIndex <= then.endIndex) return true;
  }
  return false;
}
