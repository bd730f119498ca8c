import type { Node } from 'web-tree-sitter';
import type { Access } from '../../engine';
import { offsetAt } from './apply';
import { withTree } from './syntax';

/**
 * The cache fix on a DynamoDB library's read (docs/fixes.md, "Read-hot keys: the cache
 * fix"): ElectroDB's `Entity.get({ ... }).go()` and `Entity.query.<pattern>({ ... }).go()`
 * send their request when `.go()` is called and resolve to plain data (`{ data, cursor }`),
 * which the cache's deep copy keeps whole; so the call from the entity to `.go(...)` is
 * wrapped as an SDK request is. The other libraries' reads are not (`uncopiedResults` says
 * why in the light bulb): a dynamoose document or a TypeDORM entity would lose its class
 * (`save()`, `delete()`), a PynamoDB query is a lazy iterator read once, OneTable's `find`
 * keeps the next page's key on the array itself; OneTable's `get` and dynamodb-toolbox are
 * not wrapped yet.
 */

type Range = { start: number; end: number };

/** Why a library read is not wrapped, said in the light bulb, or null when it is. */
export function libraryNotCacheable(a: Access, text: string): string | null {
  const library = a.library!;
  if (library.library !== 'electrodb') return uncopiedResults(library.library, a.operation);
  const end = library.edit?.end;
  if (!end || end.method !== 'go')
    return `the ${a.operation} call does not end in .go() (it ${end ? `ends in .${end.method}()` : 'is not written as one chain'}), so there is no request here to wrap`;
  const call = libraryCallRange(a, text);
  if (/\.where\s*\(/.test(text.slice(call.start, call.end)))
    return 'its .where() filter may differ per call: one cache entry would serve other items';
  const options = goOptions(a, text);
  if (options === 'paged') return 'it reads the key page by page (a cursor is passed to .go())';
  if (options === 'varying') return 'its .go() options are computed per call: one cache entry would serve other reads';
  return null;
}

/** Why a library's reads are not wrapped: what its results are. */
export function uncopiedResults(library: string, operation: string): string {
  switch (library) {
    case 'dynamoose':
      return 'dynamoose returns documents whose methods (save, delete) a cached copy would lose';
    case 'typedorm':
      return 'TypeDORM returns entity class instances whose methods a cached copy would lose';
    case 'pynamodb':
      return operation === 'Query'
        ? 'a PynamoDB query is a lazy iterator, read once: a cached one would be empty for the next caller'
        : 'PynamoDB returns model instances, which the fix does not copy (PynamoDB cannot be run here to prove it)';
    case 'dynamodb-onetable':
      return operation === 'Query'
        ? "OneTable's find returns an array carrying the next page's key (.next), which a cached copy drops"
        : "the fix does not wrap OneTable's calls yet";
    case 'dynamodb-toolbox':
      return "the fix does not wrap dynamodb-toolbox's calls yet (a v0 query's response holds a next() function no copy keeps)";
    default:
      return 'its results are not plain data the cache can copy';
  }
}

/** The call from the entity to the end of `.go(...)`: the access's span. */
export function libraryCallRange(a: Access, text: string): Range {
  return {
    start: offsetAt(text, a.span.startLine, a.span.startColumn),
    end: offsetAt(text, a.span.endLine, a.span.endColumn),
  };
}

/**
 * What `.go(...)` is given: nothing or an object of literals (`{ attributes: ['banner'] }`,
 * `{ pages: 'all' }`) is the same on every call; a `cursor` pages; anything else (a name, a
 * spread, a computed value) may differ per call.
 */
function goOptions(a: Access, text: string): 'same' | 'paged' | 'varying' {
  const args = a.library!.edit!.end!.args;
  const inner = text.slice(
    offsetAt(text, args.startLine, args.startColumn) + 1,
    offsetAt(text, args.endLine, args.endColumn) - 1,
  );
  if (!inner.trim()) return 'same';
  if (/\bcursor\b/.test(inner)) return 'paged';
  const literal = withTree(a.file, text, (tree) => {
    const at = { row: args.startLine, column: args.startColumn + 1 };
    let n: Node | null = tree.rootNode.namedDescendantForPosition(at, at);
    while (n && n.type !== 'arguments') n = n.parent;
    const list = n?.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment') ?? [];
    return list.length === 1 && isLiteral(list[0]);
  });
  return literal ? 'same' : 'varying';
}

const SCALARS = new Set(['string', 'number', 'true', 'false', 'null', 'undefined']);

/** A literal built of literals only: what evaluates the same on every call. */
function isLiteral(n: Node): boolean {
  if (SCALARS.has(n.type)) return true;
  if (n.type === 'template_string') return !n.namedChildren.some((c) => c?.type === 'template_substitution');
  const children = n.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
  if (n.type === 'array') return children.every(isLiteral);
  if (n.type === 'object')
    return children.every((p) => {
      if (p.type !== 'pair') return false;
      const key = p.childForFieldName('key');
      const value = p.childForFieldName('value');
      return !!key && key.type !== 'computed_property_name' && !!value && isLiteral(value);
    });
  return false;
}

/**
 * The partition key's value as a JavaScript template literal of what the call passes
 * (`` `$prompt#fishingstyle_${fishingStyle}` ``): each hole must be an expression written in
 * the call itself, so the cache key reads the same names the request does. Null when a
 * hole's value comes from elsewhere (a default, a variable set before).
 */
export function libraryKeyValue(a: Access, text: string, call: Range): string | null {
  let out = '';
  for (const part of a.partitionKey!.template.parts) {
    if ('literal' in part) {
      out += part.literal.replace(/[\\`]/g, '\\$&').replace(/\$\{/g, '\\${');
      continue;
    }
    const o = part.origin;
    if (!o || o.file !== a.file) return null;
    const start = offsetAt(text, o.span.startLine, o.span.startColumn);
    const end = offsetAt(text, o.span.endLine, o.span.endColumn);
    const value = text.slice(start, end).trim();
    // Evaluated a second time for the cache key: a plain read of names only.
    if (start < call.start || end > call.end || !/^[\w$]+(\.[\w$]+|\[('[^']*'|"[^"]*"|\d+)\])*$/.test(value))
      return null;
    out += '${' + value + '}';
  }
  return '`' + out + '`';
}
