import type { Node } from 'web-tree-sitter';
import { valueShape } from '../file-roles/shape';
import { declarationOf, holeValue, namedValue, reachedThrough, soleHole } from './evaluation';
import type { Declaration } from '../model';
import { classifyName } from './names';
import { literalText } from '../model/template';
import { envVariableIn } from '../requests/env';
import { entryOf, type ConditionClause, type Entry, type Value } from '../model/value';

/**
 * One value for several that may reach the same use: the arms of `c ? a : b`,
 * `x ?? "ALL"`, `x or "ALL"`, and the assignments of an `if`/`else` or a
 * `try`/`except`. Shared by both front-ends, so both languages choose alike.
 *
 * - All alternatives literals (`"asc"` / `"desc"`): a small set of values, low-cardinality.
 * - One alternative a constant and another one varying (`USER#{id}` / `"PUBLIC"`): every
 *   request on the constant's path shares one partition, so the key is that constant,
 *   marked `someOfPaths`, and it stays where it is written (the finding lands on the
 *   branch that makes it hot, not on the use every path shares).
 * - Otherwise (every path an entity id, say) the preferred alternative: what a single
 *   path would have given (the last assignment, the first arm that says something).
 *
 * Objects and boto3 conditions are chosen field by field, so `{"pk": "ALL"}` in one
 * branch and `{"pk": f"U#{u}"}` in the other read as `{"pk": "ALL"}` on some paths.
 */
export interface Choice {
  value: Value;
  /** The alternative the value is (for a scalar), or -1 when it was made from several. */
  index: number;
}

/** Literal texts that stand for "no value yet" (`pk = None` before an `if`), not for a key. */
const PLACEHOLDERS = new Set(['', 'None', 'null', 'undefined']);

function textOf(v: Value): string | null {
  return v.kind === 'scalar' ? literalText(v.template) : null;
}

function isPlaceholder(v: Value): boolean {
  const t = textOf(v);
  return t !== null && PLACEHOLDERS.has(t);
}

/**
 * A constant a key could be: literal text that is not a placeholder, a boolean or a
 * bare number (a number defaulting a page size or a shard is not a partition).
 */
function isHot(v: Value): boolean {
  const t = textOf(v);
  return t !== null && !PLACEHOLDERS.has(t) && t !== 'true' && t !== 'false' && !/^-?\d+(\.\d+)?$/.test(t);
}

/**
 * A literal chosen over an environment variable's read (`process.env.ORDERS_TABLE ?? 'Orders'`,
 * `os.environ.get("T") or "orders"`) notes the variable: as a key it is the constant, but as a
 * table's name it is what runs where the variable is unset, and a function that sets it names
 * another table.
 */
function unlessEnvOf(v: Extract<Value, { kind: 'scalar' }>, pool: ReadonlyArray<readonly [Value, number]>) {
  const part = v.template.parts.length === 1 ? v.template.parts[0] : null;
  if (!part || !('literal' in part)) return v;
  const env = pool
    .map(([x]) => soleHole(x))
    .map((h) => (h ? envVariableIn(h.source) : null))
    .find((x) => !!x);
  return env ? { ...v, template: { parts: [{ ...part, unlessEnv: env }] } } : v;
}

/** Of several scalars (and possibly other values) reaching one use, the one the key is. */
function chooseScalars(values: Value[], at: Node, preferred: number): Choice {
  const real = values.map((v, i) => [v, i] as const).filter(([v]) => !isPlaceholder(v));
  const pool = real.length > 0 ? real : values.map((v, i) => [v, i] as const);
  const texts = pool.map(([v]) => textOf(v));
  if (texts.every((t) => t !== null)) {
    // One text on every path is that text; several are a small set.
    if (new Set(texts).size === 1) return { value: pool[0][0], index: pool[0][1] };
    return { value: holeValue(at, { kind: 'low-cardinality' }), index: -1 };
  }
  const hot = pool.find(([v]) => isHot(v));
  if (hot && hot[0].kind === 'scalar')
    return { value: { ...unlessEnvOf(hot[0], pool), someOfPaths: true }, index: hot[1] };
  const kept = pool.find(([, i]) => i === preferred) ?? pool[0];
  // An alternative that says nothing (`unknown`) gives way to one that does.
  const known = soleHole(kept[0])?.kind === 'unknown' ? pool.find(([v]) => soleHole(v)?.kind !== 'unknown') : null;
  return { value: (known ?? kept)[0], index: (known ?? kept)[1] };
}

