/**
 * Naming the functions of a module the way its importers call them, through the
 * front-end of its language (`FrontEnd.namedFunction`): a call site inside a callback
 * belongs to the named function around it.
 */
import type { Node } from 'web-tree-sitter';
import type { FrontEnd, NamedFunction } from '../../model/frontend';

export type { NamedFunction } from '../../model/frontend';

/** The nearest function around `n` that importers can call by name, or null. */
export function enclosingNamedFunction(n: Node, fe: FrontEnd): NamedFunction | null {
  for (let p = n.parent; p; p = p.parent) {
    const named = fe.namedFunction(p);
    if (named) return named;
  }
  return null;
}

/** The class `n` sits in (the nearest), or null. */
export function enclosingClass(n: Node, fe: FrontEnd): Node | null {
  for (let p = n.parent; p; p = p.parent) if (fe.syntax.classes.includes(p.type)) return p;
  return null;
}

/**
 * What a function hands back: the expressions of its own `return` statements (null for
 * a bare `return`; those of nested functions left out), or an arrow function's
 * expression body (where the language has them: `arrows`). Empty when it has no body.
 * `isScope` tells the language's functions.
 */
export function returnedExpressions(fn: Node, isScope: (n: Node) => boolean, arrows: boolean): Array<Node | null> {
  const body = fn.childForFieldName('body');
  if (!body) return [];
  if (arrows && body.type !== 'statement_block') return [body];
  return body
    .descendantsOfType('return_statement')
    .filter((r): r is Node => !!r && ownFunction(r, isScope)?.equals(fn) === true)
    .map((r) => r.namedChild(0));
}

/** The function whose code `n` runs in (a nested one, an arrow, a lambda count too). */
function ownFunction(n: Node, isScope: (n: Node) => boolean): Node | null {
  for (let p = n.parent; p; p = p.parent) if (isScope(p)) return p;
  return null;
}
