/**
 * The partition visualizer's hash: 32-bit FNV-1a over the key's UTF-8 bytes, modulo the
 * partition count. It is a teaching model — DynamoDB's internal hash and its partition
 * boundaries are not public — chosen because it spreads distinct keys evenly, which is
 * all the lesson needs: one key always lands on one partition, however hot it is.
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export const partitionOf = (key: string, partitions: number): number => fnv1a(key) % partitions;

/** Writes per partition for a list of written keys (one entry per write). */
export function spread(keys: string[], partitions: number): number[] {
  const counts = new Array<number>(partitions).fill(0);
  for (const k of keys) counts[partitionOf(k, partitions)]++;
  return counts;
}

/**
 * The writes a template describes: `{n}` becomes the write's number (1..count), so
 * `USER#{n}` is `count` distinct keys and `BOARD#global` is one key written `count` times.
 */
export function writesOf(template: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => template.split('{n}').join(String(i + 1)));
}

/** The same writes with a shard suffix `#0..shards-1`, taken in turn (as a random suffix would, on average). */
export function withSuffix(keys: string[], shards: number): string[] {
  return keys.map((k, i) => `${k}#${i % shards}`);
}
