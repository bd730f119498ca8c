/**
 * A dynamoose query as the request it sends: `Model.query("status").eq("OPEN")
 * .using("statusIndex").limit(10).exec()` or `Model.query({ status: { eq: "OPEN" } })`.
 * The conditions are read as dynamoose's comparison chart (attribute → comparator and
 * values); without `using`, the index is the one dynamoose chooses from it
 * (`find_best_index`): of the table and indexes whose hash key is compared by `eq`,
 * the first whose range key is compared too, else the table, else the first.
 */
import type { KeyOperator, Span } from '../../model';
import type { EvalContext } from '../../model/eval-context';
import { literal, literalText } from '../../model/template';
import type { Entry, Value } from '../../model/value';
import type { Step } from '../call-chain';
import { queryRequest, type RangeCondition } from './requests';
import { attributeNamed, type ModelSchema } from './schema';

const COMPARATORS: Record<string, KeyOperator | 'other'> = {
  eq: '=',
  lt: '<',
  le: '<=',
  gt: '>',
  ge: '>=',
  beginsWith: 'begins_with',
  between: 'BETWEEN',
  ne: 'other',
  contains: 'other',
  exists: 'other',
  in: 'other',
};

interface Comparison {
  operator: KeyOperator | 'other';
  operands: Value[];
}

type Chart = Map<string, Comparison>;

const text = (v: Value | undefined): string | null => (v?.kind === 'scalar' ? literalText(v.template) : null);

/** The query's request, or null when its hash key's value is not read. */
export function queryInput(m: ModelSchema, steps: Step[], ctx: EvalContext, at: Span): Value | null {
  const value = (i: number, s: Step) => (s.args[i] ? (ctx.evaluate(s.args[i], ctx) ?? undefined) : undefined);
  const chart: Chart = new Map();
  const extra: Entry[] = [];
  let pending: string | null = null;
  let negated = false;
  let using: string | null = null;
  for (const [i, s] of steps.entries()) {
    if (i === 0 || s.name === 'where' || s.name === 'filter' || s.name === 'attribute') {
      const v = value(0, s);
      const name = text(v);
      if (name !== null) pending = attributeNamed(m, name);
      else if (i === 0 && v?.kind === 'object') readObject(m, v, chart);
    } else if (s.name === 'not') negated = !negated;
    else if (COMPARATORS[s.name] && pending) {
      const operator = negated ? 'other' : COMPARATORS[s.name];
      const operands = s.args.map((_, j) => value(j, s)).filter((v): v is Value => !!v);
      if (!chart.has(pending)) chart.set(pending, { operator, operands });
      pending = null;
      negated = false;
    } else if (s.name === 'using') using = text(value(0, s));
    else if (s.name === 'limit' && s.args[0]) extra.push(['Limit', value(0, s)!]);
    else if (s.name === 'sort' && text(value(0, s)) === 'descending')
      extra.push(['ScanIndexForward', { kind: 'scalar', template: literal('false'), span: at }]);
    else if (s.name === 'count') extra.push(['Select', { kind: 'scalar', template: literal('COUNT'), span: at }]);
  }
  const keys = using ? named(m, using) : chosen(m, chart);
  const hash = keys ? chart.get(keys.hash) : undefined;
  if (!keys || hash?.operator !== '=' || !hash.operands[0]) return null;
  const range = keys.range ? chart.get(keys.range) : undefined;
  const condition: RangeCondition | null =
    range && range.operator !== 'other' ? { operator: range.operator, operands: range.operands } : null;
  return queryRequest(m, keys, hash.operands[0], condition, at, extra);
}

/** Whether the chain reads every page (`.all()`). */
export function readsAll(steps: Step[]): boolean {
  return steps.some((s) => s.name === 'all');
}

/** `{ status: "OPEN" }`, `{ status: { eq: "OPEN" }, createdAt: { gt: t } }`. */
function readObject(m: ModelSchema, v: Value & { kind: 'object' }, chart: Chart): void {
  for (const [name, c] of v.entries) {
    const attr = attributeNamed(m, name);
    if (c.kind === 'scalar') chart.set(attr, { operator: '=', operands: [c] });
    else if (c.kind === 'object' && c.entries.length === 1) {
      const [op, operand] = c.entries[0];
      const operator = COMPARATORS[op];
      if (!operator) continue;
      const operands = operator === 'BETWEEN' && operand.kind === 'array' ? operand.items : [operand];
      chart.set(attr, { operator, operands });
    }
  }
}

interface Keys {
  index: string | null;
  hash: string;
  range: string | null;
}

function named(m: ModelSchema, name: string): Keys | null {
  const ix = m.indexes.find((i) => i.name === name);
  return ix ? { index: ix.name, hash: ix.hash, range: ix.range } : null;
}

function chosen(m: ModelSchema, chart: Chart): Keys | null {
  const all: Keys[] = [
    ...m.indexes.map((i) => ({ index: i.name, hash: i.hash, range: i.range })),
    { index: null, hash: m.hash, range: m.range },
  ];
  const valid = all.filter((k) => chart.get(k.hash)?.operator === '=');
  return valid.find((k) => k.range && chart.has(k.range)) ?? valid.find((k) => k.index === null) ?? valid[0] ?? null;
}