/** The entries of several objects, each name chosen among the objects that have it. */
function chooseEntries(objects: Array<Extract<Value, { kind: 'object' }>>, at: Node, preferred: number): Value {
  const names: string[] = [];
  for (const o of objects) for (const [k] of o.entries) if (!names.includes(k)) names.push(k);
  const entries: Entry[] = names.map((name) => {
    const found = objects.map((o) => entryOf(o, name));
    const present = found.flatMap((e, i) => (e ? [[e, i] as const] : []));
    const pick = present.findIndex(([, i]) => i === preferred);
    const choice = chooseAmong(
      present.map(([e]) => e[1]),
      at,
      pick >= 0 ? pick : present.length - 1,
    );
    const from =
      choice.index >= 0 ? present[choice.index][0] : (present.find(([, i]) => i === preferred) ?? present[0])[0];
    return [name, choice.value, from[2]];
  });
  return { kind: 'object', entries, span: objects[Math.min(preferred, objects.length - 1)].span };
}

/** The fields that make a query what it is: merged from two requests, they make a third. */
const REQUEST_SHAPE = ['KeyConditionExpression', 'IndexName'];

/**
 * Requests built otherwise on each path (`params = { KeyConditionExpression: '#pk = :pk
 * AND #sk = :sk', ... }` in one branch, `params = { IndexName: 'gsi1', KeyConditionExpression:
 * '#gsi1pk = :gsi1pk', ... }` in the other) are different requests: chosen field by field
 * they would make one that no path sends (one path's index, neither's key condition). One
 * is chosen whole: the one whose values hold a constant (the hot path, its constants marked
 * as one of several paths), else the one a single path takes. Null when the objects agree
 * on those fields (a `Key` written per branch, a request with one field changed).
 */
function wholeRequest(objects: Array<Extract<Value, { kind: 'object' }>>, preferred: number): Choice | null {
  const differs = (name: string) =>
    new Set(
      objects.map((o) => {
        const e = entryOf(o, name);
        return e ? (textOf(e[1]) ?? '\0') : null;
      }),
    ).size > 1;
  if (!REQUEST_SHAPE.some((name) => objects.some((o) => entryOf(o, name))) || !REQUEST_SHAPE.some(differs)) return null;
  const hot = objects.findIndex((o) => o.entries.some(([name, v]) => KEY_VALUES.has(name) && holdsHot(v)));
  if (hot < 0) return { value: objects[preferred], index: preferred };
  const o = objects[hot];
  const entries = o.entries.map(([name, v, pair]): Entry => [name, KEY_VALUES.has(name) ? markedHot(v) : v, pair]);
  return { value: { ...o, entries }, index: hot };
}

/** Where a query's key values are: its placeholders' values, or a boto3 condition (`Key("gsi1pk").eq("ALL")`). */
const KEY_VALUES = new Set(['ExpressionAttributeValues', 'KeyConditionExpression']);

function holdsHot(v: Value): boolean {
  if (v.kind === 'object') return v.entries.some(([, x]) => isHot(x));
  if (v.kind === 'condition') return v.clauses.some((c) => isHot(c.value));
  return false;
}

/** The constants of a request chosen among others, marked as one of several paths. */
function markedHot(v: Value): Value {
  const mark = (x: Value): Value => (x.kind === 'scalar' && isHot(x) ? { ...x, someOfPaths: true } : x);
  if (v.kind === 'object') return { ...v, entries: v.entries.map(([k, x, p]): Entry => [k, mark(x), p]) };
  if (v.kind === 'condition') return { ...v, clauses: v.clauses.map((c) => ({ ...c, value: mark(c.value) })) };
  return v;
}

