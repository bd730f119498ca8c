/**
 * FastAPI's dependency injection: a route's parameter `repo: OrdersRepo =
 * Depends(get_repo)` (or `repo: Annotated[OrdersRepo, Depends(get_repo)]`, or an alias
 * `RepoDep = Annotated[...]` used as `repo: RepoDep`) is what calling `get_repo()` returns
 * when the request comes in. The wrappers pass reads such a parameter as a call of its
 * provider, so the repository's requests are placed at the route with the table the
 * provider made.
 */
import type { Node } from 'web-tree-sitter';
import { findBinding } from './scope';

/** `Depends`, `Security` (both take the provider first), bare or through the `fastapi` module. */
const MARKER = /^(fastapi\.(params\.)?)?(Depends|Security)$/;

/** The provider a dependency marker names (`get_repo` of `Depends(get_repo)`), or null. */
export function dependencyProvider(e: Node | null): Node | null {
  if (e?.type !== 'call' || !MARKER.test(e.childForFieldName('function')?.text ?? '')) return null;
  const args = e.childForFieldName('arguments')?.namedChildren ?? [];
  const keyword = args.find(
    (a) => a?.type === 'keyword_argument' && a.childForFieldName('name')?.text === 'dependency',
  );
  const first = keyword?.childForFieldName('value') ?? args.find((a) => a && a.type !== 'keyword_argument') ?? null;
  return first?.type === 'identifier' || first?.type === 'attribute' ? first : null;
}

/** The dependency marker a function's parameter is given by, in its default or its `Annotated` type, or null. */
export function parameterDependency(fn: Node, name: string): Node | null {
  for (const p of fn.childForFieldName('parameters')?.namedChildren ?? []) {
    if (!p || (p.type !== 'typed_default_parameter' && p.type !== 'default_parameter' && p.type !== 'typed_parameter'))
      continue;
    const id = p.childForFieldName('name') ?? p.namedChild(0);
    if (id?.text !== name) continue;
    const fromDefault = dependencyProvider(p.childForFieldName('value')) ? p.childForFieldName('value') : null;
    return fromDefault ?? markerIn(p.childForFieldName('type'), 0);
  }
  return null;
}

/** The marker inside a type (`Annotated[OrdersRepo, Depends(get_repo)]`), through a module-level alias of one. */
function markerIn(type: Node | null, depth: number): Node | null {
  if (!type || depth > 2) return null;
  for (const call of type.descendantsOfType('call')) if (dependencyProvider(call)) return call;
  // `repo: RepoDep` with `RepoDep = Annotated[OrdersRepo, Depends(get_repo)]`.
  const alias =
    type.namedChild(0)?.type === 'identifier' ? type.namedChild(0) : type.type === 'identifier' ? type : null;
  const b = alias && type.text === alias.text ? findBinding(alias) : null;
  return b?.kind === 'value' ? markerIn(b.node, depth + 1) : null;
}
