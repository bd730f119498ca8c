/**
 * Wrappers that call wrappers in the same module: an exported `get_products(tenant)`
 * that calls a private `_query_partition(pk)` making the query. The helper's requests,
 * with the exported function's arguments put in, become the exported function's own,
 * so a caller in another file reaches the query through either. Two rounds cover a
 * chain of three functions; each derived request is kept only while it still depends
 * on the outer function's parameters (otherwise the module's own analysis judges it).
 */
import type { Node, Tree } from 'web-tree-sitter';
import { placeOrigins } from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import type { CallSite } from '../../model/call-site';
import type { FrontEnd } from '../../model/frontend';
import { callArguments } from './arguments';
import { enclosingNamedFunction, type NamedFunction } from './functions';
import { hasParamHole, substitute } from './instantiate';
import { methodOf } from './resolve';
import type { FunctionSummary, ModuleSummary } from '../../model/summary';

const ROUNDS = 2;

export function followLocalCalls(
  tree: Tree,
  file: string,
  fe: FrontEnd,
  summary: ModuleSummary,
  summaryOf: (f: NamedFunction) => FunctionSummary,
  ctx: () => EvalContext,
): void {
  const calls = tree.rootNode.descendantsOfType(fe.syntax.call);
  const done = new Set<string>();
  for (let round = 0; round < ROUNDS; round++) {
    let changed = false;
    for (const call of calls) {
      const outer = call ? enclosingNamedFunction(call, fe) : null;
      const inner = call && outer ? calleeInModule(call, outer, summary, fe) : null;
      if (!call || !outer || !inner || inner.sites.length === 0) continue;
      const caller = summaryOf(outer);
      if (caller === inner) continue;
      const args = callArguments(call, inner.params, ctx());
      inner.sites.forEach((site, i) => {
        const key = `${call.id}:${inner.name}:${i}`;
        if (done.has(key)) return;
        done.add(key);
        const input = substitute(site.input, args);
        if (!hasParamHole(input)) return;
        const derived: CallSite = { ...site, input, through: site.through ?? { file, span: site.span } };
        caller.sites.push(placeOrigins(derived, file));
        summary.wraps = true;
        changed = true;
      });
    }
    if (!changed) return;
  }
}

/** `helper(...)` (a function of this module) or `this.helper(...)` / `self.helper(...)` (a method of the caller's class). */
function calleeInModule(
  call: Node,
  outer: NamedFunction,
  summary: ModuleSummary,
  fe: FrontEnd,
): FunctionSummary | null {
  const callee = call.childForFieldName('function');
  if (callee?.type === 'identifier') return summary.functions.get(callee.text) ?? null;
  if (callee?.type !== fe.syntax.member) return null;
  const object = callee.childForFieldName('object');
  const name = callee.childForFieldName(fe.syntax.memberName)?.text;
  if (!name || !object) return null;
  const own = object.type === 'this' || object.text === 'self' || object.text === 'cls';
  // `Dynamo.getAllInSet(...)` (or `this.getAllInSet(...)`) in a function of the object `Dynamo`.
  if (!outer.owner && outer.holder && (own || object.text === outer.holder)) return summary.functions.get(name) ?? null;
  return outer.owner && own ? methodOf(summary, outer.owner, name, null, 0) : null;
}