/** boto3 conditions of the same shape (`Key("pk").eq(a)` / `Key("pk").eq(b)`), clause by clause. */
function chooseClauses(conds: Array<Extract<Value, { kind: 'condition' }>>, at: Node, preferred: number): Value | null {
  const first = conds[0].clauses;
  const same = conds.every(
    (c) =>
      c.clauses.length === first.length &&
      c.clauses.every((x, i) => x.attribute === first[i].attribute && x.op === first[i].op),
  );
  if (!same) return null;
  const clauses: ConditionClause[] = first.map((_, i) => {
    const choice = chooseAmong(
      conds.map((c) => c.clauses[i].value),
      at,
      preferred,
    );
    const from = conds[choice.index >= 0 ? choice.index : preferred].clauses[i];
    return { ...from, value: choice.value };
  });
  return { kind: 'condition', clauses, span: conds[preferred].span };
}

/**
 * The value of `values`, alternatives reaching `at` (the use, or the expression that
 * chooses). `preferred` is the alternative a single path would take.
 */
export function chooseAmong(values: Value[], at: Node, preferred: number): Choice {
  if (values.length === 0) return { value: holeValue(at, { kind: 'unknown' }), index: -1 };
  if (values.length === 1) return { value: values[0], index: 0 };
  const p = Math.max(0, Math.min(preferred, values.length - 1));
  if (values.every((v) => v.kind === 'object')) {
    const objects = values as Array<Extract<Value, { kind: 'object' }>>;
    const whole = wholeRequest(objects, p);
    if (whole) return whole;
    return { value: chooseEntries(objects, at, p), index: -1 };
  }
  if (values.every((v) => v.kind === 'condition')) {
    const v = chooseClauses(values as Array<Extract<Value, { kind: 'condition' }>>, at, p);
    if (v) return { value: v, index: -1 };
  }
  if (values.some((v) => v.kind === 'scalar') && values.every((v) => v.kind === 'scalar' || isPlaceholder(v))) {
    return chooseScalars(values, at, p);
  }
  // Mixed shapes (an object on one path, a call result on another): the single path's.
  return { value: values[p], index: p };
}

/**
 * Like `choiceValue` for `c ? a : b`, `a ?? b`, `a || b`, `a or b`: the first arm
 * that says something is what a single path gives, except that a table's name given as a
 * parameter gives way to an environment variable's read (`table_name or
 * os.environ["SESSIONS_TABLE"]`): the argument is optional, and what runs where nobody
 * passes it is the table the infrastructure names.
 */
export function chooseArms(n: Node, arms: Array<Node | null>, evaluate: (x: Node | null) => Value | null): Value {
  const values = arms.flatMap((a) => {
    const v = a ? evaluate(a) : null;
    return v ? [v] : [];
  });
  const table = values.findIndex((v) => TABLE_PARAM.test(soleHole(v)?.param?.name ?? ''));
  const env = values.findIndex((v) => envVariableIn(soleHole(v)?.source ?? '') !== null);
  if (table >= 0 && env >= 0) return values[env];
  const some = orEmpty(values);
  if (some) return some;
  const preferred = values.findIndex((v) => soleHole(v)?.kind !== 'unknown');
  return chooseAmong(values, n, preferred < 0 ? 0 : preferred).value;
}

/**
 * `event.queryStringParameters ?? {}`, `event.get("body") or {}`: an object whose content is
 * not known (what the first arm holds), not an empty one — a default taken from it
 * (`const { board = "global" } = ...`, `.get("board", "global")`) is one path of several.
 */
