/**
 * Tenant routing by a hash: `hash(tenantId) % NUM_SHARDS` choosing a shard, a partition,
 * a table or a cluster for a tenant, with no lookup before it that could send a hot
 * tenant elsewhere (SL021). Each such remainder is a site of its own, its hashed tenant
 * standing where an item's partition key stands, on a "table" named
 * `tenant-route:<function>` (DynamoDB allows no `:` in a table's name, so no table shares
 * it). Only the remainder's own function is read: the lookup may sit nowhere else.
 */
import type { Node } from 'web-tree-sitter';
import { callStyle } from '../call-style';
import { TENANT_TEXT } from '../names';
import { librarySite } from '../library-sites';
import { obj, str } from '../library-requests';
import type { CallSite } from '../../model/call-site';
import type { FrontEnd, SourceFile } from '../../model/frontend';
import type { Value } from '../../model/value';
import { spanOf } from '../../syntax/span';
import { hashedValue } from './hash';
import { namesPlace, tenantOf } from './names';
import { looksUpBefore } from './override';
import { inner, JS_SHAPES, operatorOf, PY_SHAPES, type Shapes } from './syntax';

export { isKeyShardRoute, shardSuffixOrigins, withoutKeyShardRoutes } from './shard-suffix';

export const ROUTE_KEY = 'tenant';
export const ROUTE_TABLE_PREFIX = 'tenant-route:';

