/**
 * Defaults a caller gets where its call leaves arguments out: a parameter's default
 * (`def put(item, pk="GLOBAL")`, `function put(item, pk = "GLOBAL")`) and a destructured
 * property's (`list({ status = "OPEN" } = {})`), put into the call's arguments before a
 * wrapper's sites are instantiated at the call.
 */
import type { Node } from 'web-tree-sitter';
import type { Declaration, Span } from '../../model';
import type { FunctionSummary } from '../../model/summary';
import { moveSpans } from '../../syntax/positions';
import { leavesOut } from '../value-ops';
import type { Arguments } from './instantiate';

/**
 * The parameters with a default (Python) that `call` leaves out: their defaults go into
 * `args`, placed at the call, and their declarations come back. A call with `*args` or
 * `**kwargs` may pass anything, so it leaves nothing out.
 */
export function leftOut(call: Node, fn: FunctionSummary, args: Arguments, at: Span): Declaration[] {
  if (!fn.defaults?.length) return [];
  const list = call.childForFieldName('arguments')?.namedChildren ?? [];
  if (list.some((a) => a && /splat|spread/.test(a.type))) return [];
  const positional = list.filter((a) => a && a.type !== 'keyword_argument' && a.type !== 'comment').length;
  const named = new Set(
    list.flatMap((a) => (a?.type === 'keyword_argument' ? [a.childForFieldName('name')?.text ?? ''] : [])),
  );
  const out: Declaration[] = [];
  for (const d of fn.defaults) {
    if (d.path) {
      if (defaultProperty(d, fn.params.indexOf(d.name) >= positional, args, at)) out.push(d.declaration);
      continue;
    }
    if (fn.params.indexOf(d.name) < positional || named.has(d.name)) continue;
    args.set(
      d.name,
      moveSpans(d.value, () => at, ''),
    );
    out.push(d.declaration);
  }
  return out;
}

/**
 * A destructured property's default (`{ board = "global" }`) where the caller's object leaves
 * the property out, or the call leaves the whole argument out (`listTasks()`): it goes into
 * the argument's object, placed at the call. Whether it went in.
 */
function defaultProperty(
  d: NonNullable<FunctionSummary['defaults']>[number],
  argumentLeftOut: boolean,
  args: Arguments,
  at: Span,
): boolean {
  const key = d.path!.length === 1 ? d.path![0] : null;
  const given = args.get(d.name) ?? (argumentLeftOut ? { kind: 'object' as const, entries: [], span: at } : undefined);
  if (key === null || !leavesOut(given, key) || given?.kind !== 'object') return false;
  const value = moveSpans(d.value, () => at, '');
  args.set(d.name, { ...given, entries: [...given.entries, [key, value, at]] });
  return true;
}
