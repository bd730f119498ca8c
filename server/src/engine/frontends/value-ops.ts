import type { Node } from 'web-tree-sitter';
import { chooseAmong, joinPaths } from './alternatives';
import {
  holeValue,
  namedValue,
  numberOf,
  onceUnless,
  parameterProperty,
  scalar,
  shardCountOfExpression,
  shardValue,
  shifted,
  soleHole,
  unknownValue,
} from './evaluation';
import type { EvalContext } from '../model/eval-context';
import { concat, hole, literal, shardRange } from '../model/template';
import { entry, type Value } from '../model/value';
import { spanOf } from '../syntax/span';

/**
 * The value operations that mean the same in every language: arithmetic on constants and
 * shard parts, joining templates, reading a member of a known object, enum members. The
 * front-ends (js/evaluate.ts, python/evaluate.ts) read their own syntax, handle what only
 * their language has (JS `??`, Python `%` formatting and `Key(...) & Key(...)`), and hand
 * the rest here, so `1 + Math.floor(Math.random() * 10)` and `1 + random.randrange(10)`
 * cannot come out differently again.
 */

/** The operators both languages share, by meaning: `/` is JS's division, `//` Python's floor division. */
export type Operator = '+' | '-' | '*' | '/' | '//' | '%';

const ARITHMETIC: Partial<Record<Operator, (a: number, b: number) => number>> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '//': (a, b) => Math.floor(a / b),
  '%': (a, b) => ((a % b) + b) % b,
};

export interface Operands {
  left: Value | null;
  right: Value | null;
  /** The right operand as written: a shard count is named by it (`% SHARDS`). */
  rightNode: Node | null;
  /** The right side moves a time without cutting it (a number of seconds, Python's `timedelta(...)`). */
  shiftsTime?: boolean;
  /**
   * One side is written as a string (`"1" + shard`, `'7' + '3'`): `+` joins text in both
   * languages however numeric the text looks, so it is never arithmetic.
   */
  joinsText?: boolean;
}

/**
 * `left op right` at `n`, or null when the operation means nothing here (the front-end
 * then decides: most often an unknown value).
 */
export function operate(n: Node, op: string, operands: Operands): Value | null {
  const { left, right, rightNode, shiftsTime, joinsText } = operands;
  if (joinsText && op === '+') return joined(n, left, right);
  const [ln, rn] = [numberOf(left), numberOf(right)];
  const arithmetic = ARITHMETIC[op as Operator];
  // Two constants: the number (`SHARDS - 1`, `10 % 4`); dividing by zero is left alone.
  if (ln !== null && rn !== null && arithmetic && !(rn === 0 && (op === '//' || op === '%')))
    return scalar(n, literal(String(arithmetic(ln, rn))));
  // `crc32(id) % SHARDS`: a calculated shard 0..N-1.
  if (op === '%') {
    const count = shardCountOfExpression(rightNode, right);
    return shardValue(n, { method: 'hash', values: rn === null ? null : shardRange(0, rn), count });
  }
  const [lh, rh] = [left ? soleHole(left) : null, right ? soleHole(right) : null];
  // A shard moved by a constant, on either side: `random * N + 1` and `1 + random * N` are 1..N.
  if ((op === '+' || op === '-') && lh?.kind === 'shard' && rn !== null)
    return shardValue(n, shifted(lh.shards, op === '+' ? rn : -rn));
  if (op === '+' && rh?.kind === 'shard' && ln !== null) return shardValue(n, shifted(rh.shards, ln));
  // A clock divided into slots is a time bucket (floored by the caller in JS); scaled or shifted it is still a time.
  if (lh?.kind === 'time' && (op === '/' || op === '//')) return holeValue(n, { kind: 'time', time: 'bucket' });
  if (lh?.kind === 'time' && (op === '*' || ((op === '+' || op === '-') && (shiftsTime ?? rn !== null))))
    return holeValue(n, { ...lh });
  if (op === '*' && (lh?.kind === 'random' || rh?.kind === 'random')) return holeValue(n, { kind: 'random' });
  return op === '+' ? joined(n, left, right) : null;
}

