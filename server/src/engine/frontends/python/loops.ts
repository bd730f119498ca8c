/**
 * Values that vary over a loop in a Python file: loop targets (with `enumerate` and
 * `zip`), the elements of `range(...)`, lists and tuples, and the arguments a file
 * passes to its own functions (or maps them over).
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
} from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import type { ShardCount } from '../../model';
import { literal, shardRange } from '../../model/template';
import type { Value } from '../../model/value';
import type { Binding } from './bindings';
import { argumentAt, argumentSources, callerNameOf } from './argument-sources';
import { isMethod, resolve } from './scope';
import { guardedToFewValues } from '../membership-guards';
import { argumentSaysSomething } from '../alternatives';
import { PYTHON_MEMBERSHIP } from './membership-guards';
import { fewValuedPythonParameter } from './param-types';

/**
 * A parameter nothing here gives a value, as a hole for its callers to fill: few-valued when
 * its annotation is (`Literal[...]`, an enum: `param-types.ts`) or a check in the function
 * lets only a short list of literals through (`membership-guards.ts`).
 */
export function ownParameterValue(n: Node, b: Extract<Binding, { kind: 'param' }>, ctx: EvalContext): Value {
  const index = b.param.index < 0 ? -1 : b.param.index - (isMethod(b.fn) ? 1 : 0);
  const few = fewValuedPythonParameter(b.fn, b.param.name) || guardedToFewValues(n, b.fn, ctx, PYTHON_MEMBERSHIP);
  return parameterValue(n, b.param.name, index, undefined, few);
}

/**
 * A parameter's value: the first argument in this file that says something, or each
 * element of what the function is mapped over (`executor.map(query_shard, range(1, 11))`).
 */
export function paramValue(n: Node, b: Extract<Binding, { kind: 'param' }>, ctx: EvalContext): Value | null {
  const own = () => ownParameterValue(n, b, ctx);
  // Summarised for callers in other files: each of them puts its own argument here.
  if (ctx.lookups.summary && b.fn.type === 'function_definition') return own();
  recordCallers(ctx, callerNameOf(b.fn));
  for (const source of argumentSources(b.fn, b.param)) {
    if (source.element) {
      const v = elementValue(n, source.node, ctx);
      if (v) return v;
      continue;
    }
    const v = ctx.evaluate(source.node, ctx);
    if (argumentSaysSomething(v)) return v;
  }
  return b.fn.type === 'function_definition' ? own() : null;
}

/** A loop target: the element of its iterable, or a part of it for `for i, x in enumerate(xs)`. */
export function loopValue(n: Node, iter: Node, path: number[], ctx: EvalContext): Value | null {
  if (path.length === 0) return elementValue(n, iter, ctx);
  const callee = iter.type === 'call' ? iter.childForFieldName('function')?.text : null;
  const arg = (i: number) => argumentAt(iter, i, null);
  if (callee === 'enumerate' && path.length === 1) {
    if (path[0] === 1) return elementValue(n, arg(0), ctx);
    const items = iterableItems(arg(0), ctx);
    const start = numberOf(ctx.evaluate(argumentAt(iter, 1, 'start'), ctx)) ?? 0;
    return shardValue(n, { method: 'loop', values: items?.items ? shardRange(start, items.items.length) : null });
  }
  if (callee === 'zip' && path.length === 1) return elementValue(n, arg(path[0]), ctx);
  return null;
}

/** The value of one element of an iterable, as a reader's loop sees it. */
function elementValue(n: Node, iter: Node | null, ctx: EvalContext): Value | null {
  const items = iterableItems(iter, ctx);
  if (!items) return null;
  if (!items.items) return shardValue(n, { method: 'loop', values: null, count: items.count });
  const v = loopElementValue(n, items.items, items.generated);
  const h = soleHole(v);
  return h?.kind === 'shard' && items.count ? shardValue(n, { ...h.shards!, count: items.count }) : v;
}

interface Items {
  /** Null for a `range` whose bound is not known. */
  items: Value[] | null;
  /** The bound of a `range(N)`: the shard count a reader's loop names. */
  count?: ShardCount;
  generated: boolean;
}

/** The elements of `range(...)`, a list or tuple, or a name bound to one. */
export function iterableItems(n: Node | null, ctx: EvalContext): Items | null {
  const next = n ? deeper(ctx) : null;
  if (!n || !next) return null;
  if (n.type === 'parenthesized_expression') return iterableItems(n.namedChild(0), next);
  if (n.type === 'identifier') {
    const b = resolve(n, ctx);
    return b?.kind === 'value' ? iterableItems(b.node, next) : null;
  }
  if (n.type === 'call') {
    const callee = n.childForFieldName('function')?.text;
    if (callee === 'range') return rangeItems(n, next);
    if (/^(list|tuple|sorted|reversed|set|frozenset)$/.test(callee ?? ''))
      return iterableItems(argumentAt(n, 0, null), next);
    return null;
  }
  // `["VIEWS"] + [f"VIEWS#{s}" for s in range(10)]`: the items of both lists.
  if (n.type === 'binary_operator' && n.childForFieldName('operator')?.text === '+') {
    const [left, right] = ['left', 'right'].map((f) => iterableItems(n.childForFieldName(f), next));
    if (left?.items && right?.items)
      return { items: [...left.items, ...right.items], generated: left.generated || right.generated };
  }
  const v = ctx.evaluate(n, next);
  return v?.kind === 'array' ? { items: v.items, generated: false } : null;
}

/** `range(n)`, `range(a, b)`, `range(a, b, step)` as shard numbers. */
function rangeItems(n: Node, ctx: EvalContext): Items {
  const nums = [0, 1, 2].map((i) =>
    argumentAt(n, i, null) ? numberOf(ctx.evaluate(argumentAt(n, i, null), ctx)) : undefined,
  );
  const [a, b, step] = nums[1] === undefined ? [0, nums[0], 1] : [nums[0], nums[1], nums[2] ?? 1];
  const boundNode = argumentAt(n, nums[1] === undefined ? 0 : 1, null);
  const count =
    nums[1] === undefined || nums[0] === 0
      ? shardCountOfExpression(boundNode, ctx.evaluate(boundNode, ctx))
      : undefined;
  if (a === null || a === undefined || b === null || b === undefined || !step || step < 0)
    return { items: null, generated: true, count };
  const values = shardRange(0, Math.ceil((b - a) / step))?.map((i) => a + i * step) ?? null;
  return { items: values?.map((x) => scalar(n, literal(String(x)))) ?? null, generated: true, count };
}
