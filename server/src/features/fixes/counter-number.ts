import { type Access, literalText } from '../../engine';
import { textIn } from './apply';
import type { FixContext, TextChange } from './fix-model';
import { where } from './key-sites';
import { within } from './syntax';

/**
 * A counter whose key attribute is a Number (`Key={'id': 1}`, `Key: { id: ARTICLE_ID }`,
 * the low-level `{'N': '7'}`). A string suffix (`1#3`) would be refused by the table on
 * every write, so the spread keeps the attribute's type: the N shard items get the
 * numeric ids `base * N + shard` (ids 10..19 for id 1 with 10 shards; 0..9 for id 0,
 * whose first shard is the original item) and the summing reader reads those ids and
 * the original one, each once.
 *
 * Numeric ids share one space with the table's other items, so the spread is offered
 * only when the workspace shows every item of the table: every access of it must name
 * a constant Number id, and none may fall in the new range. Items written by programs
 * outside the workspace cannot be seen; the count's comment names the range so a
 * reviewer can check it.
 */

export interface NumberKey {
  /** The counter's id as a number (`1`, `7`, `42`). */
  base: number;
  /** The id as the code writes it, as a number expression: `1`, `ARTICLE_ID`, `7` for `{'N': '7'}`. */
  expression: string;
  /** The low-level client's `{ N: "7" }`: the value is the number's string. */
  lowLevel: boolean;
}

const NUMERIC = /^[-+]?\d[\d_]*(\.\d+)?([eE][-+]?\d+)?[nLl]?$/;
const NUMBER_CALL = /^(?:int|float|Decimal|Number|parseInt|parseFloat|BigInt)\s*\(/;

/** Whether one expression's text is a number: a numeric literal, `int(...)`, `Number(...)`. */
export const numberText = (t: string) => NUMERIC.test(t.trim()) || NUMBER_CALL.test(t.trim());

/** Whether the key's value is a Number: a numeric literal, `int(...)`, a constant bound to one, or `{ N: ... }`. */
export function isNumberKey(a: Access, ctx: FixContext): boolean {
  const pk = a.partitionKey;
  if (!pk) return false;
  const text = ctx.textOf(a.file) ?? '';
  const use = textIn(text, pk.use);
  const own = textIn(text, pk.span);
  const bound = pk.via.map((d) => {
    const t = ctx.textOf(d.file);
    return t === null ? '' : textIn(t, d.valueSpan);
  });
  return /[{,]\s*["']?N["']?\s*:/.test(use) || numberText(own) || bound.some(numberText);
}

/** The counter's Number key, or why it cannot be spread over numeric ids. */
export function numberKeyOf(a: Access, ctx: FixContext): NumberKey | { blocked: string } {
  const pk = a.partitionKey!;
  const text = ctx.textOf(a.file) ?? '';
  const own = textIn(text, pk.span).trim();
  const lowLevel = /[{,]\s*["']?N["']?\s*:/.test(textIn(text, pk.use));
  const value = literalText(pk.template);
  const base = value !== null && /^-?\d+$/.test(value.trim()) ? Number(value) : null;
  const shown = `the counter's key ${pk.attribute} is a Number (${own})`;
  if (base === null || !Number.isSafeInteger(base))
    return { blocked: `${shown} not known as a whole number here, so its shard ids cannot be chosen` };
  // The edit replaces the value in the call; a value built elsewhere is not rewritten here.
  if (!within(pk.span, a.span))
    return { blocked: `${shown} written outside the call at ${where(ctx, a.file, a.span)}` };
  const expression = lowLevel ? String(base) : /^[\w.]+$/.test(own) ? own : `(${own})`;
  return { base, expression, lowLevel };
}

/** The ids the spread writes: `base * N + 0 .. base * N + N - 1`. */
export const shardIds = (base: number, count: number): [number, number] => [base * count, base * count + count - 1];

const sameTable = (x: Access['table'], y: Access['table']) =>
  x.kind !== 'unknown' && y.kind !== 'unknown' && x.kind === y.kind && x.name === y.name;

/**
 * What keeps the numeric shard ids from being chosen safely: the table is not known, or
 * another access of it names an id that is not a constant Number, or one in the range
 * the shards would take. `own` are the counter's own accesses (the increment, its reads).
 */
export function numberRangeBlocker(
  a: Access,
  key: NumberKey,
  count: number,
  own: Access[],
  ctx: FixContext,
): string | null {
  if (a.table.kind === 'unknown')
    return "the counter's table is not known, so the ids its shards would take cannot be checked";
  const [lo, hi] = shardIds(key.base, count);
  const files = ctx.files?.() ?? [a.file];
  for (const file of files) {
    for (const other of ctx.analysisOf(file)?.accesses ?? []) {
      if (!sameTable(other.table, a.table) || (other.index ?? null) !== null) continue;
      if (
        own.some(
          (o) =>
            o.file === other.file &&
            o.span.startLine === other.span.startLine &&
            o.span.startColumn === other.span.startColumn,
        )
      )
        continue;
      const value = other.partitionKey ? literalText(other.partitionKey.template) : null;
      const id = value !== null && /^-?\d+$/.test(value.trim()) ? Number(value) : null;
      const at = `${other.operation} at ${where(ctx, other.file, other.span)}`;
      if (id === null) return `the ${at} addresses ids of the table that the shard ids ${lo}..${hi} could meet`;
      if (id !== key.base && id >= lo && id <= hi) return `the ${at} uses id ${id}, one of the shard ids ${lo}..${hi}`;
    }
  }
  return null;
}

/** The key value of the increment as a random one of the shard ids, in the value's own form. */
export function numberKeyChange(a: Access, key: NumberKey, count: string): TextChange {
  const pk = a.partitionKey!;
  const python = a.language === 'python';
  const random = python ? `random.randrange(${count})` : `Math.floor(Math.random() * ${count})`;
  const id = `${key.expression} * ${count} + ${random}`;
  return { file: a.file, span: pk.span, newText: key.lowLevel ? (python ? `str(${id})` : `String(${id})`) : id };
}
