import { capText } from '../requests/capacity';
import { addShardSuffix, partitionKeyClaim } from './finding';
import type { AccessRule } from './rule';

export const constantPartitionKey: AccessRule = {
  scope: 'access',
  code: 'SL001',
  category: 'constant-partition-key',
  defaultSeverity: 'error',
  summary: 'Every request for this logical key lands on one partition.',
  fixKinds: ['add-shard-suffix', 'cache-read'],
  // The last four are the workspace's words once it knows how the key is used (key-use.ts).
  messages: {
    constantWrite: 'a write of one constant partition key: shard it',
    constantRead: 'a read of one constant partition key: cache it or shard it',
    readHot: 'a read of a read-hot constant key: cache it, a write shard would not help',
    rarelyWritten: 'a write of a read-hot constant key: cache its reads rather than shard it',
    hotBothRead: 'a read of a key hot both ways: cache the reads, at the cost of staleness',
    hotBothWrite: 'a write of a key hot both ways: shard the writes, at the cost of dearer reads',
    cachedRead: 'a read of a constant key served through the in-process cache: about one request per TTL',
  },
  messageSeverities: { rarelyWritten: 'info', cachedRead: 'info' },
  check(input) {
    const { access, key, classification, keyTemplate, shardCount } = input;
    if (classification !== 'constant') return null;
    const write = access.kind === 'write';
    // The cache fix's output: the read reaches the partition about once per TTL per process.
    if (access.cachedBy)
      return {
        access,
        messageId: 'cachedRead',
        message:
          `${partitionKeyClaim(input, 'is a constant')}, but this read is served from memory through ` +
          `${access.cachedBy}: each running process sends it about once per TTL, not once per request.`,
        fixes: [],
      };
    const cap = `all ${write ? 'writes' : 'reads'} of it hit one partition, capped at ${capText(access.kind)}`;
    const shard = write ? addShardSuffix(access, key, shardCount, input.shardSeparator) : null;
    const fix = shard
      ? `Add a shard suffix (e.g. "${keyTemplate}${shard.separator}<0..N-1>") and read by querying every shard.`
      : 'Cache it if it is read-hot, or shard the key and query every shard.';
    return {
      access,
      messageId: write ? 'constantWrite' : 'constantRead',
      message: `${partitionKeyClaim(input, 'is a constant')}: ${cap}. ${fix}`,
      fixes: shard ? [shard] : [],
    };
  },
};
