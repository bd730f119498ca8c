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

/** The functions `fn`'s own `return`s give by the name its body defines them under, as calls at each `return`. */
export function returnedFunctions(fn: Node): SeenCall[] {
  const body = fn.childForFieldName('body');
  if (body?.type !== 'statement_block' || !body.text.includes('return')) return [];
  const defined = functionsDefinedIn(body);
  if (!defined.size) return [];
  return body
    .descendantsOfType('return_statement')
    .filter((r): r is Node => !!r && r.namedChild(0)?.type === 'identifier' && defined.has(r.namedChild(0)!.text))
    .filter((r) => ownReturn(r, fn))
    .map((r) => ({ name: r.namedChild(0)!.text, member: false, span: spanOf(r) }));
}

/** Whether a `return` is `fn`'s own, not one of a function nested in it. */
function ownReturn(r: Node, fn: Node): boolean {
  for (let p = r.parent; p; p = p.parent) {
    if (p.equals(fn)) return true;
    if (isFunction(p) || p.type === 'method_definition') return false;
  }
  return false;
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
