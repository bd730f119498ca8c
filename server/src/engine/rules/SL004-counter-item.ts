import { capText } from '../requests/capacity';
import { onSomePaths } from './finding';
import type { AccessRule } from './rule';

export const counterItem: AccessRule = {
  scope: 'access',
  code: 'SL004',
  category: 'counter-item',
  defaultSeverity: 'warning',
  summary: 'An atomic counter item that every request passes through is one hot key.',
  fixKinds: ['spread-counter'],
  messages: { counterItem: 'an increment of one counter item every caller passes through' },
  check({ access, key, classification, keyTemplate, tableName }) {
    if (classification !== 'counter') return null;
    return {
      access,
      messageId: 'counterItem',
      message:
        `This update increments a counter on the single item "${keyTemplate}" on ${tableName}` +
        `${onSomePaths(access.partitionKey)}: every caller ` +
        `passes through that one item, capped at ${capText('write')}. Spread the count over N counter items ` +
        `with a random suffix and sum them on read; a counter that hands out ids needs no item at all ` +
        `(generate them client-side: UUID/ULID).`,
      fixes: [{ kind: 'spread-counter', key: key.id }],
    };
  },
};
