import { capText } from '../capacity';
import { onSomePaths } from './finding';
import type { AccessRule } from './rule';

export const counterItem: AccessRule = {
  scope: 'access',
  code: 'SL004',
  category: 'counter-item',
  defaultSeverity: 'warning',
  summary: 'An atomic counter item that every request passes through is one hot key.',
  check({ access, classification, keyTemplate, tableName }) {
    if (classification !== 'counter') return null;
    return {
      access,
      message:
        `This update increments a counter on the single item "${keyTemplate}" on ${tableName}` +
        `${onSomePaths(access.partitionKey)}: every caller ` +
        `passes through that one item, capped at ${capText('write')}. Spread the count over N counter items ` +
        `with a random suffix and sum them on read; a counter that hands out ids needs no item at all ` +
        `(generate them client-side: UUID/ULID).`,
    };
  },
};