function orEmpty(values: Value[]): Value | null {
  if (values.length !== 2) return null;
  const empty = values.find((v) => v.kind === 'object' && v.entries.length === 0 && !v.hidden);
  const other = values.find((v) => v !== empty && v.kind === 'scalar' && soleHole(v) !== null);
  return empty?.kind === 'object' && other ? { ...empty, hidden: other } : null;
}

/** A parameter that names a table (`table_name`, `tableName`, `ordersTable`). */
const TABLE_PARAM = /table/i;

/**
 * A value reached through a name, as `reachedThrough` makes it, except that one
 * alternative among several (`someOfPaths`) stays where it is written: the branch
 * that makes the key hot is what the finding points at.
 */
export function throughName(v: Value, use: Node, d: Declaration): Value {
  const reached = reachedThrough(v, use, d);
  if (v.kind !== 'scalar' || !v.someOfPaths || reached.kind !== 'scalar') return reached;
  return { ...reached, span: v.span, someOfPaths: true };
}

/**
 * A scalar built from parts (`"PRICES#" + (region || "DEFAULT")`) is one of several
 * values when any part is: the mark survives the concatenation.
 */
export function joinPaths(joined: Value, ...parts: Array<Value | null | undefined>): Value {
  const some = parts.some((v) => v?.kind === 'scalar' && v.someOfPaths === true);
  return some && joined.kind === 'scalar' ? { ...joined, someOfPaths: true } : joined;
}

/**
 * A parameter's value from its callers, except that a parameter named as an entity id
 * (`team_id`, `userId`) stays one when a caller passes a sample of one (`"team-42"`,
 * `"alice@example.com"`): a test or a demo reading one item does not make every
 * caller's key that item. A shared token (`_bump("signups")`) is still the constant.
 * `own` is the parameter's value when no caller gives one.
 */
export function callersOrOwn(name: string, fromCallers: Value | null, own: () => Value): Value {
  if (!fromCallers) return own();
  const text = fromCallers.kind === 'scalar' ? literalText(fromCallers.template) : null;
  const sample = text !== null && valueShape(text) === 'entity';
  return sample && classifyName(name)?.kind === 'entity-id' ? own() : fromCallers;
}

/**
 * Whether a caller's argument says something a parameter can take: a value with a known
 * part, or a read of an environment variable, which is unknown but names the variable
 * (`points(id, process.env.TABLE_NAME)`: the table the infrastructure binds to it).
 */
export function argumentSaysSomething(v: Value | null): v is Value {
  const h = v ? soleHole(v) : null;
  return !!v && (h?.kind !== 'unknown' || envVariableIn(h.source) !== null);
}

/**
 * A name some reaching assignment computes from itself (`h = ((h ^ b) * P) & M` in a
 * hash loop, `total = total + x`): an accumulator, whose first value is no alternative
 * of its own: the name is judged by what it names, not as a choice of its assignments.
 */
export function accumulates(name: string, alternatives: ReadonlyArray<{ kind: string; node?: Node }>): boolean {
  const self = new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
  return alternatives.some((a) => a.kind === 'value' && !!a.node && self.test(a.node.text));
}

/**
 * The value of a name several bindings may reach (`let pk = "A"; if (c) pk = "B";`), both
 * front-ends' way: an accumulator is judged by its name; values and parameters are
 * weighed together (`chooseAmong`), the chosen assignment noted as the declaration the
 * value came through. Null when some binding is of another kind (the caller resolves it).
 */
export function valueOfAlternatives<B extends { kind: string; node?: Node }>(
  n: Node,
  alternatives: readonly B[],
  valueOf: (b: B) => Value,
): Value | null {
  if (accumulates(n.text, alternatives)) return namedValue(n, n.text);
  if (!alternatives.every((a) => a.kind === 'value' || a.kind === 'param')) return null;
  const choice = chooseAmong(alternatives.map(valueOf), n, alternatives.length - 1);
  const from = choice.index >= 0 ? alternatives[choice.index] : null;
  return from?.kind === 'value' && from.node
    ? throughName(choice.value, n, declarationOf(n.text, from.node))
    : choice.value;
}
