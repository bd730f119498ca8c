import type { Node } from 'web-tree-sitter';
import type { Hole, KeyTemplate, ShardSet } from './model';
import { classifyName } from './names';
import { spanOf } from './span';
import { hole, literalText } from './template';
import type { Value } from './value';

/**
 * Shared by the language evaluators: the limits that keep evaluation finite on any
 * input, and the small constructors every evaluator uses.
 */
export interface EvalContext {
  depth: number;
  /** Steps left for this call site; resolution across the file spends them. */
  budget: { steps: number };
}

export const MAX_DEPTH = 24;

export function newContext(): EvalContext {
  return { depth: 0, budget: { steps: 2000 } };
}

export function deeper(ctx: EvalContext): EvalContext | null {
  if (ctx.depth >= MAX_DEPTH || --ctx.budget.steps <= 0) return null;
  return { depth: ctx.depth + 1, budget: ctx.budget };
}

export function scalar(n: Node, template: KeyTemplate): Value {
  return { kind: 'scalar', template, span: spanOf(n) };
}

export function holeValue(n: Node, h: Omit<Hole, 'source'>): Value {
  return scalar(n, hole({ ...h, source: n.text.slice(0, 200) }));
}

export function unknownValue(n: Node): Value {
  return holeValue(n, { kind: 'unknown' });
}

/** A value known only by its name (`userId`, `status`, `shard_id`). */
export function namedValue(n: Node, name: string): Value {
  const c = classifyName(name);
  if (!c) return unknownValue(n);
  return holeValue(n, c.kind === 'shard' ? { kind: 'shard', shards: { method: 'random', values: null } } : c);
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

export function shifted(s: ShardSet | undefined, by: number): ShardSet {
  return { method: s?.method ?? 'random', values: s?.values ? s.values.map((x) => x + by) : null };
}

/** Values a reader loops over: numbers make a shard loop, strings a small literal set. */
export function loopElementValue(n: Node, items: Value[], generated: boolean): Value {
  const nums = items.map(numberOf);
  if (nums.every((x): x is number => x !== null)) {
    return shardValue(n, { method: generated ? 'loop' : 'list', values: nums });
  }
  if (
    items.length > 0 &&
    items.length <= 32 &&
    items.every((i) => i.kind === 'scalar' && literalText(i.template) !== null)
  ) {
    return holeValue(n, { kind: 'low-cardinality' });
  }
  return unknownValue(n);
}
