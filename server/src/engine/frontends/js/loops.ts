/**
 * Values that vary over a loop in a JavaScript/TypeScript file: loop variables, the
 * elements of literal and generated arrays, callback parameters, and the arguments a
 * file passes to its own functions.
 */
import type { Node } from 'web-tree-sitter';
import {
  deeper,
  loopElementValue,
  numberOf,
  parameterValue,
  recordCallers,
  scalar,
  shardCountOfExpression,
  shardValue,
  soleHole,
  unknownValue,
} from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { SHARD_PAGE_READER } from '../../model/fix-helpers';
import { literal, shardRange } from '../../model/template';
import { entry, type Value } from '../../model/value';
import { spanOf } from '../../syntax/span';
import { leavesOut } from '../value-ops';
import { argumentSaysSomething } from '../alternatives';
import { callersOf } from './callers';
import { isFunction, parameterDefaults, parametersOf, resolve } from './scope';
import { soleReturned } from './functions';
import { guardedToFewValues } from '../membership-guards';
import { JS_MEMBERSHIP } from './membership-guards';
import { fewValuedParameter } from './param-types';

/** `for (const s of SHARDS)`, `for (let i = 0; i < N; i++)`. */
export function loopValue(n: Node, loop: Node, ctx: EvalContext): Value | null {
  if (loop.type === 'for_in_statement') {
    if (loop.childForFieldName('operator')?.text !== 'of') return null;
    const items = arrayItems(loop.childForFieldName('right'), ctx);
    return items ? loopElementValue(n, items.items, items.generated) : null;
  }
  const init = loop
    .childForFieldName('initializer')
    ?.descendantsOfType('variable_declarator')[0]
    ?.childForFieldName('value');
  const cond = loop.childForFieldName('condition');
  const cmp = cond?.type === 'binary_expression' ? cond : cond?.namedChild(0);
  const start = numberOf(ctx.evaluate(init ?? null, ctx));
  const op = cmp?.childForFieldName('operator')?.text;
  const boundNode = cmp?.childForFieldName('right') ?? null;
  const boundValue = ctx.evaluate(boundNode, ctx);
  const bound = numberOf(boundValue);
  const count = shardCountOfExpression(boundNode, boundValue);
  if (start === null || bound === null || (op !== '<' && op !== '<='))
    return shardValue(n, { method: 'loop', values: null, count });
  const values = shardRange(start, bound - start + (op === '<=' ? 1 : 0));
  return shardValue(n, { method: 'loop', values, count });
}

/**
 * The elements of an array expression: literals, `Array.from({length: N}, (_, i) => i + k)`,
 * `[...Array(N).keys()]`, or a constant holding one of those.
 */
function arrayItems(n: Node | null, outer: EvalContext): { items: Value[]; generated: boolean } | null {
  // Within the evaluation's budget: a list spread into itself (`a = [...a, ...b]`) ends.
  const ctx = n ? deeper(outer) : null;
  if (!n || !ctx) return null;
  const target = n.type === 'identifier' ? resolve(n, ctx) : null;
  if (target?.kind === 'value') return arrayItems(target.node, ctx);
  const count = generatedLength(n, ctx);
  if (count !== null) {
    const range = shardRange(count.start, count.length);
    return range ? { items: range.map((x) => scalar(n, literal(String(x)))), generated: true } : null;
  }
  const mapped = mappedLength(n, ctx);
  if (mapped) return mapped;
  if (n.type === 'array' && n.namedChildren.some((c) => c?.type === 'spread_element')) return spreadItems(n, ctx);
  const v = n.type === 'array' ? ctx.evaluate(n, ctx) : null;
  return v?.kind === 'array' ? { items: v.items, generated: false } : null;
}

/** `["VIEWS", ...shards]`: the items written and those of each array spread in, when each is known. */
function spreadItems(n: Node, ctx: EvalContext): { items: Value[]; generated: boolean } | null {
  const items: Value[] = [];
  let generated = false;
  for (const c of n.namedChildren) {
    if (!c || c.type === 'comment') continue;
    if (c.type !== 'spread_element') {
      items.push(ctx.evaluate(c, ctx) ?? unknownValue(c));
      continue;
    }
    const inner = arrayItems(c.namedChild(0), ctx);
    if (!inner) return null;
    items.push(...inner.items);
    generated ||= inner.generated;
  }
  return { items, generated };
}

/**
 * `Array.from({ length: N }, (_, shard) => \`VIEWS#\${shard}\`)`: N items, each what the
 * mapper returns with its index a shard 0..N-1 (the items a shard fix's reader reads).
 */
