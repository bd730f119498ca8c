import type { Rule } from './rule';

export const lowCardinalityPartitionKey: Rule = {
  code: 'SL003',
  category: 'low-cardinality-partition-key',
  defaultSeverity: 'warning',
  summary: 'A key made only of low-cardinality values concentrates traffic on its most common value.',
  check({ classification, keyTemplate, tableName }) {
    if (classification !== 'low-cardinality') return null;
    return (
      `Partition key "${keyTemplate}" on ${tableName} takes only a few distinct values (a status, type, flag or ` +
      `small set): the most common value takes most of the traffic on one partition. Lead with a ` +
      `high-cardinality attribute (an entity id) or add a shard suffix.`
    );
  },
};
