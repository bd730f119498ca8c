import type { Rule } from './rule';

export const constantPartitionKey: Rule = {
  code: 'SL001',
  category: 'constant-partition-key',
  defaultSeverity: 'error',
  summary: 'Every request for this logical key lands on one partition.',
  check({ access, classification, keyTemplate, tableName }) {
    if (classification !== 'constant') return null;
    const cap =
      access.kind === 'write'
        ? 'all writes of it hit one partition, capped at 1,000 WCU/s'
        : 'all reads of it hit one partition, capped at 3,000 RCU/s';
    const fix =
      access.kind === 'write'
        ? `Add a shard suffix (e.g. "${keyTemplate}#<0..N-1>") and read by querying every shard.`
        : 'Cache it if it is read-hot, or shard the key and query every shard.';
    return `Partition key "${keyTemplate}" on ${tableName} is a constant: ${cap}. ${fix}`;
  },
};
