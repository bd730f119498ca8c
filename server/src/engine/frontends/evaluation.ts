import type { Node } from 'web-tree-sitter';
import type { Deps, EvalContext, Evaluator, Lookups } from '../model/eval-context';
import type { Declaration, Hole, KeyTemplate, Origin, ShardCount, ShardSet } from '../model';
import { ENV_NAME_SLOT } from '../model/key-template';
import { moveSpans } from '../syntax/positions';
import { classifyName } from './names';
import { fewLiterals } from './membership-guards';
import { spanOf } from '../syntax/span';
import { hole, literalText, render, shardSetOf, through } from '../model/template';
import type { Entry, Value } from '../model/value';

/** The small constructors and limits every language evaluator shares (the context's types are in `model/eval-context.ts`). */

/**
 * How deep evaluation follows nested expressions and declarations. Each call site
 * also has a budget of steps, which bounds the work whatever the depth, so a deep
 * limit costs nothing on ordinary code (measured: the bench workspace at 24 and 64
 * levels within noise).
 */
export const MAX_DEPTH = 64;

export function newContext(evaluate: Evaluator, lookups: Lookups = {}, deps: Deps | null = null): EvalContext {
  return { depth: 0, budget: { steps: 2000 }, lookups, deps, evaluate };
}

/** The value of an expression evaluation stopped at: unknown, saying which limit stopped it. */
export function limitValue(n: Node, ctx: EvalContext): Value {
  return holeValue(n, { kind: 'unknown', limit: ctx.budget.steps <= 0 ? 'budget' : 'depth' });
}

export function deeper(ctx: EvalContext): EvalContext | null {
  if (ctx.depth >= MAX_DEPTH || --ctx.budget.steps <= 0) return null;
  return { depth: ctx.depth + 1, budget: ctx.budget, lookups: ctx.lookups, deps: ctx.deps, evaluate: ctx.evaluate };
}

/**
 * The context to read a function's body in for one call to it: its parameters stay
 * marked (as when summarising it), so the call puts in its own arguments rather than
 * the values the file's other calls pass (`attr("pk")` and `attr("sk")` differ).
 */
export function forOneCall(ctx: EvalContext): EvalContext {
  return ctx.lookups.summary ? ctx : { ...ctx, lookups: { ...ctx.lookups, summary: true } };
}

/**
 * A value a declaration gives once per process (its declaration runs at module level
 * or in a class body, while the use is in a function that runs per request): its
 * random parts and random shard parts are marked `once`. `perCall`: the declaration
 * runs as often as the use (it is in a function, or the use is not: a script).
 */
export function onceUnless(perCall: boolean, v: Value): Value {
  return perCall ? v : markedOnce(v);
}

function markedOnce(v: Value): Value {
  if (v.kind === 'object') return { ...v, entries: v.entries.map(([k, x, pair]) => [k, markedOnce(x), pair] as Entry) };
  if (v.kind === 'array') return { ...v, items: v.items.map(markedOnce) };
  if (v.kind !== 'scalar' || !v.template.parts.some((p) => 'hole' in p && isRandomHole(p.hole))) return v;
  const parts = v.template.parts.map((p) =>
    'hole' in p && isRandomHole(p.hole) ? { ...p, hole: { ...p.hole, once: true as const } } : p,
  );
  return { ...v, template: { parts } };
}

function isRandomHole(h: Hole): boolean {
  return h.kind === 'random' || (h.kind === 'shard' && h.shards?.method === 'random');
}

/** The key template of a value; objects and arrays inside a key are unknown parts. */
export function templateOf(v: Value | null, n: Node): KeyTemplate {
  const s = v?.kind === 'scalar' ? v : unknownValue(n);
  return s.kind === 'scalar' ? s.template : { parts: [] };
}

/** `a ? 'x' : 'y'`, `a or b`: a value from a small literal set is low-cardinality. */
export function choiceValue(n: Node, options: Array<Node | null>, ctx: EvalContext): Value {
  const values = options.map((o) => ctx.evaluate(o, ctx));
  if (values.every((v) => v?.kind === 'scalar' && soleHole(v) === null))
    return holeValue(n, { kind: 'low-cardinality' });
  return values.find((v) => v && soleHole(v)?.kind !== 'unknown') ?? values[0] ?? unknownValue(n);
}

/**
 * An imported value, placed at the name that imports it. Its own positions are in
 * another file; the origins and declarations inside it say which, so they stay.
 */
