import { literalText } from '../model/template';
import { capText } from '../requests/capacity';
import { onSomePaths } from './finding';
import { fewValuesText } from './SL003-low-cardinality-partition-key';
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
    // A key of a few values (`name` checked against a two-name list): a few counter items, each as hot.
    const one = literalText(access.partitionKey!.template) !== null;
    const item = one
      ? `the single item "${keyTemplate}"`
      : `one of a few items, "${keyTemplate}" (${fewValuesText(access)} takes only a few values),`;
    return {
      access,
      messageId: 'counterItem',
      message:
        `This update increments a counter on ${item} on ${tableName}` +
        `${onSomePaths(access.partitionKey)}: every caller ` +
        `passes through ${one ? 'that one item' : 'those few items'}, capped at ${capText('write')}${one ? '' : ' each'}. Spread the count over N counter items ` +
        `with a random suffix and sum them on read; a counter that hands out ids needs no item at all ` +
        `(generate them client-side: UUID/ULID).`,
      fixes: [{ kind: 'spread-counter', key: key.id }],
    };
  },
};
