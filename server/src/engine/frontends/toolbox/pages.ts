/**
 * Whether a v0 query's pages are followed. v0 returns one page and, when there are more,
 * a `next()` that queries the page after it: a query is read to its end where `next()`
 * is called on its result, in the function holding it (`while (page.next) page = await
 * page.next()`) or in a function of the file its promise is handed to (a helper that
 * reads every page of each shard's query).
 */
import type { Node } from 'web-tree-sitter';

const CALLS_NEXT = /\.\s*next\s*\(/;
const FUNCTIONS = new Set(['function_declaration', 'function_expression', 'arrow_function', 'method_definition']);

export function followsNext(call: Node): boolean {
  for (let p: Node | null = call.parent; p; p = p.parent) {
    if (p.type === 'arguments' && p.parent?.type === 'call_expression') {
      const callee = p.parent.childForFieldName('function');
      if (callee?.type === 'identifier' && helperCallsNext(call.tree.rootNode, callee.text)) return true;
    }
    // The function the query is written in (not an arrow that only hands its promise on).
    if (FUNCTIONS.has(p.type) && !(p.type === 'arrow_function' && p.childForFieldName('body')?.equals(call)))
      return CALLS_NEXT.test(p.text);
  }
  return false;
}

/** A function of the file named `name` that calls `next()`. */
function helperCallsNext(root: Node, name: string): boolean {
  return root
    .descendantsOfType('function_declaration')
    .some((f) => f?.childForFieldName('name')?.text === name && CALLS_NEXT.test(f.text));
}
