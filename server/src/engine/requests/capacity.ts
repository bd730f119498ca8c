/**
 * DynamoDB's per-partition limits and the sizing rule ShardLens suggests shard
 * counts by. Messages, hovers and the panel all read them from here.
 */

/** One partition serves at most this many write units per second. */
export const WRITE_UNITS_PER_PARTITION = 1000;
/** ...and this many (strongly consistent) read units per second. */
export const READ_UNITS_PER_PARTITION = 3000;

/** Plan each shard for 80% of a partition's write ceiling: headroom for uneven spread. */
export const PLANNED_WRITE_UNITS_PER_SHARD = 800;

/** The shards a key needs for an expected peak write rate: ceil(peak / 800), at least 1. */
export function shardsForPeak(peakWriteUnits: number): number {
  if (!Number.isFinite(peakWriteUnits) || peakWriteUnits <= 0) return 1;
  return Math.max(1, Math.ceil(peakWriteUnits / PLANNED_WRITE_UNITS_PER_SHARD));
}

/** The shard count to suggest: sized from the peak when it is set, else the default. */
export function suggestedShardCount(peakWriteUnits: number, defaultCount: number): number {
  return peakWriteUnits > 0 ? shardsForPeak(peakWriteUnits) : defaultCount;
}

/** One formatter for every message: `toLocaleString` builds a new one on each call. */
const UNITS = new Intl.NumberFormat('en-US');

export const formatUnits = (x: number): string => UNITS.format(x);

/** `1,000 WCU/s` or `3,000 RCU/s`: the cap one key meets for this kind of request. */
export function capText(kind: 'read' | 'write'): string {
  return kind === 'write'
    ? `${formatUnits(WRITE_UNITS_PER_PARTITION)} WCU/s`
    : `${formatUnits(READ_UNITS_PER_PARTITION)} RCU/s`;
}

/** DynamoDB bills a write per started KB of item. */
export function writeUnitsPerItem(itemBytes: number): number {
  return Math.max(1, Math.ceil(itemBytes / 1024));
}
