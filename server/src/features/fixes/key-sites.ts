import type { Node, Tree } from 'web-tree-sitter';
import { type Access, logicalKeyOf, type SourceRange, type Span, spanOf } from '../../engine';
import { placeAt, placeNamer } from '../places';
import { memoized, type FixContext } from './fix-model';
import { isParameter, useValue } from './key-edit';
import {
  enclosingFunction,
  functionNameOf,
  nodeAt,
  sameSpan,
  siblingAttributes,
  withTree,
  within,
  type ItemAttribute,
} from './syntax';

/**
 * Where a key's own value expression is written, for each access of a logical key. A
 * fix edits only that expression: `PK: GLOBAL_BOARD`, `Key={"PK": f"DAY#{day}"}`, or,
 * when the call is given a whole item built by a mapper (`Item: toBallotItem(b)`,
 * `Item=event.to_item()`), the key's value inside that mapper — only if the mapper
 * builds items of this key alone. Anything else (an object, a call returning an
 * item, a spread) is never given a shard: the fix is not offered, and says why.
 */

export interface KeySite {
  access: Access;
  /** The key's value expression: where the shard is appended. */
  target: SourceRange;
  /** The key's last literal, when it closes the target (`'X#' + 'y'` edits `'y'` only). */
  at: SourceRange | null;
  /** The attributes beside the key in its item or key object, in scope at the target. */
  siblings: ItemAttribute[];
  /** The key is built by a mapper, not at the call. */
  mapper: string | null;
}

export type Blocked = { blocked: string };

/** How the fix's messages name a file of the workspace: `tickets.ts`, `update-score/index.js`. */
export const placeName = (ctx: FixContext): ((file: string) => string) =>
  memoized(ctx, ctx, 'place-names', () => placeNamer(ctx.files?.() ?? []));

/** `tickets.ts:12`, `update-score/index.js:33`: a place, as the fix's messages name it. */
export const where = (ctx: FixContext, file: string, span: Span) => placeAt(placeName(ctx), file, span.startLine);

/**
 * Operations that address one existing item by its key: a random suffix would send
 * them to a random shard (an update or delete then misses its item and creates junk).
 * A `BatchWriteItem` holds puts or deletes; a delete is a point access.
 */
export function isPointAccess(a: Access): boolean {
  // A write that sets an index's key finds its item by the table's key: the index key is
  // only a value it writes, and a random shard of it moves the item between index shards.
  if (a.index && a.kind === 'write') return false;
  switch (a.operation) {
    case 'PutItem':
    case 'Query':
      return false;
    case 'BatchWriteItem':
      return /delete/i.test(a.call.callee);
    default:
      return true;
  }
}

const ITEM_LIKE = new Set([
  'object',
  'dictionary',
  'spread_element',
  'dictionary_splat',
  'list_splat',
  'new_expression',
  'await_expression',
  'array',
  'list',
  'arrow_function',
  'lambda',
  'call_expression',
  'call',
]);

/**
 * Whether a node is a key's own value (a string, a template, a name, a concatenation)
 * rather than something that produces an item: appending a shard to `toItem(x)`
 * writes `"[object Object]#7"`. Calls that build strings (`"{}".format(x)`, `str(x)`,
 * `String(x)`, `x.join(...)`) are values.
 */
export function isKeyValue(n: Node): boolean {
  if (!ITEM_LIKE.has(n.type)) return true;
  if (n.type !== 'call_expression' && n.type !== 'call') return false;
  const callee = n.childForFieldName('function');
  if (!callee) return false;
  if (/^(str|String)$/.test(callee.text)) return true;
  const member =
    callee.type === 'attribute' ? callee.childForFieldName('attribute') : callee.childForFieldName('property');
  return (
    !!member &&
    /^(format|join|toString|lower|upper|toLowerCase|toUpperCase)$/.test(member.text) &&
    isKeyValue(callee.childForFieldName('object') ?? callee)
  );
}

/**
 * A call given as the key attribute's own value (`PK: boardKey(season)`, `":pk":
 * board_key()`, `Key("pk").eq(board_key())`): what it returns is the key's text (the
 * engine read a key from it), so a shard goes after it as after a name. A call given
 * as the whole item (`Item: toItem(x)`) is not one.
 */
