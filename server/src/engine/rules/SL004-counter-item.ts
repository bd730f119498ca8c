import type { Rule } from './rule';

export const counterItem: Rule = {
  code: 'SL004',
  category: 'counter-item',
  defaultSeverity: 'warning',
  summary: 'An atomic counter item that every request passes through is one hot key.',
  check({ classification, keyTemplate, tableName }) {
    if (classification !== 'counter') return null;
    return (
      `This update increments a counter on the single item "${keyTemplate}" on ${tableName}: every caller ` +
      `passes through that one item, capped at 1,000 WCU/s. Generate ids client-side (UUID/ULID), or ` +
      `spread the count over N counter items with a random suffix and sum them on read.`
    );
  },
};