function mappedLength(n: Node, ctx: EvalContext): { items: Value[]; generated: boolean } | null {
  if (n.type !== 'call_expression' || n.childForFieldName('function')?.text !== 'Array.from') return null;
  const args = n.childForFieldName('arguments');
  const len = lengthOf(args?.namedChild(0) ?? null, ctx);
  const mapper = args?.namedChild(1) ?? null;
  if (len === null || len < 1 || len > MAX_MAPPED || !mapper || !isFunction(mapper)) return null;
  const returned = soleReturned(mapper);
  const item = returned && ctx.evaluate(returned, ctx);
  return item ? { items: Array.from({ length: len }, () => item), generated: true } : null;
}

/** More items than a shard count is not a shard set a reader loops over. */
const MAX_MAPPED = 1000;

function generatedLength(n: Node, ctx: EvalContext): { start: number; length: number } | null {
  const text = n.text.replace(/\s+/g, '');
  // [...Array(N).keys()] / Array.from(Array(N).keys())
  const keys = text.match(/^(?:\[\.\.\.|Array\.from\()(?:new)?Array\((.+)\)\.keys\(\)(?:\]|\))$/);
  if (keys) {
    const inner = n
      .descendantsOfType('call_expression')
      .find((c) => c?.childForFieldName('function')?.text === 'Array');
    const len = numberOf(ctx.evaluate(inner?.childForFieldName('arguments')?.namedChild(0) ?? null, ctx));
    return len === null ? null : { start: 0, length: len };
  }
  if (n.type === 'call_expression' && n.childForFieldName('function')?.text === 'Array.from') {
    const args = n.childForFieldName('arguments');
    const len = lengthOf(args?.namedChild(0) ?? null, ctx);
    const mapper = args?.namedChild(1);
    if (len === null) return null;
    const offset = mapper ? mapperOffset(mapper) : null;
    return offset === null ? null : { start: offset, length: len };
  }
  return null;
}

function lengthOf(n: Node | null, ctx: EvalContext): number | null {
  if (n?.type !== 'object') return null;
  const pair = n.namedChildren.find((c) => c?.type === 'pair' && c.childForFieldName('key')?.text === 'length');
  if (pair) return numberOf(ctx.evaluate(pair.childForFieldName('value'), ctx));
  const short = n.namedChildren.find((c) => c?.type === 'shorthand_property_identifier' && c.text === 'length');
  return short ? numberOf(ctx.evaluate(short, ctx)) : null;
}

/** `(_, i) => i` gives 0, `(_, i) => i + 1` gives 1. */
function mapperOffset(fn: Node): number | null {
  if (!isFunction(fn)) return null;
  const index = parametersOf(fn)[1]?.text.replace(/:.*/, '').trim();
  const body = fn.childForFieldName('body')?.text.replace(/\s+/g, '');
  if (!index || !body) return null;
  if (body === index) return 0;
  const m = body.match(new RegExp(`^\\(?${index}\\+(\\d+)\\)?$`));
  return m ? Number(m[1]) : null;
}

/**
 * A parameter nothing here gives a value, as a hole (named `name`) for its callers to fill:
 * few-valued when its type is (a union of literals, an enum: `param-types.ts`; a whole
 * parameter only, not a destructured `path` of it) or a check in the function lets only a
 * short list of literals through (`membership-guards.ts`).
 */
export function ownParameterValue(n: Node, fn: Node, index: number, ctx: EvalContext, name = n.text, path?: string[]) {
  const few = (!path && fewValuedParameter(fn, index, ctx)) || guardedToFewValues(n, fn, ctx, JS_MEMBERSHIP);
  return parameterValue(n, name, index, path, few);
}

/**
 * A parameter's value: a callback's element (`SHARDS.map((s) => ...)`,
 * `Array.from({length: N}, (_, i) => ...)`) or the arguments at the function's call
 * sites in this file.
 */
export function paramValue(
  n: Node,
  fn: Node,
  index: number,
  ctx: EvalContext,
  path?: string[],
  fallback?: Node,
): Value | null {
  if (!path) return callersValue(n, fn, index, ctx);
  // A destructured parameter (`{ id }`): its callers' objects give the property; where the
  // caller's object leaves it out (`list({})`, `list()`), its default (`{ status = "OPEN" }`).
  const given = callersValue(n, fn, index, ctx, !!fallback);
  const found = pathOf(given, path);
  if (found) return found;
  const own = () => ownParameterValue(n, fn, index, ctx, `#${index}`, path);
  if (!fallback || path.length !== 1 || !leavesOut(given, path[0])) return own();
  const v = ctx.evaluate(fallback, ctx);
  return v && soleHole(v)?.kind !== 'unknown' ? v : own();
}