/** `left + right` as text: both templates one after the other. */
function joined(n: Node, left: Value | null, right: Value | null): Value | null {
  if (left?.kind !== 'scalar' || right?.kind !== 'scalar') return null;
  return joinPaths(scalar(n, concat(left.template, right.template)), left, right);
}

/**
 * `Status.OPEN`, `Config.APP`: a capitalised name's upper-case member that nothing here
 * defines is one fixed value whose text is not known (an enum or a setting of a package, a
 * deploy-time parameter): a `constant` hole, so its key is constant without claiming that
 * the stored text is "Status.OPEN".
 */
export function enumMember(n: Node, owner: string, member: string): Value | null {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(owner) || !/^[A-Z][A-Z0-9_]*$/.test(member)) return null;
  return scalar(n, hole({ kind: 'constant', source: n.text }));
}

/**
 * A page of a list, in either language (`parts.slice(1)`, `keys[start:start + 100]`): the items
 * cut where each written bound is a number; all of them where one is not, as a page of keys
 * (BatchGetItem takes 100 a call) holds elements of the same shape. `bounds` are the bounds
 * as written (null: left out) and their values as numbers (null: not a number).
 */
export function pageOfList(n: Node, items: Value[], bounds: Array<{ written: boolean; value: number | null }>): Value {
  const known = bounds.every((b) => !b.written || b.value !== null);
  const [from, to] = bounds.map((b) => b.value);
  return { kind: 'array', items: known ? items.slice(from ?? 0, to ?? undefined) : items, span: spanOf(n) };
}

/** A known object's member (`KEYS.pk`, `KEYS["pk"]`, `cfg["table"]`): the last one of that name. */
export function memberOf(base: Value | null | undefined, name: string | null): Value | undefined {
  return name === null ? undefined : entry(base ?? undefined, name);
}

/**
 * A known object without `name` (`{}`, `{ player }`): a default given for the property is what
 * it holds. Not one with a spread whose entries are not known, nor one that echoes names.
 */
export function leavesOut(base: Value | null | undefined, name: string): boolean {
  return base?.kind === 'object' && !base.hidden && !base.echoes && entry(base, name) === undefined;
}

/**
 * A property read with a default, in either language (`const { board = "global" } = body`,
 * `params.get("board", "global")`): the property where the object has it, the default where the
 * object is known to lack it, else the property or the default, as `body.board ?? "global"` reads.
 */
export function propertyOrDefault(n: Node, base: Value | null | undefined, key: string, fallback: Value): Value {
  const found = entry(base ?? undefined, key);
  if (found) return found;
  if (leavesOut(base, key)) return fallback;
  const given = parameterProperty(n, base ?? null, key) ?? namedValue(n, key);
  return chooseAmong([given, fallback], n, 0).value;
}

/** What `assignedValue` needs of a language. */
export interface Assigning {
  evaluate: (n: Node | null, ctx: EvalContext) => Value | null;
  /** The container writes between an assignment and a use, folded into the value (`item["pk"] = ...`). */
  withMutations: (value: Value, name: string, assigned: Node, use: Node, ctx: EvalContext) => Value;
  /** Whether a node runs each time a function is called (else once, when its module or class is loaded). */
  inFunction: (n: Node) => boolean;
}

/**
 * What a declaration or assignment (`value`) gives the name used at `use`, in either
 * language: made once when it is assigned outside any function and used inside one (a
 * module-level random shard is drawn once), with the container writes between the two
 * folded in.
 */
export function assignedValue(use: Node, value: Node, ctx: EvalContext, language: Assigning): Value {
  const v = language.evaluate(value, ctx) ?? unknownValue(use);
  const once = onceUnless(language.inFunction(value) || !language.inFunction(use), v);
  return language.withMutations(once, use.text, value, use, ctx);
}
