// DynamoDB's limits on what a request may carry, checked by the lab itself
// because dynalite either does not check them or checks them wrongly:
// - attribute values nested more than 32 levels deep (dynalite recurses into
//   them without a bound: a value 5,000 levels deep overflowed the stack);
// - key and item sizes in UTF-8 bytes (dynalite counts UTF-16 characters, so
//   a partition key of 1,025 "é", 2,050 bytes, passed its 2,048 check).
// The messages are the service's, as its clients report them.

import type { Attrs } from './dynalite-engine';
import { validationError, type ServiceError } from './errors';
import { itemSize, valueSize, type AttributeValue } from './item-size';
import type { Resource } from './table-catalog';

/** Levels an attribute value may span: the top-level attribute is level 1, each list or map adds one. */
export const MAX_NESTING_LEVELS = 32;
export const MAX_PARTITION_KEY_BYTES = 2048;
export const MAX_SORT_KEY_BYTES = 1024;
export const MAX_ITEM_BYTES = 400 * 1024;

/**
 * JSON depth past which no valid request can go: a value of 32 levels is 63
 * JSON levels (`{"L":[` is two per level), under at most six levels of request
 * structure (BatchWriteItem: RequestItems, table, list, PutRequest, Item).
 * Bodies deeper than this are refused before they are parsed at all.
 */
export const MAX_REQUEST_JSON_DEPTH = 2 * MAX_NESTING_LEVELS + 16;

export function nestingError(): ServiceError {
  return validationError(
    'Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit',
  );
}

/**
 * Whether a JSON text nests objects and arrays deeper than `max`. One pass
 * over the bytes, no recursion and no allocation, so it is safe on any input
 * (brackets inside strings do not count; multi-byte UTF-8 never contains the
 * ASCII bytes it looks for).
 */
export function jsonDeeperThan(text: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Levels of one attribute value, without recursion (the value may come from anywhere). */
export function valueLevels(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, level] = stack.pop()!;
    if (level > deepest) deepest = level;
    if (level > MAX_NESTING_LEVELS) return level; // enough to refuse it
    if (!v || typeof v !== 'object') continue;
    const av = v as AttributeValue;
    if (Array.isArray(av.L)) for (const x of av.L) stack.push([x, level + 1]);
    else if (av.M && typeof av.M === 'object' && !Array.isArray(av.M))
      for (const x of Object.values(av.M as Attrs)) stack.push([x, level + 1]);
  }
  return deepest;
}

/** Members holding attribute maps (name → value), lists of them, single values and lists of values. */
const ATTRIBUTE_MAP = new Set(['Item', 'Key', 'ExclusiveStartKey', 'ExpressionAttributeValues']);
const ATTRIBUTE_MAP_LIST = new Set(['Keys']);
const ATTRIBUTE_VALUE = new Set(['Value']);
const ATTRIBUTE_VALUE_LIST = new Set(['AttributeValueList']);

/**
 * The nesting error for a request any of whose attribute values (items, keys,
 * expression values, legacy conditions and updates, in any operation) spans
 * more than 32 levels; null otherwise. Walks the request without recursion.
 */
export function nestingProblem(request: unknown): ServiceError | null {
  const values: unknown[] = [];
  const stack: unknown[] = [request];
  const mapValues = (m: unknown) => {
    if (m && typeof m === 'object' && !Array.isArray(m)) values.push(...Object.values(m));
  };
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const x of node) stack.push(x);
      continue;
    }
    for (const [name, v] of Object.entries(node)) {
      if (ATTRIBUTE_MAP.has(name)) mapValues(v);
      else if (ATTRIBUTE_MAP_LIST.has(name) && Array.isArray(v)) v.forEach(mapValues);
      else if (ATTRIBUTE_VALUE.has(name)) values.push(v);
      else if (ATTRIBUTE_VALUE_LIST.has(name) && Array.isArray(v)) values.push(...v);
      else stack.push(v);
    }
    for (const v of values.splice(0)) if (valueLevels(v) > MAX_NESTING_LEVELS) return nestingError();
  }
  return null;
}

const keyBytes = (v: unknown): number => {
  const av = v as AttributeValue | undefined;
  if (!av || typeof av !== 'object') return 0;
  if (typeof av.S === 'string') return Buffer.byteLength(av.S, 'utf8');
  if (typeof av.B === 'string') return Buffer.from(av.B, 'base64').length;
  return 0; // numbers are always small enough
};

/** The key size error for a key (or whole item) of `resource`, in UTF-8 bytes; null when it fits. */
export function keySizeProblem(resource: Resource, key: Attrs): ServiceError | null {
  if (keyBytes(key[resource.hashKey]) > MAX_PARTITION_KEY_BYTES) {
    return validationError(
      'One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of' +
        `${MAX_PARTITION_KEY_BYTES} bytes`,
    );
  }
  if (resource.rangeKey !== undefined && keyBytes(key[resource.rangeKey]) > MAX_SORT_KEY_BYTES) {
    return validationError(
      'One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of ' +
        `${MAX_SORT_KEY_BYTES} bytes`,
    );
  }
  return null;
}

/** Key sizes first (as the service reports them), then the 400 KB item size. */
export function itemProblem(resource: Resource, item: Attrs): ServiceError | null {
  return (
    keySizeProblem(resource, item) ??
    (itemSize(item) > MAX_ITEM_BYTES ? validationError('Item size has exceeded the maximum allowed size') : null)
  );
}

/** An UpdateItem value that alone exceeds the item size limit (the service names its placeholder). */
export function updateValuesProblem(values: unknown): ServiceError | null {
  if (!values || typeof values !== 'object') return null;
  for (const [name, v] of Object.entries(values as Attrs)) {
    if (valueSize(v as AttributeValue) > MAX_ITEM_BYTES) {
      return validationError(
        `ExpressionAttributeValues contains invalid value: Item size has exceeded the maximum allowed size for key ${name}`,
      );
    }
  }
  return null;
}
