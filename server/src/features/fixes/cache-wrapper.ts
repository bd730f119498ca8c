import type { Node } from 'web-tree-sitter';
import type { Access, Finding } from '../../engine';
import { offsetAt } from './apply';
import type { FixAction, FixContext } from './fix-model';
import { where } from './key-sites';
import { enclosingFunction, functionNameOf, nodeAt, withTree } from './syntax';

/**
 * The cache fix on a read a wrapper in another module makes for its caller (`await
 * getItem<Flags>(TABLE, 'FEATURE_FLAGS')`, the GetItem written in db.ts). Two places can
 * hold the cache:
 * - the wrapper's own request, when that read is a finding with a cache fix of its own
 *   (`getPromptContent(fishingStyle)`, whose key is one entry per value): every caller's
 *   reads are served from it (`wrapperOwnRead`, `atWrapper`);
 * - the caller's call of the wrapper, wrapped as a request is (`cache-read.ts`), when the
 *   wrapper returns the request's plain data and the call is the same on every call: the
 *   wrapper awaits nothing else, builds no class instance, changes nothing outside itself
 *   and calls only functions that compute on data; every argument is a constant (a literal,
 *   a module-level name, an environment variable) (`wrapperCall`).
 */

type Blocked = { blocked: string };

/** The wrapper's own read, when it is a finding the cache fix is offered on. */
export function wrapperOwnRead(finding: Finding, ctx: FixContext): Finding | null {
  const through = finding.access.through;
  if (!through) return null;
  const own = ctx.analysisOf(through.file)?.findings ?? [];
  return (
    own.find(
      (f) =>
        f.access.kind === 'read' &&
        !f.access.through &&
        overlaps(f.access.span, through.span) &&
        f.fixes.some((d) => d.kind === 'cache-read'),
    ) ?? null
  );
}

/** The wrapper's cache fix as the caller's light bulb lists it: it caches every caller's reads. */
export function atWrapper(action: FixAction, finding: Finding, ctx: FixContext): FixAction {
  const through = finding.access.through!;
  const at = `in the wrapper at ${where(ctx, through.file, through.span)}`;
  const title =
    action.id === 'cache-read'
      ? action.title.replace(/ for (\d+) s/, ` ${at} (every caller's) for $1 s`)
      : action.title.replace(/^No cache fix: /, `No cache fix: ${at}, `);
  return { ...action, rule: finding.rule, title };
}

const overlaps = (x: Access['span'], y: Access['span']) =>
  !(
    x.endLine < y.startLine ||
    (x.endLine === y.startLine && x.endColumn <= y.startColumn) ||
    y.endLine < x.startLine ||
    (y.endLine === x.startLine && y.endColumn <= x.startColumn)
  );

/** The range of the caller's call of the wrapper, when the cache may stand in for it; else why not. */
export function wrapperCall(a: Access, text: string, ctx: FixContext): { start: number; end: number } | Blocked {
  const through = a.through!;
  const caller = withTree(a.file, text, (tree) => {
    let call: Node | null = nodeAt(tree, a.span);
    while (call && call.type !== 'call_expression' && call.type !== 'call') call = call.parent;
    if (!call) return null;
    const topLevel = topLevelNames(tree.rootNode);
    const unstable = argumentsOf(call).find((arg) => !isConstant(arg, topLevel));
    return { start: call.startIndex, end: call.endIndex, callee: calleeName(call), unstable: unstable?.text ?? null };
  });
  if (!caller?.callee) return { blocked: `the call of the wrapper is not written in a form the fix can wrap` };
  const { callee } = caller;
  if (caller.unstable !== null)
    return {
      blocked: `${callee} is passed ${short(caller.unstable)}, which may change per call: cache inside ${callee}, or where its result is used`,
    };
  const wrapperText = ctx.textOf(through.file);
  const at = where(ctx, through.file, through.span);
  const why =
    wrapperText === null
      ? `${through.file} cannot be read`
      : withTree(through.file, wrapperText, (tree) => {
          const request = nodeAt(tree, through.span);
          const fn = enclosingFunction(request);
          const name = functionNameOf(fn);
          if (!fn || !request || name !== callee)
            return `the ${a.operation} is sent by ${name ?? 'a function'} (${at}), which ${callee} calls: the fix caches a call of the function that sends it`;
          const range = { start: offsetAt(wrapperText, through.span.startLine, through.span.startColumn), end: 0 };
          range.end = offsetAt(wrapperText, through.span.endLine, through.span.endColumn);
          const found = sideEffect(fn, range, topLevelNames(tree.rootNode));
          return found ? `${callee} (${at}) ${found}` : null;
        });
  if (why) return { blocked: why };
  return { start: caller.start, end: caller.end };
}

function argumentsOf(call: Node): Node[] {
  const list = call.childForFieldName('arguments');
  return (list?.namedChildren ?? [])
    .filter((n): n is Node => !!n && n.type !== 'comment')
    .map((n) => (n.type === 'keyword_argument' ? (n.childForFieldName('value') ?? n) : n));
}

/** `getItem` of `getItem<Flags>(...)`, `Dynamo.getAllInSet(...)`, `store.load_settings()`. */
function calleeName(call: Node): string | null {
  const fn = call.childForFieldName('function');
  if (!fn) return null;
  if (fn.type === 'identifier') return fn.text;
  const last = fn.childForFieldName('property') ?? fn.childForFieldName('attribute');
  return last?.text ?? null;
}

const short = (s: string) => (s.length > 40 ? `${s.slice(0, 37)}...` : s);

const LITERALS = new Set([
  'string',
  'number',
  'true',
  'false',
  'null',
  'undefined',
  'integer',
  'float',
  'none',
  'concatenated_string',
]);

