/**
 * Factories of handlers, as the reachability reading sees them: a function whose every
 * `return` gives a function is no handler of its own (the export its call makes is), and
 * the function it returns by name is one it calls.
 */
import type { Node } from 'web-tree-sitter';
import type { SeenCall } from '../../model/entry-point';
import { spanOf } from '../../syntax/span';
import { isFunction } from './scope';

/**
 * A factory: an arrow whose body is a function, or a function whose every `return` (inside an
 * `if` too: `if (!opts.warm) { return inner; }`) gives one written in place or one its body
 * defines (`const inner = async (event) => …; … return inner;`).
 */
export function makesFunction(fn: Node): boolean {
  const body = fn.childForFieldName('body');
  if (!body) return false;
  if (body.type !== 'statement_block') return isFunction(body);
  const returns = body.descendantsOfType('return_statement').filter((r): r is Node => !!r && ownReturn(r, fn));
  if (!returns.length) return false;
  const defined = functionsDefinedIn(body);
  return returns.every((r) => {
    const v = r.namedChild(0);
    return !!v && (isFunction(v) || (v.type === 'identifier' && defined.has(v.text)));
  });
}

/**
 * The functions `fn`'s own `return`s give, as calls at each `return`: one its body defines, by
 * name, and a method of an object it builds (`const controller = new OrderController(service);
 * return controller.processOrders`, a handler wired from its dependencies): whoever calls the
 * factory runs it. Not any member (`return response.data`): only of an object made here.
 */
export function returnedFunctions(fn: Node): SeenCall[] {
  const body = fn.childForFieldName('body');
  if (body?.type !== 'statement_block' || !body.text.includes('return')) return [];
  const defined = functionsDefinedIn(body);
  const built = objectsBuiltIn(body);
  if (!defined.size && !built.size) return [];
  const out: SeenCall[] = [];
  for (const r of body.descendantsOfType('return_statement')) {
    const v = r?.namedChild(0);
    if (!r || !v || !ownReturn(r, fn)) continue;
    if (v.type === 'identifier' && defined.has(v.text)) out.push({ name: v.text, member: false, span: spanOf(r) });
    const object = v.type === 'member_expression' ? v.childForFieldName('object') : null;
    const method = v.childForFieldName('property');
    if (object?.type === 'identifier' && built.has(object.text) && method?.type === 'property_identifier')
      out.push({ name: method.text, member: true, span: spanOf(r), receiver: object.text, root: object.text });
  }
  return out;
}

/** Whether a `return` is `fn`'s own, not one of a function nested in it. */
function ownReturn(r: Node, fn: Node): boolean {
  for (let p = r.parent; p; p = p.parent) {
    if (p.equals(fn)) return true;
    if (isFunction(p) || p.type === 'method_definition') return false;
  }
  return false;
}

/** The names a block binds at its top to a new object: `const controller = new OrderController(service)`. */
function objectsBuiltIn(block: Node): Set<string> {
  const out = new Set<string>();
  for (const s of block.namedChildren) {
    if (s?.type !== 'lexical_declaration' && s?.type !== 'variable_declaration') continue;
    for (const d of s.namedChildren) {
      const value = d?.type === 'variable_declarator' ? d.childForFieldName('value') : null;
      const name = d?.childForFieldName('name');
      if (value?.type === 'new_expression' && name?.type === 'identifier') out.add(name.text);
    }
  }
  return out;
}

/** The functions a block defines at its top: `function inner() {}`, `const inner = async (event) => …`. */
function functionsDefinedIn(block: Node): Set<string> {
  const out = new Set<string>();
  for (const s of block.namedChildren) {
    if (s?.type === 'function_declaration') out.add(s.childForFieldName('name')?.text ?? '');
    if (s?.type !== 'lexical_declaration' && s?.type !== 'variable_declaration') continue;
    for (const d of s.namedChildren) {
      const value = d?.type === 'variable_declarator' ? d.childForFieldName('value') : null;
      if (value && isFunction(value)) out.add(d!.childForFieldName('name')?.text ?? '');
    }
  }
  out.delete('');
  return out;
}
