import type { Access } from '../model';
import { literalShardOf, logicalKeyOf, type ShardShape } from '../keys/logical-key';
import { shardSetOf } from '../model/template';
import {
  isScatterGather,
  keyOf,
  type KeyGroup,
  keySite,
  linkable,
  projectOf,
  shardHoleOf,
  shardedWriters,
  tableScopeKey,
  writerLocation,
} from './group';
import type { KeyRule, Report } from './rule';

type Writer = { access: Access; shape: ShardShape };

/**
 * A key written with a shard suffix but read without it (or through one shard only):
 * the read silently misses every other shard's items.
 */
export const unshardedReadOfShardedKey: KeyRule = {
  scope: 'key',
  code: 'SL006',
  category: 'unsharded-read-of-sharded-key',
  defaultSeverity: 'error',
  summary: 'A read of a sharded key that queries the bare key or a single shard misses most of the data.',
  supersedes: ['SL001'],
  fixKinds: ['scatter-gather-reader'],
  messages: {
    bareKey: 'a read of a sharded key without its shard suffix',
    oneShard: 'a read of a sharded key through one literal shard',
    randomShard: 'a Query of a sharded key through one random shard',
  },
  check(group) {
    const writers = shardedWriters(group);
    if (writers.length === 0 || !linkable(group)) return [];
    const firstWriterOf = firstWriterByTable(group, writers);
    const out: Report[] = [];
    for (const read of group.accesses) {
      if (read.kind !== 'read' || !read.partitionKey || isScatterGather(read)) continue;
      const writer = firstWriterOf(read);
      if (!writer) continue;
      const w = writer.access;
      const hole = shardHoleOf(read);
      const literal = hole ? null : literalShardOf(read.partitionKey.template, writer.shape);
      let what: string | null = null;
      let messageId = 'bareKey';
      if (!hole && literal === null) what = `reads "${keyOf(read)}" without the shard suffix`;
      else if (literal !== null) [what, messageId] = [`reads only shard ${literal} ("${keyOf(read)}")`, 'oneShard'];
      // Only a recognised random expression: a helper known by its name alone (`shardOf(id)`) may be a hash.
      else if (read.operation === 'Query' && hole?.shards?.method === 'random' && hole.shards.values)
        [what, messageId] = ['queries one random shard', 'randomShard'];
      if (!what) continue;
      const key = logicalKeyOf(w)!.id;
      out.push({
        access: read,
        messageId,
        message:
          `This ${read.operation} ${what}, but the key is written sharded as ${keyOf(w)} (${group.where(w)}): it ` +
          `silently misses the items on the other shards. Query every shard and merge the results.`,
        related: [writerLocation(w, `written sharded as ${keyOf(w)} here`)],
        fixes: [
          { kind: 'scatter-gather-reader', key, shards: shardSetOf(w.partitionKey!.template)!, writer: keySite(w) },
        ],
      });
    }
    return out;
  },
};

/**
 * The first sharded writer (in group order) a read is linked to (see `linked`): of its
 * literal table anywhere, of its environment-named or unknown table in its project, or
 * of an unknown table in its project. One pass over the writers, then a few lookups
 * per read.
 */
function firstWriterByTable(group: KeyGroup, writers: Writer[]): (read: Access) => Writer | undefined {
  const order = new Map<Writer, number>(writers.map((w, i) => [w, i]));
  const first = new Map<string, Writer>();
  const add = (k: string, w: Writer) => {
    if (!first.has(k)) first.set(k, w);
  };
  for (const w of writers) {
    const project = projectOf(group, w.access);
    const scope = tableScopeKey(group, w.access);
    add(scope, w);
    add(`any@${project}`, w);
  }
  return (read) => {
    const project = projectOf(group, read);
    if (read.table.kind === 'unknown') return first.get(`any@${project}`);
    const candidates = [first.get(tableScopeKey(group, read)), first.get(`*@${project}`)].filter(
      (w): w is Writer => !!w,
    );
    return candidates.sort((a, b) => order.get(a)! - order.get(b)!)[0];
  };
}
