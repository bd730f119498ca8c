import type { Node } from 'web-tree-sitter';
import type { EvalContext } from '../../model/eval-context';
import type { Arguments } from './instantiate';

/**
 * A call's arguments by the callee's parameter names: positional ones in order, then
 * Python keyword arguments by name. After a spread (`...args`, `*args`) positions are
 * no longer known, so the rest is left out.
 */
export function callArguments(call: Node, params: readonly string[], ctx: EvalContext): Arguments {
  const args: Arguments = new Map();
  const list = call.childForFieldName('arguments');
  let position = 0;
  for (const a of list?.namedChildren ?? []) {
    if (!a || a.type === 'comment') continue;
    if (a.type === 'keyword_argument') {
      const name = a.childForFieldName('name')?.text;
      const value = a.childForFieldName('value');
      if (!name || !value || !params.includes(name)) continue;
      const v = ctx.evaluate(value, ctx);
      if (v) args.set(name, v);
      continue;
    }
    if (/spread|splat/.test(a.type)) break;
    const name = params[position++];
    if (!name) break;
    const v = ctx.evaluate(a, ctx);
    if (v) args.set(name, v);
  }
  return args;
}
