import { parseIncrements } from './expressions';
import type { ReadShape, WrittenEntry, WrittenRequest } from '../model';
import { literalText } from '../model/template';
import { entry, entryOf, unwrapAttributeValue, type Value } from '../model/value';

/** The other request fields the rules and generators read: a query's options, increments, item size. */

/** Query fields that change which items or attributes come back (the legacy ones included). */
const SHAPING = [
  'FilterExpression',
  'ProjectionExpression',
  'AttributesToGet',
  'Select',
  'QueryFilter',
  'ConditionalOperator',
];
/** A Query's options beyond its key condition. */
export function readShape(input: Value, paginator: boolean): ReadShape {
  const text = (name: string) => {
    const v = entry(input, name);
    return v?.kind === 'scalar' ? literalText(v.template) : null;
  };
  const limitValue = entry(input, 'Limit');
  const limitText = text('Limit');
  const names: Record<string, string> = {};
  const nameMap = entry(input, 'ExpressionAttributeNames');
  if (nameMap?.kind === 'object') {
    for (const [alias, v] of nameMap.entries) {
      const t = v.kind === 'scalar' ? literalText(v.template) : null;
      if (t !== null) names[alias] = t;
    }
  }
  const forward = text('ScanIndexForward');
  return {
    limit: !limitValue ? null : limitText !== null && /^\d+$/.test(limitText) ? Number(limitText) : 'dynamic',
    scanIndexForward:
      forward === 'true' || forward === 'True' ? true : forward === 'false' || forward === 'False' ? false : null,
    projection: text('ProjectionExpression'),
    shaping: SHAPING.filter((name) => entry(input, name) !== undefined),
    names,
    exclusiveStartKey: !!entry(input, 'ExclusiveStartKey'),
    paginator,
    consistent: /^(true|True)$/.test(text('ConsistentRead') ?? ''),
    ...(input.kind === 'object' ? { written: writtenRequest(input) } : {}),
  };
}

/** The request's fields and alias entries with the places the code writes them. */
function writtenRequest(input: Value & { kind: 'object' }): WrittenRequest {
  const fields: WrittenRequest['fields'] = {};
  for (const [name] of input.entries) {
    const v = entry(input, name)!;
    fields[name] = { span: v.span, literal: v.kind === 'scalar' ? literalText(v.template) : null, kind: v.kind };
  }
  const entries = (name: string): WrittenEntry[] | null => {
    const found = entryOf(input, name);
    if (!found) return [];
    const map = found[1];
    if (map.kind !== 'object' || map.hidden) return null;
    return map.entries.map(([alias, , pair]) => ({ alias, pair: pair ?? null }));
  };
  return { fields, names: entries('ExpressionAttributeNames'), values: entries('ExpressionAttributeValues') };
}

/** `AttributeUpdates: { n: { Action: 'ADD', Value: 1 } }` (the legacy parameter) adds to a number. */
function legacyIncrements(input: Value): boolean {
  const updates = entry(input, 'AttributeUpdates');
  if (updates?.kind !== 'object') return false;
  return updates.entries.some(([, u]) => {
    const action = entry(u, 'Action');
    if (action?.kind !== 'scalar' || literalText(action.template) !== 'ADD') return false;
    const value = entry(u, 'Value');
    const inner = value ? unwrapAttributeValue(value) : undefined;
    const t = inner?.kind === 'scalar' ? literalText(inner.template) : null;
    return inner?.kind === 'scalar' && (t === null || /^-?\d+(\.\d+)?$/.test(t));
  });
}

export function increments(input: Value): boolean {
  if (legacyIncrements(input)) return true;
  const ue = entry(input, 'UpdateExpression');
  const text = ue?.kind === 'scalar' ? literalText(ue.template) : null;
  if (!text) return false;
  const values = entry(input, 'ExpressionAttributeValues');
  return parseIncrements(text).some(({ by }) => {
    const v = entry(values, by);
    if (!v) return true;
    const u = unwrapAttributeValue(v);
    // `ADD tags :set` adds to a set; only a number makes a counter.
    if (u.kind !== 'scalar') return false;
    const t = literalText(u.template);
    return t === null || /^-?\d+(\.\d+)?$/.test(t);
  });
}

/** Bytes a value of unknown content is counted as: an id, a short string or a number. */
const HOLE_BYTES = 16;

/**
 * DynamoDB's item size: attribute names plus values (strings by UTF-8 length,
 * numbers up to 21 bytes). Spread-in or computed attributes are not seen, so the
 * estimate is a lower bound of what the code writes.
 */
export function estimateBytes(v: Value | undefined, depth = 0): number | null {
  if (!v || depth > 8) return null;
  const u = unwrapAttributeValue(v);
  switch (u.kind) {
    case 'object': {
      let sum = 3;
      for (const [k, x] of u.entries) sum += Buffer.byteLength(k) + (estimateBytes(x, depth + 1) ?? HOLE_BYTES);
      return sum;
    }
    case 'array':
      return u.items.reduce((n, x) => n + 1 + (estimateBytes(x, depth + 1) ?? HOLE_BYTES), 3);
    case 'scalar':
      return u.template.parts.reduce((n, p) => n + ('literal' in p ? Buffer.byteLength(p.literal) : HOLE_BYTES), 0);
    default:
      return HOLE_BYTES;
  }
}
