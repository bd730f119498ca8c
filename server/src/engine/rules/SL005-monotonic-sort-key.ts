import { capText } from '../requests/capacity';
import { holes } from '../model/template';
import { declarationLocations, declarationsOf, onSomePaths } from './finding';
import type { AccessRule } from './rule';

const CONCENTRATED = new Set(['constant', 'time-bucket', 'low-cardinality', 'counter']);

export const monotonicSortKey: AccessRule = {
  scope: 'access',
  code: 'SL005',
  category: 'monotonic-sort-key',
  defaultSeverity: 'info',
  summary: 'A timestamp or sequence sort key under a concentrated partition key cannot be split for heat.',
  fixKinds: [],
  messages: {
    monotonicSortKey: 'a timestamp or sequence sort key under a constant, time-bucket, few-valued or counter key',
  },
  check({ access, classification, keyTemplate, tableName }) {
    const sk = access.sortKey;
    if (!sk || access.kind !== 'write' || !CONCENTRATED.has(classification)) return null;
    const monotonic = holes(sk.template).some(
      (h) => (h.kind === 'time' && h.time === 'instant') || h.kind === 'counter',
    );
    if (!monotonic) return null;
    return {
      access,
      messageId: 'monotonicSortKey',
      // The sort key is what grows: the finding sits on it.
      span: sk.span,
      related: declarationLocations(declarationsOf(sk)),
      message:
        `Sort key ${sk.attribute} grows monotonically (a timestamp or sequence) under partition key ` +
        `"${keyTemplate}" on ${tableName}${onSomePaths(access.partitionKey)}: every new write goes to the same end ` +
        `of one item collection, so ` +
        `split-for-heat cannot split it and it stays capped at ${capText('write')}. Shard the partition key or lead it ` +
        `with a high-cardinality value.`,
    };
  },
};
