import { literalShardOf } from '../workspace/logical-key';
import { finding, isScatterGather, keyOf, sameTable, shardHoleOf, shardedWriters, type GroupRule } from './group';

/**
 * A key written with a shard suffix but read without it (or through one shard only):
 * the read silently misses every other shard's items.
 */
export const unshardedReadOfShardedKey: GroupRule = {
  code: 'SL006',
  category: 'unsharded-read-of-sharded-key',
  defaultSeverity: 'error',
  summary: 'A read of a sharded key that queries the bare key or a single shard misses most of the data.',
  check(group, severity) {
    const writers = shardedWriters(group);
    if (writers.length === 0) return [];
    const out = [];
    for (const read of group.accesses) {
      if (read.kind !== 'read' || !read.partitionKey || isScatterGather(read)) continue;
      const writer = writers.find((w) => sameTable(w.access, read));
      if (!writer) continue;
      const w = writer.access;
      const written = `${keyOf(w)} (${group.where(w)})`;
      const hole = shardHoleOf(read);
      const literal = hole ? null : literalShardOf(read.partitionKey.template, writer.shape);
      let what: string | null = null;
      if (!hole && literal === null) what = `reads "${keyOf(read)}" without the shard suffix`;
      else if (literal !== null) what = `reads only shard ${literal} ("${keyOf(read)}")`;
      // Only a recognised random expression: a helper known by its name alone (`shardOf(id)`) may be a hash.
      else if (read.operation === 'Query' && hole?.shards?.method === 'random' && hole.shards.values)
        what = 'queries one random shard';
      if (!what) continue;
      out.push(
        finding(
          this,
          severity,
          read,
          `This ${read.operation} ${what}, but the key is written sharded as ${written}: it silently ` +
            `misses the items on the other shards. Query every shard and merge the results.`,
        ),
      );
    }
    return out;
  },
};
