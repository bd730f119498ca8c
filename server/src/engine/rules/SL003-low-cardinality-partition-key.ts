import type { Access } from '../model';
import { holes } from '../model/template';
import { addShardSuffix, partitionKeyClaim } from './finding';
import type { AccessRule } from './rule';

/** `` `status`, `tier` ``: the low-cardinality values a key is made of, as the code writes them. */
export function fewValuesText(a: Access): string {
  const from = holes(a.partitionKey!.template)
    .filter((h) => h.kind === 'low-cardinality')
    .map((h) => h.source.replace(/\s+/g, ' '))
    .filter((s) => s.length <= 40);
  return from.length > 0 ? `\`${from.join('`, `')}\`` : 'a status, type, flag or small set';
}

export const lowCardinalityPartitionKey: AccessRule = {
  scope: 'access',
  code: 'SL003',
  category: 'low-cardinality-partition-key',
  defaultSeverity: 'warning',
  summary: 'A key made only of low-cardinality values concentrates traffic on its most common value.',
  fixKinds: ['add-shard-suffix', 'cache-read'],
  // As for SL001, the last five are the workspace's words once it knows how the key is used (key-use.ts).
  messages: {
    fewValues: 'a partition key made only of a few distinct values (status, type, flag)',
    readHot: 'a read of a read-hot low-cardinality key: cache each value, a write shard would not help',
    rarelyWritten: 'a write of a read-hot low-cardinality key: cache its reads rather than shard it',
    hotBothRead: 'a read of a low-cardinality key hot both ways: cache the reads, at the cost of staleness',
    hotBothWrite: 'a write of a low-cardinality key hot both ways: shard the writes, at the cost of dearer reads',
    cachedRead:
      'a read of a low-cardinality key served through the in-process cache: about one request per value and TTL',
  },
  messageSeverities: { rarelyWritten: 'info', cachedRead: 'info' },
  check(input) {
    const { access, key, classification, shardCount } = input;
    if (classification !== 'low-cardinality') return null;
    const claim = `${partitionKeyClaim(input, 'takes only a few distinct values')} (${fewValuesText(access)})`;
    // The cache fix's output: each value's read reaches its partition about once per TTL per process.
    if (access.cachedBy)
      return {
        access,
        messageId: 'cachedRead',
        message:
          `${claim}, but this read is served from memory through ${access.cachedBy}: each running process ` +
          `sends it about once per value and TTL, not once per request.`,
        fixes: [],
      };
    return {
      access,
      messageId: 'fewValues',
      message:
        `${claim}: the most common value takes most of the traffic on one partition. Lead with a ` +
        `high-cardinality attribute (an entity id) or add a shard suffix.`,
      fixes: access.kind === 'write' ? [addShardSuffix(access, key, shardCount, input.shardSeparator)] : [],
    };
  },
};
