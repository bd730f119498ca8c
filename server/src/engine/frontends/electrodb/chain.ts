/**
 * An ElectroDB call as the chain it is written in: `Board.query.byBoard({ board })
 * .begins({ player }).go({ pages: "all" })` is the root `Board` and the steps `query`,
 * `byBoard(...)`, `begins(...)`, ending in `go(...)` (or `params(...)`).
 */
import type { Node } from 'web-tree-sitter';
import { argsOf } from '../call-chain';

export interface Step {
  name: string;
  /** The call's argument nodes, or null for a property step (`query`, `entities`). */
  args: Node[] | null;
  node: Node;
}

export interface Chain {
  root: Node;
  steps: Step[];
  /** The `go(...)` call, whose options say `pages` and `limit`. */
  end: Step;
}

/** The chain a `.go(...)` / `.params(...)` call ends, or null when its receiver is no chain of names. */
export function chainOf(call: Node): Chain | null {
  const fn = call.childForFieldName('function');
  if (fn?.type !== 'member_expression') return null;
  const end: Step = { name: fn.childForFieldName('property')?.text ?? '', args: argsOf(call), node: call };
  const steps: Step[] = [];
  let n: Node | null = fn.childForFieldName('object');
  for (let i = 0; n && i < 24; i++) {
    if (n.type === 'call_expression') {
      const f = n.childForFieldName('function');
      if (f?.type !== 'member_expression') break;
      steps.unshift({ name: f.childForFieldName('property')?.text ?? '', args: argsOf(n), node: n });
      n = f.childForFieldName('object');
    } else if (n.type === 'member_expression') {
      // `this.shifts.query.byTeam(...)`: the field is the root, the entity a class keeps.
      if (n.childForFieldName('object')?.type === 'this') break;
      steps.unshift({ name: n.childForFieldName('property')?.text ?? '', args: null, node: n });
      n = n.childForFieldName('object');
    } else if (n.type === 'parenthesized_expression' || n.type === 'non_null_expression') {
      n = n.namedChild(0);
    } else break;
  }
  if (!n || steps.length === 0) return null;
  return { root: n, steps, end };
}
