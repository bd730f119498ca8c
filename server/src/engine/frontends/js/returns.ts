/**
 * What a call to one of the code's own functions gives: the value it returns, with the
 * call's arguments in place of its parameters — `Item: toItem(user)` in the same file,
 * `Key: cartKey("SHARED")` imported from another module (through its summary).
 */
import type { Node } from 'web-tree-sitter';
import { forOneCall, soleHole, unknownValue } from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { spanOf } from '../../syntax/span';
import type { Value } from '../../model/value';
import { callArguments } from '../wrappers/arguments';
import { instantiate, returnedToCall } from '../wrappers/instantiate';
import { jsFunction, returnedExpressions } from './functions';
import { isFunction, resolve } from './scope';

/** At most this many `return`s are taken as alternatives; more is a dispatcher, not a key builder. */
const MAX_RETURNS = 6;

export function ownFunctionValue(call: Node, callee: Node, ctx: EvalContext): Value | null {
  if (callee.type === 'identifier') {
    const b = resolve(callee, ctx);
    if (b?.kind === 'function') return returned(call, b.node, ctx);
    if (b?.kind === 'value' && isFunction(b.node)) return returned(call, b.node, ctx);
    if (b?.kind === 'import') return importedReturn(call, b.source, b.name, ctx);
    return null;
  }
  // `keys.cart(x)` on `import * as keys`, `Keys.cart(x)` on an imported class's static method.
  const object = callee.type === 'member_expression' ? callee.childForFieldName('object') : null;
  const property = callee.childForFieldName('property')?.text;
  // `this.getKeys(id)`: a method of the class the call is written in.
  if (object?.type === 'this' && property) {
    const method = ownMethod(call, property);
    return method ? returned(call, method, ctx) : null;
  }
  if (object?.type !== 'identifier' || !property) return null;
  const b = resolve(object, ctx);
  // `Keys.season(s)` on `const Keys = { season: (s) => ... }` in this file.
  if (b?.kind === 'value' && b.node.type === 'object') {
    const fn = propertyFunction(b.node, property);
    return fn ? returned(call, fn, ctx) : null;
  }
  if (b?.kind !== 'import') return null;
  return importedReturn(call, b.source, b.name === '*' ? property : `${b.name}.${property}`, ctx);
}

function importedReturn(call: Node, source: string, name: string, ctx: EvalContext): Value | null {
  const fn = ctx.lookups.functions?.(source, name);
  if (!fn?.returns) return null;
  return instantiate(fn.returns, callArguments(call, fn.params, ctx), spanOf(call));
}

/** The function an object literal holds under `name` (`season: (s) => ...`, `season(s) { ... }`), or null. */
function propertyFunction(object: Node, name: string): Node | null {
  for (const p of object.namedChildren) {
    if (p?.type === 'method_definition' && p.childForFieldName('name')?.text === name) return p;
    if (p?.type !== 'pair' || p.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '') !== name) continue;
    const value = p.childForFieldName('value');
    return value && isFunction(value) ? value : null;
  }
  return null;
}

/** The value a function of this file returns to this call. */
function returned(call: Node, fn: Node, ctx: EvalContext): Value | null {
  const exprs = returnedExpressions(fn);
  if (exprs.length === 0 || exprs.length > MAX_RETURNS || exprs.some((e) => !e)) return null;
  const params = jsFunction(fn)?.params ?? [];
  const args = () => callArguments(call, params, ctx);
  // Each `return` is an alternative, with this call's arguments in place of the parameters.
  const body = forOneCall(ctx);
  const raw = exprs.map((e) => ctx.evaluate(e, body) ?? unknownValue(e!));
  const { value: v, named } = returnedToCall(raw, args, call);
  // Nothing known comes back: the function's name (`getUserId()`) says more. An environment
  // read this call's text names (`requireEnv('ORDERS_TABLE')`) is known: it names a table.
  if (soleHole(v)?.kind === 'unknown' && !named) return null;
  // A key text (`PK: seasonKey(SEASON)`) is this call's value, as from an imported helper:
  // findings and fixes go to the call, the parts keep where their text is written.
  return v.kind === 'scalar' ? { ...v, span: spanOf(call) } : v;
}

/** The method `name` of the class `n` is written in (not inherited), or null. */
function ownMethod(n: Node, name: string): Node | null {
  let cls: Node | null = n.parent;
  while (cls && !/^(class_declaration|class|abstract_class_declaration)$/.test(cls.type)) cls = cls.parent;
  for (const m of cls?.childForFieldName('body')?.namedChildren ?? []) {
    if (m?.type === 'method_definition' && m.childForFieldName('name')?.text === name) return m;
  }
  return null;
}
