import { logicalKeyOf } from '../keys/logical-key';
import { isScatterGather, shardsText } from './group';
import type { KeyRule } from './rule';

/**
 * A scatter-gather read that wants every item but reads one page per shard: a shard
 * holding more than 1 MB comes back partial, and nothing says so.
 */
export const scatterGatherPagination: KeyRule = {
  scope: 'key',
  code: 'SL008',
  category: 'scatter-gather-pagination',
  defaultSeverity: 'warning',
  summary: 'A scatter-gather read that ignores LastEvaluatedKey returns partial shards.',
  fixKinds: ['paginate-shards'],
  messages: { onePagePerShard: 'a scatter-gather Query that reads one page per shard' },
  check(group) {
    return group.accesses
      .filter((a) => isScatterGather(a) && a.operation === 'Query' && !a.paginated && !a.limited)
      .map((a) => ({
        access: a,
        messageId: 'onePagePerShard',
        message:
          `This scatter-gather Query over ${shardsText(a)} reads one page per shard and ignores LastEvaluatedKey: ` +
          `a shard with more than 1 MB of items comes back partial. Loop on LastEvaluatedKey ` +
          `(ExclusiveStartKey) or use a paginator for each shard.`,
        fixes: [{ kind: 'paginate-shards' as const, key: logicalKeyOf(a)!.id }],
      }));
  },
};