export function importedValue(n: Node, source: string, name: string, ctx: EvalContext): Value | null {
  const v = ctx.lookups.imports?.(source, name);
  if (!v) return null;
  const at = spanOf(n);
  return moveSpans(v, () => at, '');
}

/**
 * Origins and declarations made while evaluating a file name no file (`''`): the
 * evaluators do not know it. The call site's reader fills it in, and a module's
 * constants are filled with the module's file before another file imports them.
 */
export function placeOrigins<T>(x: T, file: string): T {
  fillFile(x, file, 0);
  return x;
}

/**
 * Names `file` in every object that names none, in place: those objects were made by
 * this evaluation and nothing else holds them yet, so filling them costs no copy of
 * the accesses (a copy doubled what a large check allocates). Objects that name
 * another file (an imported module's) are left whole.
 */
function fillFile(x: unknown, file: string, depth: number): void {
  if (typeof x !== 'object' || x === null || depth > 200) return;
  if (Array.isArray(x)) {
    for (const y of x) fillFile(y, file, depth + 1);
    return;
  }
  const record = x as Record<string, unknown>;
  if (typeof record.file === 'string') {
    if (record.file !== '' && record.file !== file) return;
    record.file = file;
  }
  if (typeof record.startLine === 'number') return;
  for (const k in record) if (k !== 'file') fillFile(record[k], file, depth + 1);
}

/** Where `n` is, as the origin of a part written there. */
export function originAt(n: Node): Origin {
  return { file: '', span: spanOf(n), via: [] };
}

/** Gives every part that does not say where it came from the origin `n`. */
function stamped(t: KeyTemplate, n: Node): KeyTemplate {
  if (t.parts.every((p) => p.origin)) return t;
  let o: Origin | undefined;
  return { parts: t.parts.map((p) => (p.origin ? p : { ...p, origin: (o ??= originAt(n)) })) };
}

export function scalar(n: Node, template: KeyTemplate): Value {
  return { kind: 'scalar', template: stamped(template, n), span: spanOf(n) };
}

/** The declaration `name = value` binds (the declarator is the value's parent). */
export function declarationOf(name: string, value: Node): Declaration {
  const declarator = value.parent ?? value;
  return { name, file: '', span: spanOf(declarator), valueSpan: spanOf(value) };
}

/**
 * A value reached through a name: used where the name is written, and noting the
 * declaration it passed through (objects keep their own positions: their entries
 * are where the keys are written).
 */
export function reachedThrough(v: Value, use: Node, d: Declaration): Value {
  if (v.kind !== 'scalar') return v;
  return { kind: 'scalar', template: through(v.template, d), span: spanOf(use), via: [d, ...(v.via ?? [])] };
}

/** How many shards a count expression says, and the constant it names. */
export function shardCountOfExpression(n: Node | null, v: Value | null | undefined): ShardCount | undefined {
  if (!n) return undefined;
  const d = v?.kind === 'scalar' ? v.via?.[0] : undefined;
  return {
    expression: n.text.slice(0, 200),
    name: d?.name ?? null,
    declaration: d ? { file: d.file, span: d.span } : null,
    value: numberOf(v),
  };
}

export function holeValue(n: Node, h: Omit<Hole, 'source'>): Value {
  return scalar(n, hole({ ...h, source: n.text.slice(0, 200) }));
}

export function unknownValue(n: Node): Value {
  return holeValue(n, { kind: 'unknown' });
}

/**
 * An environment read whose variable is named by a constant (`os.environ[TABLE_VAR]`,
 * `process.env[TABLE_VAR]` with `TABLE_VAR = "ORDERS_TABLE"`): the unknown value the read
 * written with the name has (`written("ORDERS_TABLE")`), so a table or key named by it names
 * the variable. Any other name (a parameter, a computed one) leaves the read unknown.
 */
export function envReadNamedBy(n: Node, name: Value | null, written: (variable: string) => string): Value {
  const variable = variableNamedBy(name);
  if (variable) return scalar(n, hole({ kind: 'unknown', source: written(variable) }));
  // `process.env[name]` in `requireEnv(name)`: each caller's text names the variable.
  const param = name && soleHole(name)?.param;
  if (param)
    return scalar(n, hole({ kind: 'unknown', source: n.text, envRead: { param, written: written(ENV_NAME_SLOT) } }));
  return unknownValue(n);
}

/**
 * The environment variable a value names: text that is a variable's name on every path
 * (`"ORDERS_TABLE"`, a constant holding it); null for a computed name or one chosen on some
 * paths only (`query.region ?? 'eu'`).
 */
