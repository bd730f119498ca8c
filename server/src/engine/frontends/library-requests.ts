/**
 * The request values the DynamoDB libraries' front-ends build alike: a query's key
 * condition (`#pk = :pk` and the sort key's range) and a schema default's per-item value.
 * Each library reads its own schema and calls; what the request then says is DynamoDB's.
 */
import type { KeyOperator, Span } from '../model';
import { literal } from '../model/template';
import type { Entry, Value } from '../model/value';

export const str = (s: string, span: Span): Value => ({ kind: 'scalar', template: literal(s), span });
export const obj = (entries: Entry[], span: Span): Value => ({ kind: 'object', entries, span });

/** A sort-key condition: `begins_with`, `BETWEEN` or a comparison, with its operands. */
export interface RangeCondition {
  operator: KeyOperator;
  operands: Value[];
}

/**
 * A query's `KeyConditionExpression`, `ExpressionAttributeNames` and
 * `ExpressionAttributeValues`: `#pk = :pk`, and the range when the key has a sort key
 * and the condition operands.
 */
export function keyConditionEntries(
  hash: string,
  hashValue: Value,
  range: string | null,
  condition: RangeCondition | null,
  at: Span,
): Entry[] {
  const names: Entry[] = [['#pk', str(hash, at)]];
  const values: Entry[] = [[':pk', hashValue, at]];
  let expression = '#pk = :pk';
  if (range && condition && condition.operands.length > 0) {
    names.push(['#sk', str(range, at)]);
    condition.operands.forEach((o, i) => values.push([`:sk${i}`, o, at]));
    const op = condition.operator;
    expression +=
      op === 'begins_with'
        ? ' and begins_with(#sk, :sk0)'
        : op === 'BETWEEN'
          ? ' and #sk BETWEEN :sk0 AND :sk1'
          : ` and #sk ${op} :sk0`;
  }
  return [
    ['KeyConditionExpression', str(expression, at)],
    ['ExpressionAttributeNames', obj(names, at)],
    ['ExpressionAttributeValues', obj(values, at)],
  ];
}

/**
 * A schema's `default` (or ElectroDB `set`) function runs for each item written: a random
 * value in it is drawn per item (never once per process, though the schema is written at
 * module level), and its own parameters are no wrapper's.
 */
export function perItem(v: Value): Value {
  if (v.kind !== 'scalar') return v;
  const parts = v.template.parts.map((p) => {
    if (!('hole' in p) || (!p.hole.once && !p.hole.param)) return p;
    const { once: _once, param: _param, ...hole } = p.hole;
    return { ...p, hole };
  });
  return { ...v, template: { parts } };
}
