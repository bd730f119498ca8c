import type { Node } from 'web-tree-sitter';

/** The last class body's calls, kept while its parameters are looked up one use after another. */
let lastCalls: { tree: Node['tree']; id: number; calls: Map<string, Node[]> } | null = null;

/**
 * The calls a class makes of its own methods (`this.m(...)`, `self.m(...)`), by method name,
 * in any language: `walk` visits the class body as the language scopes it (nested classes
 * have their own `this`), `calledMethod` names the method a node calls or returns null.
 */
export function callsByMethod(
  body: Node,
  walk: (body: Node, visit: (n: Node) => void) => void,
  calledMethod: (n: Node) => string | null,
): Map<string, Node[]> {
  if (lastCalls?.tree === body.tree && lastCalls.id === body.id) return lastCalls.calls;
  const calls = new Map<string, Node[]>();
  walk(body, (n) => {
    const method = calledMethod(n);
    if (method) calls.set(method, [...(calls.get(method) ?? []), n]);
  });
  lastCalls = { tree: body.tree, id: body.id, calls };
  return calls;
}
