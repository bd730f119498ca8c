import type { Node } from 'web-tree-sitter';
import type { Hole, KeyTemplate, ShardSet, Span } from './model';
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
  /** Values of names imported from other modules of the workspace (`export const SHARDS = 10`). */
  imports?: ImportLookup;
}

/** The value `name` has in module `source` as imported by the file being analysed. */
export type ImportLookup = (source: string, name: string) => Value | null;

export const MAX_DEPTH = 24;

export function newContext(imports?: ImportLookup): EvalContext {
  return { depth: 0, budget: { steps: 2000 }, imports };
}

export function deeper(ctx: EvalContext): EvalContext | null {
  if (ctx.depth >= MAX_DEPTH || --ctx.budget.steps <= 0) return null;
  return { depth: ctx.depth + 1, budget: ctx.budget, imports: ctx.imports };
}

/** An imported value, placed at the name that imports it (its own spans are in another file). */
export function importedValue(n: Node, source: string, name: string, ctx: EvalContext): Value | null {
  const v = ctx.imports?.(source, name);
  return v ? relocate(v, spanOf(n)) : null;
}

function relocate(v: Value, span: Span): Value {
  switch (v.kind) {
    case 'object':
      return { ...v, span, entries: v.entries.map(([k, x]) => [k, relocate(x, span)] as [string, Value]) };
    case 'array':
      return { ...v, span, items: v.items.map((x) => relocate(x, span)) };
    case 'condition':
      return { ...v, span, clauses: v.clauses.map((c) => ({ ...c, value: relocate(c.value, span) })) };
    default:
      return { ...v, span };
  }
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

/**
 * What evaluating one call site consulted: the source ranges of every node evaluated
 * or bound to, and the names resolved. An edit that touches none of these ranges
 * and mentions none of these names cannot change the call site's value.
 */
export interface Deps {
  ranges: number[];
  names: Set<string>;
}

let recording: Deps | null = null;

/** Notes a node the current evaluation consulted (a no-op when nothing records). */
export function recordNode(n: Node, name?: string): void {
  if (!recording) return;
  recording.ranges.push(n.startIndex, n.endIndex);
  if (name) recording.names.add(name);
}

/**
 * Notes that the current evaluation resolved `id` to the binding at `at` (or to
 * nothing): an edit to that binding, or one that re-binds the name, must re-evaluate it.
 */
export function recordResolution(id: Node, at: Node | null): void {
  if (at) recordNode(at);
  recordNode(id, id.text);
}

/** Notes a text range (and name) the current evaluation depends on. */
export function recordRange(start: number, end: number, name?: string): void {
  if (!recording) return;
  recording.ranges.push(start, end);
  if (name) recording.names.add(name);
}

/** Runs `fn`, returning its result and what it consulted. */
export function withRecording<T>(fn: () => T): [T, Deps] {
  const previous = recording;
  const deps: Deps = { ranges: [], names: new Set() };
  recording = deps;
  try {
    return [fn(), deps];
  } finally {
    recording = previous;
  }
}
