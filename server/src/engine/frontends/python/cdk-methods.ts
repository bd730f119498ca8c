/**
 * A stack's helper methods in Python CDK code: what `self._make_function(...)` returns, and
 * what a helper's parameter is given where the class calls it once. Stacks split into
 * `_create_table`, `_create_handler`, `_add_route` are read as if written inline.
 */
import type { Node } from 'web-tree-sitter';
import { callsByMethod } from '../class-calls';
import { selfAttribute, walkClassBody } from './cdk-classes';

/**
 * A helper method's parameter, where its class calls the method once (`self._route(api,
 * handler)` for `def _route(self, api, fn)`): the argument given for it there, by position
 * or keyword. Null for another name, a method called more than once (each call gives its
 * own value), a static method, or a use inside a function nested in the method.
 */
export function methodArgument(use: Node, name: string): Node | null {
  let fn: Node | null = use.parent;
  while (fn && fn.type !== 'function_definition' && fn.type !== 'lambda') fn = fn.parent;
  if (fn?.type !== 'function_definition' || isStatic(fn)) return null;
  const body = classBodyOf(fn);
  const method = fn.childForFieldName('name')?.text;
  if (!body || !method || method === '__init__') return null;
  const params = parameterNames(fn);
  const position = params.indexOf(name);
  // The first parameter is `self`.
  if (position < 1) return null;
  const calls = selfCalls(body).get(method) ?? [];
  if (calls.length !== 1) return null;
  const args = (calls[0].childForFieldName('arguments')?.namedChildren ?? []).filter(
    (c): c is Node => !!c && c.type !== 'comment',
  );
  const keyword = args.find((a) => a.type === 'keyword_argument' && a.childForFieldName('name')?.text === name);
  if (keyword) return keyword.childForFieldName('value');
  const positional = args.filter((a) => a.type !== 'keyword_argument');
  if (positional.slice(0, position).some((a) => a.type === 'list_splat' || a.type === 'dictionary_splat')) return null;
  const arg = positional[position - 1];
  return arg && arg.type !== 'list_splat' && arg.type !== 'dictionary_splat' ? arg : null;
}

/** What a helper method of the class around `call` returns (`self._create_table()`): its one `return`'s value, or null. */
export function returnedByMethod(call: Node): Node | null {
  const fn = call.childForFieldName('function');
  if (fn?.type !== 'attribute' || fn.childForFieldName('object')?.text !== 'self') return null;
  const name = fn.childForFieldName('attribute')?.text;
  let cls: Node | null = call.parent;
  while (cls && cls.type !== 'class_definition') cls = cls.parent;
  const method = methodsOf(cls?.childForFieldName('body') ?? null).find(
    (m) => m.childForFieldName('name')?.text === name && !isStatic(m),
  );
  const returns = (method?.childForFieldName('body')?.namedChildren ?? []).filter(
    (s) => s?.type === 'return_statement',
  );
  return returns.length === 1 ? (returns[0]!.namedChild(0) ?? null) : null;
}

function classBodyOf(fn: Node): Node | null {
  const holder = fn.parent?.type === 'decorated_definition' ? fn.parent : fn;
  const body = holder.parent;
  return body?.type === 'block' && body.parent?.type === 'class_definition' ? body : null;
}

function methodsOf(body: Node | null): Node[] {
  const out: Node[] = [];
  for (const c of body?.namedChildren ?? []) {
    const def = c?.type === 'decorated_definition' ? c.childForFieldName('definition') : c;
    if (def?.type === 'function_definition') out.push(def);
  }
  return out;
}

function isStatic(fn: Node): boolean {
  const decorated = fn.parent?.type === 'decorated_definition' ? fn.parent : null;
  return !!decorated?.namedChildren.some((d) => d?.type === 'decorator' && /staticmethod/.test(d.text));
}

/** The names of a function's parameters, in order (typed and defaulted ones too). */
function parameterNames(fn: Node): string[] {
  const out: string[] = [];
  for (const p of fn.childForFieldName('parameters')?.namedChildren ?? []) {
    if (!p) continue;
    if (p.type === 'identifier') out.push(p.text);
    else if (p.type === 'typed_parameter') out.push(p.namedChild(0)?.text ?? '');
    else if (p.type === 'default_parameter' || p.type === 'typed_default_parameter')
      out.push(p.childForFieldName('name')?.text ?? '');
    else out.push('');
  }
  return out;
}

/** The calls `self.m(...)` in a class body, by method name, outside nested classes. */
function selfCalls(body: Node): Map<string, Node[]> {
  return callsByMethod(body, walkClassBody, (n) =>
    n.type === 'call' ? selfAttribute(n.childForFieldName('function')) : null,
  );
}
