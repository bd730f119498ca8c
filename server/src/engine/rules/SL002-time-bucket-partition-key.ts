import type { Rule } from './rule';

export const timeBucketPartitionKey: Rule = {
  code: 'SL002',
  category: 'time-bucket-partition-key',
  defaultSeverity: 'warning',
  summary: 'Every write in the current time bucket hits one key.',
  check({ access, classification, keyTemplate, tableName }) {
    if (classification !== 'time-bucket' || access.kind !== 'write') return null;
    return (
      `Partition key "${keyTemplate}" on ${tableName} is built from the current date/time with no shard part: ` +
      `every write in this period lands on one partition (1,000 WCU/s) while older ones sit idle. ` +
      `Append a shard suffix ("${keyTemplate}#<shard>") and read by querying every shard.`
    );
  },
};
