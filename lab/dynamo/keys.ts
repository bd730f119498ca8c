// Partition and sort key values as Contributor Insights labels them, and the
// partition key a Query targets (read from its key condition before it runs,
// so a hot key can be throttled before dynalite does any work).

import type { Attrs } from './dynalite-engine';
import type { AttributeValue } from './item-size';

/** The text of a key value: strings and numbers as written, binaries in base64. */
export function keyLabel(v: unknown): string | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const av = v as AttributeValue;
  if (typeof av.S === 'string') return av.S;
  if (typeof av.N === 'string') return av.N;
  if (typeof av.B === 'string') return av.B;
  return undefined;
}

/**
 * The partition key value a Query asks for: the `name = :value` term of its
 * KeyConditionExpression whose name resolves to the hash key, or the EQ entry
 * of legacy KeyConditions. Undefined when neither says.
 */
export function queryPartitionKey(req: Attrs, hashKey: string): string | undefined {
  return keyLabel(queryPartitionValue(req, hashKey));
}

/** The attribute value behind queryPartitionKey. */
export function queryPartitionValue(req: Attrs, hashKey: string): unknown {
  const legacy = req.KeyConditions as Record<string, { ComparisonOperator?: string; AttributeValueList?: unknown[] }>;
  if (legacy && Object.hasOwn(legacy, hashKey) && legacy[hashKey]?.ComparisonOperator === 'EQ')
    return legacy[hashKey].AttributeValueList?.[0];
  const expr = req.KeyConditionExpression;
  if (typeof expr !== 'string') return undefined;
  const names = (req.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (req.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const resolve = (t: string) => (t.startsWith('#') ? names[t] : t);
  for (const term of expr.split(/\s+and\s+/i)) {
    const m =
      /^[\s(]*([#\w.-]+)\s*=\s*(:[\w-]+)[\s)]*$/.exec(term) ?? /^[\s(]*(:[\w-]+)\s*=\s*([#\w.-]+)[\s)]*$/.exec(term);
    if (!m) continue;
    const [name, value] = m[1].startsWith(':') ? [m[2], m[1]] : [m[1], m[2]];
    if (resolve(name) === hashKey) return Object.hasOwn(values, value) ? values[value] : undefined;
  }
  return undefined;
}