/**
 * The default of parameter `name` when a call's arguments leave it out, or null. A
 * spread argument (`put(...args)`) may pass it. As in Python, a default is a value only
 * where a call leaves the argument out: with no such call it stays a parameter.
 */
function leftOutDefault(fn: Node, name: string, args: Node, ctx: EvalContext): Value | null {
  if (args.namedChildren.some((a) => a?.type === 'spread_element')) return null;
  const d = parameterDefaults(fn).find((x) => x.name === name);
  const v = d ? ctx.evaluate(d.node, ctx) : null;
  return v && soleHole(v)?.kind !== 'unknown' ? v : null;
}

function pathOf(v: Value | null, path: string[]): Value | null {
  for (const key of path) v = v?.kind === 'object' ? (entry(v, key) ?? null) : null;
  return v;
}

/** `leftOutAsEmpty`: a call leaving the argument out gives an empty object (its destructured properties default). */
function callersValue(n: Node, fn: Node, index: number, ctx: EvalContext, leftOutAsEmpty = false): Value | null {
  const args = fn.parent;
  const call = args?.type === 'arguments' ? args.parent : null;
  if (call?.type === 'call_expression') {
    const callee = call.childForFieldName('function');
    const argIndex = args!.namedChildren.findIndex((c) => c?.equals(fn));
    if (callee?.text === 'Array.from' && argIndex === 1 && index === 1) {
      const len = lengthOf(args!.namedChild(0), ctx) ?? arrayItems(args!.namedChild(0), ctx)?.items.length ?? null;
      return shardValue(n, { method: 'loop', values: len === null ? null : shardRange(0, len) });
    }
    // The ElectroDB shard fix's paged reader calls its callback with each shard, 0..N-1.
    if (callee?.text === SHARD_PAGE_READER && argIndex === 1 && index === 0) {
      const len = numberOf(ctx.evaluate(args!.namedChild(0), ctx));
      return shardValue(n, { method: 'loop', values: len === null ? null : shardRange(0, len) });
    }
    if (
      callee?.type === 'member_expression' &&
      index === 0 &&
      /^(map|forEach|flatMap|filter|reduce)$/.test(callee.childForFieldName('property')?.text ?? '')
    ) {
      const items = arrayItems(callee.childForFieldName('object'), ctx);
      return items ? loopElementValue(n, items.items, items.generated) : null;
    }
    if (
      callee?.type === 'member_expression' &&
      index === 1 &&
      callee.childForFieldName('property')?.text === 'forEach'
    ) {
      const items = arrayItems(callee.childForFieldName('object'), ctx);
      return items ? shardValue(n, { method: 'loop', values: shardRange(0, items.items.length) }) : null;
    }
    return null;
  }
  // A named function: look at how this file calls it (not when summarising it for callers elsewhere).
  const name =
    fn.childForFieldName('name')?.text ??
    (fn.parent?.type === 'variable_declarator' ? fn.parent.childForFieldName('name')?.text : undefined);
  const own = () => ownParameterValue(n, fn, index, ctx);
  if (!name || ctx.lookups.summary) return own();
  recordCallers(ctx, name);
  // Only the calls that really call it: not a namesake (`cache.get(...)` for a method `get`).
  for (const c of callersOf(fn)) {
    const f = c.childForFieldName('function');
    const cargs = c.childForFieldName('arguments');
    const calls =
      f?.text === name || (f?.type === 'member_expression' && f.childForFieldName('property')?.text === name);
    if (calls && cargs) {
      const arg = cargs.namedChild(index);
      if (!arg) {
        if (leftOutAsEmpty) return { kind: 'object', entries: [], span: spanOf(c) };
        // `put(item)` for `function put(item, pk = "GLOBAL")`: this call passes the default.
        const given = leftOutDefault(fn, n.text, cargs, ctx);
        if (given) return given;
        continue;
      }
      const v = ctx.evaluate(arg, ctx);
      if (argumentSaysSomething(v)) return v;
    }
    if (
      f?.type === 'member_expression' &&
      /^(map|forEach|flatMap)$/.test(f.childForFieldName('property')?.text ?? '') &&
      cargs?.namedChild(0)?.text === name &&
      index === 0
    ) {
      const items = arrayItems(f.childForFieldName('object'), ctx);
      if (items) return loopElementValue(n, items.items, items.generated);
    }
  }
  return own();
}