function isNamedKeyCall(n: Node, attribute: string): boolean {
  if (n.type !== 'call_expression' && n.type !== 'call') return false;
  const parent = n.parent;
  if (parent?.type === 'pair') {
    const key = parent.childForFieldName('key');
    const name = key?.text.replace(/^['"`]|['"`]$/g, '');
    return parent.childForFieldName('value')?.id === n.id && (name === attribute || !!name?.startsWith(':'));
  }
  // boto3's condition builder: `Key("pk").eq(value)`.
  const call = parent?.type === 'argument_list' && parent.namedChildCount === 1 ? parent.parent : null;
  const callee = call?.childForFieldName('function');
  return callee?.type === 'attribute' && callee.childForFieldName('attribute')?.text === 'eq';
}

/** The last literal of the key, when it is the end of the key's value (`"BOARD#global"` in `PREFIX + "BOARD#global"`). */
function lastLiteral(a: Access): SourceRange | null {
  const parts = a.partitionKey?.template.parts ?? [];
  const last = parts[parts.length - 1];
  return last && 'literal' in last && last.origin ? { file: last.origin.file, span: last.origin.span } : null;
}

/** The `PK: value` pair (or keyword argument) a node sits in, for the key attribute. */
function keyPair(n: Node | null, attribute: string): Node | null {
  for (let p = n; p; p = p.parent) {
    if (p.type !== 'pair' && p.type !== 'keyword_argument') continue;
    const k = p.childForFieldName('key') ?? p.childForFieldName('name');
    if (k && k.text.replace(/^['"`]|['"`]$/g, '') === attribute) return p;
  }
  return null;
}

/**
 * Why a key that is a parameter's default gets no shard: a suffix in the default would
 * be evaluated once (Python) and bypassed by every call that passes the argument, so it
 * goes only where the request uses the parameter, and here there is no such expression.
 */
function defaultBlocked(ctx: FixContext, a: Access, at: Span, file: string | null): string {
  const text = ctx.textOf(file ?? a.file);
  const name = text ? withTree(file ?? a.file, text, (tree) => parameterName(nodeAt(tree, at))) : null;
  const param = name ? `parameter ${name}` : 'a parameter';
  if (!file || file === a.file)
    return `the key at ${where(ctx, a.file, at)} is the default of ${param}, and the request names it with no expression a suffix could go on`;
  return `the key is the default of ${param} at ${where(ctx, file, at)}, which the call at ${where(ctx, a.file, a.span)} leaves out: pass the key at the call to shard it here`;
}

/** The name of the parameter whose default `n` is in (`pk` of `pk = "GLOBAL"`, `source="web"`). */
function parameterName(n: Node | null): string | null {
  for (let p = n; p; p = p.parent) {
    const name = p.childForFieldName('left') ?? p.childForFieldName('pattern') ?? p.childForFieldName('name');
    if (isParameter(p) && name?.type === 'identifier' && name.id !== n?.id) return name.text;
  }
  return null;
}

/** Whether `n` is written in the function that makes the call at `call` (not in a nested one). */
function sameFunction(tree: Tree, n: Node, call: Span): boolean {
  const fn = enclosingFunction(n);
  const callFn = enclosingFunction(nodeAt(tree, call));
  return !!fn && !!callFn && fn.id === callFn.id;
}

/** Where one access's key value is, or why a fix cannot edit it. */
export function keySite(ctx: FixContext, a: Access): KeySite | Blocked {
  // Asked for every access of the key by the fixes of each of its findings.
  return memoized(ctx, a, 'key-site', () => findKeySite(ctx, a));
}

function findKeySite(ctx: FixContext, a: Access): KeySite | Blocked {
  const pk = a.partitionKey;
  const text = ctx.textOf(a.file);
  if (!pk || text === null) return { blocked: `the key at ${where(ctx, a.file, a.span)} is not known` };
  const own = withTree(a.file, text, (tree) => {
    const n = nodeAt(tree, pk.span);
    if (!n || !sameSpan(spanOf(n), pk.span) || !(isKeyValue(n) || isNamedKeyCall(n, pk.attribute))) return null;
    // A parameter's default is evaluated once (Python) or bypassed by a caller that passes
    // the value: the edit goes on the value where the request uses it, if it names one.
    if (isParameter(n)) return { span: useValue(tree, pk.use), siblings: siblingAttributes(tree, a.language, pk.use) };
    // The key's value as the call writes it, or as the function making the call builds its
    // parameters (`const params = {...}; db.put(params)`); one the engine followed into
    // another function is a mapper's.
    if (!within(pk.span, a.span) && !sameFunction(tree, n, a.span)) return null;
    const span: Span | null = pk.span;
    return { span, siblings: siblingAttributes(tree, a.language, pk.use) };
  });
  if (own && !own.span) return { blocked: defaultBlocked(ctx, a, pk.span, null) };
  if (own?.span) {
    const at = own.span === pk.span ? lastLiteral(a) : null;
    return { access: a, target: { file: a.file, span: own.span }, at, siblings: own.siblings, mapper: null };
  }
  return mapperSite(ctx, a);
}

/**
 * The key's value inside the function that builds the item: found from where the
 * key's text came from (its parts' origins), then the `PK: ...` pair around it.
 */
function mapperSite(ctx: FixContext, a: Access): KeySite | Blocked {
  const pk = a.partitionKey!;
  const built = `the item at ${where(ctx, a.file, pk.span)} is built elsewhere`;
  const origin =
    pk.template.parts.find((p) => p.origin && p.origin.file !== a.file)?.origin ??
    pk.template.parts.find((p) => p.origin)?.origin;
  if (!origin || !ctx.analysisOf(origin.file)) return { blocked: `${built}, outside the workspace` };
  const text = ctx.textOf(origin.file);
  if (text === null) return { blocked: built };
  const found = withTree(origin.file, text, (tree, language) => {
    const pair = keyPair(nodeAt(tree, origin.span), pk.attribute);
    const value = pair?.childForFieldName('value');
    const fn = pair && enclosingFunction(pair);
    if (!pair || !value || !fn || !isKeyValue(value)) return null;
    const name = functionNameOf(fn);
    if (!name) return null;
    return { span: spanOf(value), use: spanOf(pair), siblings: siblingAttributes(tree, language, spanOf(pair)), name };
  });
  if (!found) {
    // `putEvent(item)` leaving out `pk = "GLOBAL"` of another module's `putEvent`.
    const atDefault = withTree(origin.file, text, (tree) => isParameter(nodeAt(tree, origin.span)));
    if (atDefault) return { blocked: defaultBlocked(ctx, a, origin.span, origin.file) };
    // `username=DEFAULT_USERNAME`: the constant reached the key through a parameter's default.
    const viaDefault = origin.via.find((v) => {
      const t = ctx.textOf(v.file);
      return t !== null && withTree(v.file, t, (tree) => isParameter(nodeAt(tree, v.valueSpan)));
    });
    if (viaDefault) return { blocked: defaultBlocked(ctx, a, viaDefault.valueSpan, viaDefault.file) };
    return { blocked: `${built} and its key value could not be found` };
  }
  if (
    !pk.template.parts.every(
      (p) => !p.origin || p.origin.file !== origin.file || within(p.origin.span, found.span) || p.origin.via.length > 0,
    )
  )
    return { blocked: `${built} from several expressions` };
  const other = otherUse(ctx, found.name, a);
  if (other) return { blocked: `${found.name}() also builds items at ${other}, not only this key's` };
  return {
    access: a,
    target: { file: origin.file, span: found.span },
    at: lastLiteral(a),
    siblings: found.siblings,
    mapper: found.name,
  };
}

/**
 * A call of the mapper outside the accesses of this key (another table's item, a
 * cache, a response): the mapper is then not this key's alone, and editing its key
 * would change those too. Returns where, or null.
 */
function otherUse(ctx: FixContext, name: string, a: Access): string | null {
  const key = logicalKeyOf(a);
  const ofThisKey = key ? ctx.accessesOf(key) : [a];
  const files = ctx.files?.() ?? [...new Set(ofThisKey.map((x) => x.file))];
  const call = new RegExp(`(^|[^\\w$])${name.replace(/[$]/g, '\\$')}\\s*\\(`, 'g');
  for (const file of files) {
    const text = ctx.textOf(file);
    if (!text) continue;
    const lines = text.split('\n');
    for (let line = 0; line < lines.length; line++) {
      for (const m of lines[line].matchAll(call)) {
        const column = (m.index ?? 0) + m[1].length;
        const before = lines[line].slice(0, column);
        // Its own definition: `function toItem(`, `def to_item(`, a method `toItem(x) {`.
        if (
          /\b(function|def)\s+$/.test(before) ||
          (/^\s*(async\s+)?$/.test(before) && /\)\s*(:[^;]*)?\{\s*$/.test(lines[line]))
        )
          continue;
        const at = { startLine: line, startColumn: column, endLine: line, endColumn: column + name.length };
        if (!ofThisKey.some((x) => x.file === file && within(at, x.span))) return where(ctx, file, at);
      }
    }
  }
  return null;
}
