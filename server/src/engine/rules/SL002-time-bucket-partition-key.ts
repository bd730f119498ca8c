import { capText } from '../requests/capacity';
import { addShardSuffix, partitionKeyClaim } from './finding';
import type { AccessRule } from './rule';

export const timeBucketPartitionKey: AccessRule = {
  scope: 'access',
  code: 'SL002',
  category: 'time-bucket-partition-key',
  defaultSeverity: 'warning',
  summary: 'Every write in the current time bucket hits one key.',
  fixKinds: ['add-shard-suffix'],
  messages: { timeBucketWrite: 'a write to the current date or hour as the partition key, with no shard part' },
  check(input) {
    const { access, key, classification, keyTemplate, shardCount } = input;
    if (classification !== 'time-bucket' || access.kind !== 'write') return null;
    // The message names the separator the fix will write, so the two never disagree.
    const shard = addShardSuffix(access, key, shardCount, input.shardSeparator);
    return {
      access,
      messageId: 'timeBucketWrite',
      message:
        `${partitionKeyClaim(input, 'is built from the current date/time with no shard part')}: ` +
        `every write in this period lands on one partition (${capText('write')}) while older ones sit idle. ` +
        `Append a shard suffix ("${keyTemplate}${shard.separator}<shard>") and read by querying every shard.`,
      fixes: [shard],
    };
  },
};