export function variableNamedBy(name: Value | null | undefined): string | null {
  const variable = name?.kind === 'scalar' && !name.someOfPaths ? literalText(name.template) : null;
  return variable && /^[A-Za-z_]\w*$/.test(variable) ? variable : null;
}

/**
 * Among the values a function's returns give, the one an environment-lookup helper is read
 * as: `def get_env(key, default=None)` returns `os.getenv(key)` when it is set and a secret,
 * a default or nothing otherwise, all fallbacks for the same setting. The index of the one
 * return that reads a variable its parameter names, when no other return has text of its
 * own; else -1 (the usual choice among alternatives applies).
 */
export function envLookupReturn(values: readonly Value[]): number {
  const reads = values.flatMap((v, i) => (soleHole(v)?.envRead ? [i] : []));
  if (reads.length !== 1) return -1;
  const fallback = (v: Value) => {
    if (v.kind !== 'scalar') return false;
    const text = literalText(v.template);
    return text === null ? v.template.parts.every((p) => 'hole' in p) : NOTHING.has(text);
  };
  return values.every((v, i) => i === reads[0] || fallback(v)) ? reads[0] : -1;
}

/** The texts a return of nothing evaluates to. */
const NOTHING = new Set(['None', 'null', 'undefined']);

/** A value known only by its name (`userId`, `status`, `shard_id`). */
export function namedValue(n: Node, name: string): Value {
  const c = classifyName(name);
  if (!c) return unknownValue(n);
  if (c.kind === 'time' && REQUEST_FIELD.test(n.text)) return holeValue(n, { ...c, input: true });
  return holeValue(n, c.kind === 'shard' ? { kind: 'shard', shards: { method: 'random', values: null } } : c);
}

/** What names a request or an event a handler receives. */
const REQUEST = String.raw`(?:event|evt|req|request|body|params|query|payload|input|args|ctx|context)`;
/** A field read off a request (`event.body.date`, `req.params.day`, `event["queryStringParameters"]["day"]`). */
const REQUEST_FIELD = new RegExp(String.raw`^${REQUEST}\s*(?:\?\.|\.|\[)`);
const REQUEST_NAME = new RegExp(String.raw`^${REQUEST}$`);

/**
 * A function parameter that nothing in the analysis gave a value: judged by its name
 * like any named value, and marked so a wrapper's summary can put each caller's
 * argument in its place (and coverage can say why the key is not known).
 */
export function parameterValue(n: Node, name: string, index: number, path?: string[], fewTyped = false): Value {
  // Declared with a few-valued type (a union of literals, an enum): few-valued, whatever its name.
  // Else judged by the last name read: `product.id` is an id, whatever the parameter is called.
  const c = fewTyped
    ? ({ kind: 'low-cardinality' } as const)
    : classifyName(path?.length ? path[path.length - 1] : name);
  const h: Omit<Hole, 'source'> = !c
    ? { kind: 'unknown' }
    : c.kind === 'shard'
      ? { kind: 'shard', shards: { method: 'random', values: null } }
      : c.kind === 'time' && path?.length && REQUEST_NAME.test(name)
        ? { ...c, input: true }
        : c;
  return holeValue(n, { ...h, param: path?.length ? { name, index, path } : { name, index } });
}

/** `product.id` where `product` is a marked parameter: the parameter, one property further in. */
export function parameterProperty(n: Node, base: Value | null, property: string): Value | null {
  const h = base ? soleHole(base) : null;
  if (!h?.param) return null;
  return parameterValue(n, h.param.name, h.param.index, [...(h.param.path ?? []), property]);
}

/**
 * `JSON.parse(event.body)`, `json.loads(event["body"])`: the text a handler received, parsed,
 * holds the fields its caller sent. When the parsed text is a parameter's property (the request
 * a handler or a helper receives), the parse is that property, so `body.date` reads as a field
 * the caller sent, as `event.body.date` does. Anything else parsed (a file, an S3 object) stays
 * what the call says. `parsed` is the parse's argument without its fallback (`|| "{}"`).
 */
export function parsedRequest(parsed: Node | null, ctx: EvalContext): Value | null {
  const v = parsed ? ctx.evaluate(parsed, ctx) : null;
  return v && soleHole(v)?.param ? v : null;
}

export function shardValue(n: Node, shards: ShardSet): Value {
  return holeValue(n, { kind: 'shard', shards });
}

/** The single hole a value is made of, if it is exactly one hole. */
export function soleHole(v: Value): Hole | null {
  if (v.kind !== 'scalar' || v.template.parts.length !== 1) return null;
  const p = v.template.parts[0];
  return 'hole' in p ? p.hole : null;
}

