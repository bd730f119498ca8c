import type { Rule } from './rule';

export const constantPartitionKey: Rule = {
  code: 'SL001',
  category: 'constant-partition-key',
  defaultSeverity: 'error',
  summary: 'Every request for this logical key lands on one partition.',
  check({ access, classification, keyTemplate, tableName }) {
    if (classification !== 'constant') return null;
    const verb = access.kind === 'write' ? 'writes' : 'reads';
    return (
      `Partition key "${keyTemplate}" on ${tableName} is a constant: all ${verb} of it hit one partition, ` +
      `capped at 1,000 WCU / 3,000 RCU per second. Add a shard suffix (e.g. "${keyTemplate}#<0..N-1>") ` +
      `and read by querying every shard, or cache it if it is read-hot.`
    );
  },
};
