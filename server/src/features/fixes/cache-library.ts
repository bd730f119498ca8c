import type { Node } from 'web-tree-sitter';
import { type Access, cacheableLibraryRead, type Span, spanOf, spanWithin } from '../../engine';
import { offsetAt } from './apply';
import { argsOf, callsAt } from './libraries/call-syntax';
import { withTree } from './syntax';

/**
 * The cache fix on a DynamoDB library's read (docs/fixes.md, "Read-hot keys: the cache
 * fix"). ElectroDB's `Entity.get({ ... }).go()`, dynamodb-toolbox v1's
 * `Entity.build(GetItemCommand).key({ ... }).send()` and OneTable's `Model.get({ ... })` send
 * their request at the chain's last step and resolve to plain data (`{ data, cursor }`,
 * `{ Item, $metadata }`, the item), which the cache's deep copy keeps whole; so the chain,
 * from the entity to that step, is wrapped as an SDK request is. Every other argument of the
 * chain must be the same on every call.
 * The other libraries' reads are not wrapped (`uncopiedResults` says why in the light
 * bulb): a dynamoose document or a TypeDORM entity would lose its class (`save()`,
 * `delete()`), a PynamoDB query is a lazy iterator read once, OneTable's `find` keeps the
 * next page's key on the array itself; toolbox v0 is not wrapped yet.
 */

type Range = { start: number; end: number };

/** How a library's read chain is written: the step that sends it, and what its other steps may take. */
interface ChainRules {
  /** The last step, which sends the request (`go`, `send`). */
  sends: string;
  /** Steps whose arguments may be names (`build(QueryCommand)`, `entities(OrderEntity)`): classes and entities. */
  named: readonly string[];
  /** The option that reads page by page (`cursor`, `exclusiveStartKey`). */
  paging: string;
  /** Steps that filter what is read, with arguments of the caller's (`where`). */
  filters: readonly string[];
}

const CHAINS: Record<string, ChainRules> = {
  electrodb: { sends: 'go', named: [], paging: 'cursor', filters: ['where'] },
  'dynamodb-toolbox': { sends: 'send', named: ['build', 'entities'], paging: 'exclusiveStartKey', filters: [] },
  // `Plan.get({ tier })`, `table.get('Plan', { tier })`: one call, resolving to the item as a plain object.
  'dynamodb-onetable': { sends: 'get', named: [], paging: 'next', filters: [] },
};

/** Why a library read is not wrapped, said in the light bulb, or null when it is. */
export function libraryNotCacheable(a: Access, text: string): string | null {
  const library = a.library!.library;
  const rules = CHAINS[library];
  if (!rules) return uncopiedResults(library, a.operation);
  // A toolbox v0 call, a OneTable find: refused by the engine's `cacheableLibraryRead` already.
  if (!cacheableLibraryRead(library, a.operation, a.call.callee)) return uncopiedResults(library, a.operation);
  const checked = withTree(a.file, text, (tree) => {
    const call = callsAt(tree, a.span).ending;
    return {
      why: call
        ? chainRefusal(a, stepsOf(call), rules)
        : `the ${a.operation} call is not written in a form the fix can wrap`,
    };
  });
  return checked ? checked.why : `the ${a.operation} call cannot be read`;
}

/**
 * Why a chain is not the same request on every call: it does not end in the step that sends
 * it, or a step is given what the caller computes (a filter, options, a cursor). The
 * arguments holding the key's values are the key's, which the model judges (a varying sort
 * key is refused before); literals and, where the step takes them, class and entity names
 * are the same on every call.
 */
function chainRefusal(a: Access, steps: Step[], rules: ChainRules): string | null {
  const last = steps[0]?.name;
  if (last !== rules.sends)
    return `the ${a.operation} call does not end in .${rules.sends}() (it ends in .${last ?? '?'}()), so there is no request here to wrap`;
  const keyArgs = keyOrigins(a);
  for (const step of steps) {
    for (const arg of step.args) {
      if (keyArgs.some((k) => spanWithin(k, spanOf(arg))) || isLiteral(arg)) continue;
      if (arg.type === 'identifier' && rules.named.includes(step.name)) continue;
      if (rules.filters.includes(step.name))
        return `its .${step.name}() filter may differ per call: one cache entry would serve other items`;
      if (new RegExp(`\\b${rules.paging}\\b`).test(arg.text))
        return `it reads the key page by page (${rules.paging} passed to .${step.name}())`;
      return `its .${step.name}() arguments are computed per call: one cache entry would serve other reads`;
    }
  }
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
        : `the fix wraps OneTable's get only, not a ${operation}`;
    case 'dynamodb-toolbox':
      return operation === 'Query'
        ? "a dynamodb-toolbox v0 query's response may hold a next() function, which the cache's copy cannot keep"
        : 'the fix does not wrap dynamodb-toolbox v0 calls yet';
    default:
      return 'its results are not plain data the cache can copy';
  }
}

/** The call from the entity to the end of its last step: the access's span. */
export function libraryCallRange(a: Access, text: string): Range {
  return {
    start: offsetAt(text, a.span.startLine, a.span.startColumn),
    end: offsetAt(text, a.span.endLine, a.span.endColumn),
  };
}

/** The spans the key's holes are written at: the arguments holding them are the key's, read by the model. */
function keyOrigins(a: Access): Span[] {
  const keys = [a.partitionKey, a.sortKey, ...(a.sortCondition?.operands ?? [])];
  return keys.flatMap(
    (k) => k?.template.parts.flatMap((p) => ('hole' in p && p.origin?.file === a.file ? [p.origin.span] : [])) ?? [],
  );
}

/** The chain's calls from the last: `.go(opts)`, `.where(fn)`, `.get(key)` (member accesses between are passed). */
type Step = { name: string; args: Node[] };

function stepsOf(call: Node): Step[] {
  const steps: Step[] = [];
  let n: Node | null = call;
  while (n) {
    if (n.type === 'call_expression') {
      const fn = n.childForFieldName('function');
      const name = fn?.type === 'member_expression' ? (fn.childForFieldName('property')?.text ?? '') : (fn?.text ?? '');
      steps.push({ name, args: argsOf(n) });
      n = fn?.type === 'member_expression' ? fn.childForFieldName('object') : null;
    } else if (n.type === 'member_expression') n = n.childForFieldName('object');
    else if (n.type === 'parenthesized_expression' || n.type === 'non_null_expression') n = n.namedChild(0);
    else n = null;
  }
  return steps;
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
