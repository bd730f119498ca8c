import type { Node, Tree } from 'web-tree-sitter';
import type { Access, Span } from '../model';

/**
 * Reads the cache fix has wrapped (docs/fixes.md, "Read-hot keys: the cache fix"): the
 * call is the loader of the helper the fix adds, `shardlensCached(key, ttl, () => <call>)`
 * in JavaScript and TypeScript, `shardlens_cached(key, ttl, lambda: <call>)` in Python.
 * Such a read reaches DynamoDB about once per TTL per process, so analysing the fixed code
 * again must not offer the same fix or call the read hot as before (SL001, `key-use.ts`).
 */

/** The helpers' names, as the cache fix writes them (`features/generate/cache-helper.ts`). */
export const CACHE_HELPERS = { js: 'shardlensCached', python: 'shardlens_cached' } as const;

const LOADERS = new Set(['arrow_function', 'lambda']);
const CALLS = new Set(['call_expression', 'call']);
/** Where a walk up from the read stops: it left the expression the read stands in. */
const BOUNDARIES = new Set([
  'function_declaration',
  'function_expression',
  'method_definition',
  'function_definition',
  'class_declaration',
  'class_definition',
  'program',
  'module',
]);

/** The helper whose loader the node stands in, else null. */
function helperAround(node: Node | null): string | null {
  for (let n = node; n && !BOUNDARIES.has(n.type); n = n.parent) {
    if (!LOADERS.has(n.type)) continue;
    const args = n.parent;
    const call = args?.parent;
    if (!args || !call || !CALLS.has(call.type)) return null;
    // The loader is the helper's last argument: a lambda elsewhere is some other code's.
    if (args.lastNamedChild?.id !== n.id) return null;
    const callee = call.childForFieldName('function')?.text ?? '';
    const name = callee.slice(callee.lastIndexOf('.') + 1);
    return name === CACHE_HELPERS.js || name === CACHE_HELPERS.python ? name : null;
  }
  return null;
}

/** The cache helper whose loader the code at a span stands in (a wrapper's call, when summarised), else null. */
export function cacheHelperAt(tree: Tree, span: Span): string | null {
  return helperAround(tree.rootNode.descendantForPosition({ row: span.startLine, column: span.startColumn }));
}

/**
 * The accesses with `cachedBy` set on the reads a cache helper's loader makes (new objects for
 * those only). A file that names neither helper has none: its tree is not walked (a walk up
 * from each read cost a tenth of extracting a 3,000-line file after an edit).
 */
export function markCachedReads(tree: Tree, text: string, accesses: Access[]): Access[] {
  if (!text.includes(CACHE_HELPERS.js) && !text.includes(CACHE_HELPERS.python)) return accesses;
  return accesses.map((a) => {
    // A wrapper's read is cached in the wrapper (`cachedBy` from its summary) or, as for its own
    // request, when the caller's call of it is the loader (`shardlensCached(k, ttl, () => getItem(...))`).
    if (a.kind !== 'read' || a.cachedBy) return a;
    const node = tree.rootNode.descendantForPosition({ row: a.span.startLine, column: a.span.startColumn });
    const helper = helperAround(node);
    return helper ? { ...a, cachedBy: helper } : a;
  });
}