export function numberOf(v: Value | null | undefined): number | null {
  if (v?.kind !== 'scalar') return null;
  const t = literalText(v.template);
  if (t === null || !/^-?\d+(\.\d+)?$/.test(t.trim())) return null;
  return Number(t);
}

/** The shard set moved by a constant (`random * N + 1` is 1..N); it keeps its count. */
export function shifted(s: ShardSet | undefined, by: number): ShardSet {
  const moved: ShardSet = { method: s?.method ?? 'random', values: s?.values ? s.values.map((x) => x + by) : null };
  return s?.count ? { ...moved, count: s.count } : moved;
}

/** Values a reader loops over: numbers make a shard loop, strings a small literal set. */
export function loopElementValue(n: Node, items: Value[], generated: boolean): Value {
  // `(item.replies || [])[i]`, `for x in (ids or [])`: the empty side of a fallback is no
  // shard set; what the loop walks is the other side, which is not known here.
  if (items.length === 0) return unknownValue(n);
  const nums = items.map(numberOf);
  if (nums.every((x): x is number => x !== null)) {
    return shardValue(n, { method: generated ? 'loop' : 'list', values: nums });
  }
  const sharded = shardedAmong(items);
  if (sharded) return sharded;
  if (fewLiterals(items)) return holeValue(n, { kind: 'low-cardinality' });
  return unknownValue(n);
}

/**
 * The one sharded key a list holds, read item by item: every item that key
 * (`Array.from({ length: 10 }, (_, s) => \`VIEWS#\${s}\`)`, `[f"VIEWS#{s}" for s in range(10)]`),
 * but for literals that are its base — the item written before the key was sharded, which a
 * counter's reader reads too (`["VIEWS", ...shards]`). Null for any other list.
 */
function shardedAmong(items: readonly Value[]): Value | null {
  const sharded = items.filter((v) => v.kind === 'scalar' && shardSetOf(v.template));
  if (!sharded.length) return null;
  const [first] = sharded as Array<Extract<Value, { kind: 'scalar' }>>;
  const shape = render(first.template);
  if (!sharded.every((v) => v.kind === 'scalar' && render(v.template) === shape)) return null;
  const head = first.template.parts[0];
  const prefix = head && 'literal' in head ? head.literal : '';
  const base = prefix.replace(/[^A-Za-z0-9]+$/, '');
  const isBase = (v: Value) => {
    const t = v.kind === 'scalar' ? literalText(v.template) : null;
    return !!base && (t === base || t === prefix);
  };
  return items.every((v) => sharded.includes(v) || isBase(v)) ? first : null;
}

export function newDeps(): Deps {
  return { ranges: [], names: new Set(), bindings: new Map(), callers: new Set() };
}

/** Notes that the value read a parameter of `name` from the calls to it (see `Deps.callers`). */
export function recordCallers(ctx: EvalContext, name: string | null | undefined): void {
  if (name) ctx.deps?.callers.add(name);
}

/** Notes a node the evaluation consulted (a no-op when nothing records). */
export function recordNode(ctx: EvalContext, n: Node, name?: string): void {
  recordRange(ctx.deps, n.startIndex, n.endIndex, name);
}

/**
 * Notes that the evaluation resolved `id` to the binding at `at` (or to nothing):
 * an edit to that binding, or one that re-binds the name, must re-evaluate it.
 */
export function recordResolution(ctx: EvalContext, id: Node, at: Node | null): void {
  if (at) recordNode(ctx, at);
  recordNode(ctx, id, id.text);
  const seen = ctx.deps?.bindings;
  if (!seen) return;
  const list = seen.get(id.text);
  if (list) list.push(at ? at.startIndex : -1);
  else seen.set(id.text, [at ? at.startIndex : -1]);
}

/** Notes a text range (and name) an evaluation depends on. */
export function recordRange(deps: Deps | null, start: number, end: number, name?: string): void {
  if (!deps) return;
  deps.ranges.push(start, end);
  if (name) deps.names.add(name);
}

/**
 * A module constant as other files import it: reached through its declaration in
 * `file`, with every origin inside naming that file.
 */
export function exportedValue(v: Value | null, name: string, value: Node, file: string): Value | null {
  if (!v) return null;
  const d = declarationOf(name, value);
  const through = v.kind === 'scalar' ? reachedThrough(v, value, d) : v;
  return placeOrigins(through, file);
}