/** A literal, a module-level name, an environment variable, or members and defaults of them: the same on every call. */
function isConstant(n: Node, topLevel: Set<string>): boolean {
  switch (n.type) {
    case 'non_null_expression':
    case 'as_expression':
    case 'satisfies_expression':
    case 'parenthesized_expression':
      return !!n.namedChild(0) && isConstant(n.namedChild(0)!, topLevel);
    case 'template_string':
      return !n.namedChildren.some((c) => c?.type === 'template_substitution');
    case 'string':
      return !n.namedChildren.some((c) => c?.type === 'interpolation');
    case 'identifier':
      return topLevel.has(n.text) || n.text === 'undefined';
    case 'member_expression':
    case 'attribute':
    case 'subscript_expression':
    case 'subscript': {
      const object = n.childForFieldName('object') ?? n.childForFieldName('value');
      return !!object && (object.text === 'process.env' || object.text === 'process' || isConstant(object, topLevel));
    }
    case 'binary_expression':
    case 'boolean_operator': {
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      return !!left && !!right && isConstant(left, topLevel) && isConstant(right, topLevel);
    }
    default:
      return LITERALS.has(n.type);
  }
}

/** The names a module declares or imports at its top level. */
function topLevelNames(root: Node): Set<string> {
  const names = new Set<string>();
  const visit = (n: Node) => {
    for (const c of n.namedChildren) {
      if (!c) continue;
      if (c.type === 'export_statement' || c.type === 'expression_statement') visit(c);
      else if (c.type === 'lexical_declaration' || c.type === 'variable_declaration')
        for (const d of c.namedChildren) {
          const name = d?.childForFieldName('name');
          if (name?.type === 'identifier') names.add(name.text);
        }
      else if (c.type === 'assignment') {
        const left = c.childForFieldName('left');
        if (left?.type === 'identifier') names.add(left.text);
      } else if (/^import/.test(c.type) || c.type === 'future_import_statement')
        for (const id of c.descendantsOfType(['identifier', 'dotted_name'])) if (id) names.add(id.text.split('.')[0]);
    }
  };
  visit(root);
  return names;
}

/** What the wrapper computes on its data with: methods and built-ins that change nothing outside it. */
const COMPUTES = new Set(
  (
    'get includes indexOf map filter find findIndex some every slice join concat keys values entries items flat ' +
    'flatMap reduce sort reverse toString toLowerCase toUpperCase lower upper trim strip split startsWith endsWith ' +
    'startswith endswith parse stringify loads dumps unmarshall fromEntries isArray from of Number String Boolean ' +
    'parseInt parseFloat int str float bool list dict tuple set len isinstance sorted min max sum any all ' +
    'enumerate zip range deserialize log debug info warn warning error trace'
  ).split(' '),
);

/** Instances a copy keeps whole (`structuredClone` keeps these; a class instance loses its methods). */
const CLONED = new Set(['Date', 'Map', 'Set', 'Array', 'Object']);

/** What the wrapper does besides sending the request and computing on its result, as the message says it; else null. */
function sideEffect(fn: Node, request: { start: number; end: number }, topLevel: Set<string>): string | null {
  const inRequest = (n: Node) =>
    (n.startIndex <= request.start && n.endIndex >= request.end) ||
    (n.startIndex >= request.start && n.endIndex <= request.end);
  const line = (n: Node) => `line ${n.startPosition.row + 1}`;
  const stack: Node[] = [...fn.namedChildren.filter((c): c is Node => !!c)];
  while (stack.length) {
    const n = stack.pop()!;
    // A failed request turned into a value (`try`/`except` around it, `.catch(() => [])` on it):
    // the cache would keep that fallback for the TTL, where each call tried again before.
    const holds = n.startIndex <= request.start && n.endIndex >= request.end;
    if (
      holds &&
      (n.type === 'try_statement' || ((n.type === 'call_expression' || n.type === 'call') && calleeName(n) === 'catch'))
    )
      return `catches the request's errors (${line(n)}): a cached call would keep what it returns instead for the TTL`;
    if (!inRequest(n)) {
      if (n.type === 'await_expression' || n.type === 'await')
        return `also awaits ${short(n.text.replace(/^await\s+/, ''))} (${line(n)}), which a cached call would skip`;
      if (n.type === 'yield_expression' || n.type === 'yield') return `is a generator (${line(n)})`;
      if (n.type === 'global_statement' || n.type === 'nonlocal_statement')
        return `changes ${n.text} (${line(n)}), which a cached call would not`;
      if (n.type === 'new_expression') {
        const made = n.childForFieldName('constructor')?.text ?? '';
        if (!/Command$/.test(made) && !CLONED.has(made))
          return `returns what it builds with new ${made} (${line(n)}), whose methods a cached copy would not have`;
      }
      if (n.type === 'call_expression' || n.type === 'call') {
        const name = calleeName(n);
        if (!name || !COMPUTES.has(name))
          return `also calls ${short(n.childForFieldName('function')?.text ?? n.text)} (${line(n)}), which a cached call would skip`;
      }
      if (/assignment/.test(n.type)) {
        const left = n.childForFieldName('left');
        const root = left ? rootName(left) : null;
        if (left && left.type !== 'identifier' && root && (root === 'this' || root === 'self' || topLevel.has(root)))
          return `changes ${short(left.text)} (${line(n)}), which a cached call would not`;
      }
    }
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
  return null;
}

/** `this` of `this.cache.x`, `settings` of `settings["flags"]`. */
function rootName(n: Node): string | null {
  let at: Node | null = n;
  while (at && at.type !== 'identifier' && at.type !== 'this')
    at = at.childForFieldName('object') ?? at.childForFieldName('value') ?? null;
  return at?.text ?? null;
}
