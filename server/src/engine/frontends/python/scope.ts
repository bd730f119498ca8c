/** What a Python name refers to: the binding an identifier resolves to, walking out through its scopes. */
import type { Node } from 'web-tree-sitter';
import { recordResolution } from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { bindingsOf, COMPREHENSIONS, pathTo, type Binding, type Entry, type Param } from './bindings';

export function isFunction(n: Node): boolean {
  return n.type === 'function_definition' || n.type === 'lambda';
}

/** The parameters of a `def` or `lambda`, with their positions. */
export function parametersOf(fn: Node): Param[] {
  const list = fn.childForFieldName('parameters');
  if (!list) return [];
  const out: Param[] = [];
  let positional = true;
  for (const param of list.namedChildren) {
    // `*args: int` is a typed parameter around the splat.
    const p =
      param?.type === 'typed_parameter' && param.namedChild(0)?.type !== 'identifier' ? param.namedChild(0) : param;
    if (!p) continue;
    if (p.type === 'keyword_separator' || p.type === 'list_splat_pattern' || p.type === 'dictionary_splat_pattern') {
      const inner = p.namedChild(0);
      if (inner?.type === 'identifier') out.push({ name: inner.text, index: -1, default: null });
      positional = false;
      continue;
    }
    const name = p.type === 'identifier' ? p : (p.childForFieldName('name') ?? p.namedChild(0));
    if (name?.type !== 'identifier') continue;
    out.push({
      name: name.text,
      index: positional ? out.filter((x) => x.index >= 0).length : -1,
      default: p.childForFieldName('value'),
    });
  }
  return out;
}

/** `def name` or `name = lambda ...`. */
export function functionName(fn: Node): string | null {
  if (fn.type === 'function_definition') return fn.childForFieldName('name')?.text ?? null;
  const p = fn.parent;
  return p?.type === 'assignment' && p.childForFieldName('left')?.type === 'identifier'
    ? p.childForFieldName('left')!.text
    : null;
}

/** A `def` directly in a class body whose first parameter is `self` or `cls`. */
export function isMethod(fn: Node): boolean {
  const owner = fn.parent?.type === 'decorated_definition' ? fn.parent.parent : fn.parent;
  return (
    owner?.type === 'block' &&
    owner.parent?.type === 'class_definition' &&
    /^(self|cls)$/.test(parametersOf(fn)[0]?.name ?? '')
  );
}

export function inside(outer: Node, inner: Node): boolean {
  return outer.startIndex <= inner.startIndex && inner.endIndex <= outer.endIndex;
}

/** The last binding before the use, else (for functions) the parameter, else the first after. */
function pick(entries: Entry[] | undefined, id: Node): { before: Binding | null; after: Binding | null } {
  let before: Binding | null = null;
  let after: Binding | null = null;
  for (const e of entries ?? []) {
    if (e.within && inside(e.within, id)) continue;
    if (e.pos <= id.startIndex) before = e.binding;
    else after ??= e.binding;
  }
  return { before, after };
}

export function comprehensionBinding(scope: Node, name: string): Binding | null {
  for (const clause of scope.namedChildren) {
    if (clause?.type !== 'for_in_clause') continue;
    const left = clause.childForFieldName('left');
    const iter = clause.childForFieldName('right');
    const path = left ? pathTo(left, name) : null;
    if (path && iter) return { kind: 'loop', iter, path };
  }
  return null;
}

/**
 * Finds the binding of an identifier by walking out through comprehensions,
 * lambdas, functions, class bodies (not seen from their methods) and the module.
 */
/** The binding `id` refers to, noted in `ctx` as a dependency of the evaluation. */
export function resolve(id: Node, ctx: EvalContext): Binding | null {
  const b = findBinding(id);
  recordResolution(
    ctx,
    id,
    b && 'node' in b ? b.node : b?.kind === 'param' ? b.fn : b?.kind === 'loop' ? b.iter : null,
  );
  return b;
}

export function findBinding(id: Node): Binding | null {
  const name = id.text;
  let inFunction = false;
  for (let scope = id.parent; scope; scope = scope.parent) {
    if (COMPREHENSIONS.has(scope.type)) {
      const b = comprehensionBinding(scope, name);
      if (b) return b;
    } else if (isFunction(scope)) {
      const param = parametersOf(scope).find((p) => p.name === name) ?? null;
      const { before, after } =
        scope.type === 'lambda' ? { before: null, after: null } : pick(bindingsOf(scope).get(name), id);
      const b = before ?? (param ? { kind: 'param', fn: scope, param } : null) ?? after;
      if (b) return b as Binding;
      inFunction = true;
    } else if ((scope.type === 'class_definition' && !inFunction) || scope.type === 'module') {
      const { before, after } = pick(bindingsOf(scope).get(name), id);
      if (before ?? after) return before ?? after;
    }
  }
  return null;
}
