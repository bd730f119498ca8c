/**
 * The per-shard KeyConditionExpression generator: from a key template with a `{shard}`
 * part, a shard set and an optional sort-key condition, the Query inputs that read every
 * shard of one logical key. Shared by `shardlens expr` and the side panel (which bundles
 * it for the browser: nothing here may import Node modules).
 *
 * Values are DocumentClient-style plain values (`"LOGS#3"`, `42`), ready to spread into a
 * lib-dynamodb `QueryCommand` or a boto3 `Table.query` next to a `TableName`.
 */
import { needsAlias } from '../generate/reserved-words';

export const SORT_OPERATORS = ['=', '<', '<=', '>', '>=', 'between', 'begins_with'] as const;
export type SortOperator = (typeof SORT_OPERATORS)[number];

/** The sort key's DynamoDB type: S (string) or N (number). begins_with needs S. */
export type SortKeyType = 'S' | 'N';

export interface SortCondition {
  attribute: string;
  op: SortOperator;
  type: SortKeyType;
  value: string;
  /** The upper bound of `between`. */
  value2?: string;
}

export interface ExprSpec {
  /** The partition-key attribute name, as stored (`pk`, `status`, `GSI1PK`). */
  pkAttribute: string;
  /** The key with its shard part written `{shard}`: `LOGS#2026-11-30#{shard}`. */
  template: string;
  shards: number[];
  sort: SortCondition | null;
  /** The secondary index the key is read through (`IndexName`); absent for the table's own key. */
  index?: string | null;
}

export type PlainValue = string | number;

/** One shard's Query input (without `TableName`). */
export interface ShardQuery {
  shard: number;
  /** Present when the key is an index's partition key: a Query without it reads the table's key. */
  IndexName?: string;
  KeyConditionExpression: string;
  /** Absent when no attribute needs an alias: DynamoDB rejects an empty map. */
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues: Record<string, PlainValue>;
}

export class ExprError extends Error {}

export const SHARD_TOKEN = '{shard}';
/** A shard set larger than this is a typo, not a design (and would print megabytes). */
export const MAX_SHARDS = 1000;

/** `0..9` (inclusive), `1,2,5`, or a mix `0..3,7`; sorted, without duplicates. */
export function parseShardValues(text: string): number[] {
  const out = new Set<number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    const range = /^(\d{1,6})\s*\.\.\s*(\d{1,6})$/.exec(part);
    if (range) {
      const [lo, hi] = [Number(range[1]), Number(range[2])];
      if (hi < lo) throw new ExprError(`shard range "${part}" runs backwards`);
      if (hi - lo + 1 > MAX_SHARDS) throw new ExprError(`at most ${MAX_SHARDS} shards (got ${hi - lo + 1})`);
      for (let s = lo; s <= hi; s++) out.add(s);
    } else if (/^\d{1,6}$/.test(part)) out.add(Number(part));
    else throw new ExprError(`"${part}" is not a shard number or a range like 1..10`);
  }
  if (out.size > MAX_SHARDS) throw new ExprError(`at most ${MAX_SHARDS} shards (got ${out.size})`);
  return [...out].sort((a, b) => a - b);
}

/** `--shards N`: the shards 0..N-1. */
export function shardRange(count: number): number[] {
  if (!Number.isInteger(count) || count < 1 || count > MAX_SHARDS)
    throw new ExprError(`the shard count must be a whole number from 1 to ${MAX_SHARDS} (got ${count})`);
  return Array.from({ length: count }, (_, i) => i);
}

/** The concrete partition key of one shard. */
export function keyOfShard(template: string, shard: number): string {
  return template.split(SHARD_TOKEN).join(String(shard));
}

function plain(value: string, type: SortKeyType, what: string): PlainValue {
  if (type === 'S') return value;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new ExprError(`${what} "${value}" is not a number`);
  return n;
}

/** Checks a spec; throws ExprError with a sentence saying what to change. */
export function validateSpec(spec: ExprSpec): void {
  if (!spec.pkAttribute) throw new ExprError('the partition-key attribute name is empty');
  if (!spec.template.includes(SHARD_TOKEN))
    throw new ExprError(`the template must write its shard part as ${SHARD_TOKEN} (e.g. LOGS#2026-11-30#{shard})`);
  if (spec.shards.length === 0) throw new ExprError('the shard set is empty');
  // DynamoDB's own rule for index names; anything else would be refused by the Query.
  if (spec.index && !/^[A-Za-z0-9_.-]{3,255}$/.test(spec.index))
    throw new ExprError(`"${spec.index}" is not an index name (3 to 255 letters, digits, _ . -)`);
  const s = spec.sort;
  if (!s) return;
  if (!s.attribute) throw new ExprError('the sort-key attribute name is empty');
  if (s.attribute === spec.pkAttribute)
    throw new ExprError('the sort key must be another attribute than the partition key');
  if (s.op === 'begins_with' && s.type !== 'S') throw new ExprError('begins_with works on string sort keys only');
  if (s.op === 'between' && s.value2 === undefined) throw new ExprError('between needs a second value (--sk2)');
  if (s.op !== 'between' && s.value2 !== undefined)
    throw new ExprError(`a second value is only for between, not ${s.op}`);
  plain(s.value, s.type, 'the sort-key value');
  if (s.value2 !== undefined) plain(s.value2, s.type, 'the second sort-key value');
}

/** The attribute's name in an expression: itself, or an alias when it is reserved or not a plain name. */
function nameRef(attribute: string, alias: string, names: Record<string, string>): string {
  if (!needsAlias(attribute)) return attribute;
  names[alias] = attribute;
  return alias;
}

/** The expression and names shared by every shard, and the sort-key values. */
export function expressionOf(spec: ExprSpec): {
  expression: string;
  names: Record<string, string>;
  sortValues: Record<string, PlainValue>;
} {
  validateSpec(spec);
  const names: Record<string, string> = {};
  const pk = nameRef(spec.pkAttribute, '#pk', names);
  let expression = `${pk} = :pk`;
  const sortValues: Record<string, PlainValue> = {};
  const s = spec.sort;
  if (s) {
    const sk = nameRef(s.attribute, '#sk', names);
    if (s.op === 'between') {
      expression += ` AND ${sk} BETWEEN :sk1 AND :sk2`;
      sortValues[':sk1'] = plain(s.value, s.type, 'the sort-key value');
      sortValues[':sk2'] = plain(s.value2 ?? '', s.type, 'the second sort-key value');
    } else if (s.op === 'begins_with') {
      expression += ` AND begins_with(${sk}, :sk)`;
      sortValues[':sk'] = s.value;
    } else {
      expression += ` AND ${sk} ${s.op} :sk`;
      sortValues[':sk'] = plain(s.value, s.type, 'the sort-key value');
    }
  }
  return { expression, names, sortValues };
}

/** Every shard's Query input, in shard order. */
export function buildQueries(spec: ExprSpec): ShardQuery[] {
  const { expression, names, sortValues } = expressionOf(spec);
  const hasNames = Object.keys(names).length > 0;
  return spec.shards.map((shard) => ({
    shard,
    ...(spec.index ? { IndexName: spec.index } : {}),
    KeyConditionExpression: expression,
    ...(hasNames ? { ExpressionAttributeNames: { ...names } } : {}),
    ExpressionAttributeValues: { ':pk': keyOfShard(spec.template, shard), ...sortValues },
  }));
}
