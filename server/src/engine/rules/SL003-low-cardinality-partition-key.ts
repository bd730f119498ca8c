import { holes } from '../model/template';
import { addShardSuffix, partitionKeyClaim } from './finding';
import type { AccessRule } from './rule';

export const lowCardinalityPartitionKey: AccessRule = {
  scope: 'access',
  code: 'SL003',
  category: 'low-cardinality-partition-key',
  defaultSeverity: 'warning',
  summary: 'A key made only of low-cardinality values concentrates traffic on its most common value.',
  fixKinds: ['add-shard-suffix'],
  messages: { fewValues: 'a partition key made only of a few distinct values (status, type, flag)' },
  check(input) {
    const { access, key, classification, shardCount } = input;
    if (classification !== 'low-cardinality') return null;
    const from = holes(access.partitionKey!.template)
      .filter((h) => h.kind === 'low-cardinality')
      .map((h) => h.source.replace(/\s+/g, ' '))
      .filter((s) => s.length <= 40);
    const what = from.length > 0 ? `\`${from.join('`, `')}\`` : 'a status, type, flag or small set';
    return {
      access,
      messageId: 'fewValues',
      message:
        `${partitionKeyClaim(input, 'takes only a few distinct values')} (${what}): the most ` +
        `common value takes most of the traffic on one partition. Lead with a high-cardinality attribute ` +
        `(an entity id) or add a shard suffix.`,
      fixes: access.kind === 'write' ? [addShardSuffix(access, key, shardCount, input.shardSeparator)] : [],
    };
  },
};
