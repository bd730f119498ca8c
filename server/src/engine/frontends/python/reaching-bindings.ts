import type { Node } from 'web-tree-sitter';
import { reachingDefinitions } from '../reaching';
import { bindingsOf, COMPREHENSIONS, type Binding, type Entry } from './bindings';
import { comprehensionBinding, inside, parametersOf } from './scope';

/**
 * Every binding of `id` that may reach it, when more than one may: the assignments
 * of an `if`/`elif`/`else` or a `try`/`except`, and the parameter when a branch may
 * leave it as passed (`if not region: region = "DEFAULT"`). In source order; null
 * when one binding reaches (the one `resolve` gives).
 */
export function reachingBindings(id: Node): Binding[] | null {
  const name = id.text;
  let inFunction = false;
  for (let scope = id.parent; scope; scope = scope.parent) {
    if (COMPREHENSIONS.has(scope.type)) {
      if (comprehensionBinding(scope, name)) return null;
      continue;
    }
    if (scope.type === 'lambda') {
      if (parametersOf(scope).some((p) => p.name === name)) return null;
      continue;
    }
    const fn = scope.type === 'function_definition';
    if (!fn && scope.type !== 'module' && !(scope.type === 'class_definition' && !inFunction)) continue;
    const entries = bindingsOf(scope).get(name) ?? [];
    const before = entries.filter((e) => e.pos <= id.startIndex && !(e.within && inside(e.within, id)));
    const param = fn ? parametersOf(scope).find((p) => p.name === name) : undefined;
    if (before.length === 0) {
      if (param || entries.length > 0) return null;
      inFunction ||= fn;
      continue;
    }
    // A binding made by a statement without an assignment node (a loop, an import) is placed at its start.
    const at = (e: Entry) => e.within ?? id.tree.rootNode.descendantForIndex(e.pos) ?? id;
    const r = reachingDefinitions(before, at, id);
    const found: Binding[] = r.reaching.map((e) => e.binding);
    if (!r.complete && param) found.unshift({ kind: 'param', fn: scope, param });
    return found.length > 1 ? found : null;
  }
  return null;
}