/** A file can hold one only if it names a tenant-like thing and a hash (or reads characters' codes), and writes a `%`. */
const HASH_WORD = /hash|crc|md5|sha|murmur|mmh3|fnv|xxh|charCodeAt|\bord\(/i;
const MODULO = /%(?![=%])/g;
/** A remainder compared with a number is a sample or a rollout bucket (`hash(t) % 100 < pct`), not a route. */
const COMPARISONS = new Set(['<', '<=', '>', '>=', '===', '==', '!==', '!=']);

export function tenantRouteCallSites(f: SourceFile, fe: FrontEnd): CallSite[] {
  if (!f.text.includes('%') || !TENANT_TEXT.test(f.text) || !HASH_WORD.test(f.text)) return [];
  const s = f.language === 'python' ? PY_SHAPES : JS_SHAPES;
  const sites: CallSite[] = [];
  const seen = new Set<number>();
  for (const m of f.text.matchAll(MODULO)) {
    const op = f.tree.rootNode.descendantForIndex(m.index!);
    const pct = op?.parent;
    if (!pct || pct.type !== s.binary || operatorOf(pct) !== '%' || seen.has(pct.id)) continue;
    seen.add(pct.id);
    const site = routeSite(f, fe, pct, s);
    if (site) sites.push(site);
  }
  return sites;
}

function routeSite(f: SourceFile, fe: FrontEnd, pct: Node, s: Shapes): CallSite | null {
  const left = pct.childForFieldName('left');
  const right = pct.childForFieldName('right');
  const hashed = left ? hashedValue(left, s) : null;
  const tenant = hashed ? tenantOf(hashed, s) : null;
  if (!hashed || !tenant || !right) return null;
  const fn = enclosingFunction(pct, s);
  if (!routes(pct, right, fn, s)) return null;
  if (fn && looksUpBefore(outermostFunction(fn, s), tenant, pct.startIndex, s)) return null;
  const at = spanOf(pct);
  const name = fn ? functionName(fn, s) : null;
  const value: Value = {
    kind: 'scalar',
    template: { parts: [{ hole: { kind: 'entity-id', source: tenant } }] },
    span: spanOf(hashed),
  };
  const input = obj(
    [
      ['TableName', str(`${ROUTE_TABLE_PREFIX}${name ?? '?'}`, at)],
      ['Item', obj([[ROUTE_KEY, value]], value.span)],
    ],
    at,
  );
  return librarySite({
    f,
    operation: 'PutItem',
    sdk: f.language === 'python' ? 'boto3-resource' : 'lib-dynamodb',
    at,
    input,
    call: callStyle(pct, f.text, f.language === 'python' ? 'boto3-client' : 'v2-call', '%', null),
    keySchema: { partition: ROUTE_KEY },
    library: {
      library: 'tenant-route',
      entity: name ?? '?',
      accessPattern: 'hash',
      declaration: { file: f.file, span: fn ? spanOf(fn) : at },
      route: { tenant, hash: at, before: spanOf(topLevel(pct)), keyType: keyTypeOf(fn, tenant, f) },
    },
  });
}

/** Whether the remainder picks a place: the count, the indexed list, the variable, or the function says so. */
function routes(pct: Node, right: Node, fn: Node | null, s: Shapes): boolean {
  const up = pct.parent ? (s.transparent.includes(pct.parent.type) ? pct.parent.parent : pct.parent) : null;
  if (up && up.type === s.binary && COMPARISONS.has(operatorOf(up))) return false;
  if (up && up.type === 'comparison_operator') return false;
  if (namesPlace(right.text)) return true;
  for (let at: Node | null = pct.parent; at && at !== fn; at = at.parent) {
    if (at.type === s.subscript) {
      const object = at.childForFieldName(s.subscriptObject);
      if (object && namesPlace(object.text)) return true;
    }
    const target =
      at.type === 'variable_declarator'
        ? at.childForFieldName('name')
        : at.type === 'assignment' || at.type === 'assignment_expression'
          ? at.childForFieldName('left')
          : at.type === s.call
            ? at.childForFieldName('function')
            : null;
    if (target && namesPlace(target.text)) return true;
    if (at.type === 'expression_statement' || at.type === 'lexical_declaration') break;
  }
  const name = fn ? functionName(fn, s) : null;
  return !!name && namesPlace(name);
}

function enclosingFunction(n: Node, s: Shapes): Node | null {
  for (let p = n.parent; p; p = p.parent) if (s.functions.includes(p.type)) return p;
  return null;
}

/** The function the remainder is in, counting an arrow or lambda inside it as part of it. */
function outermostFunction(fn: Node, s: Shapes): Node {
  let out = fn;
  for (let p = fn.parent; p; p = p.parent) if (s.functions.includes(p.type)) out = p;
  return out;
}

/** `shardFor` of `function shardFor(...)`, `const shardFor = (...) =>`, `def shard_for(...)`, a method's name. */
export function functionName(fn: Node, s: Shapes): string | null {
  const own = fn.childForFieldName('name');
  if (own) return own.text;
  const p = fn.parent ? inner(fn.parent, s) : null;
  const holder =
    p?.type === 'variable_declarator'
      ? p.childForFieldName('name')
      : p?.type === 'pair'
        ? p.childForFieldName('key')
        : null;
  return holder?.text ?? null;
}

/** The statement at the top of the module that holds `n` (a class, a function, an `export`): where a module constant goes above. */
function topLevel(n: Node): Node {
  let at = n;
  while (at.parent && at.parent.parent) at = at.parent;
  // Its comments (a doc comment) stay with it: the constant goes above them.
  for (let prev = at.previousSibling; prev?.type === 'comment' && prev.endPosition.row >= at.startPosition.row - 1;) {
    at = prev;
    prev = at.previousSibling;
  }
  return at;
}

/** TypeScript: the tenant parameter's declared type, when the tenant is a parameter of the function and has one. */
function keyTypeOf(fn: Node | null, tenant: string, f: SourceFile): string | null {
  if (!fn || (f.language !== 'typescript' && f.language !== 'tsx')) return null;
  const params = fn.childForFieldName('parameters');
  for (const p of params?.namedChildren ?? []) {
    if (p?.childForFieldName('pattern')?.text !== tenant) continue;
    const t = p.childForFieldName('type')?.text.replace(/^:\s*/, '');
    return t ?? null;
  }
  return null;
}
