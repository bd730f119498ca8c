import type { Classification } from '../model';
import { logicalKeyOf } from '../keys/logical-key';
import { capText } from '../requests/capacity';
import { classifyAccess, holes, render } from '../model/template';
import { addShardSuffix } from './finding';
import { declaredLabel } from './declared';
import type { TableReport, TableRule } from './rule';

/** What each classification of an index key means, by the message it gets. */
const JUDGED: Partial<Record<Classification, { id: string; what: (key: string, from: string) => string }>> = {
  constant: { id: 'constant', what: (key) => `a constant ("${key}")` },
  'time-bucket': { id: 'timeBucket', what: (key) => `the current date or hour with no shard part ("${key}")` },
  'low-cardinality': {
    id: 'fewValues',
    what: (key, from) => `a value with few distinct values (${from || `"${key}"`})`,
  },
};

/**
 * A global secondary index, defined in infrastructure code, whose partition-key attribute
 * the code's writes fill with a constant, a time bucket or a low-cardinality value. Each
 * such write is a write to the index partition of that value as well: a sparse "open
 * tickets" index keyed by `status` puts every open ticket on one index partition, and an
 * index that throttles throttles the table's writes. The index need never be queried by
 * name for this: the write is what makes it hot.
 */
export const hotIndexKey: TableRule = {
  scope: 'table',
  phase: 'accesses',
  code: 'SL012',
  category: 'hot-index-key',
  // A constant index key is as hot as a constant table key (SL001, which this replaces on
  // the index write): an error. A time bucket or a few values depend on the traffic.
  defaultSeverity: 'error',
  summary:
    'An index defined in infrastructure code whose partition key the writes fill with a constant, a time bucket or a few values.',
  // The same finding on the index write as the partition-key rules, said with the index's definition.
  supersedes: ['SL001', 'SL002', 'SL003'],
  fixKinds: ['add-shard-suffix'],
  messages: {
    constant: 'a write fills an index partition key with a constant',
    timeBucket: 'a write fills an index partition key with the current date or hour',
    fewValues: 'a write fills an index partition key with a value of few distinct values',
  },
  messageSeverities: { constant: 'error', timeBucket: 'warning', fewValues: 'warning' },
  check({ declared, accesses, where }) {
    const out: TableReport[] = [];
    for (const a of accesses) {
      if (a.kind !== 'write' || !a.index || !a.partitionKey || a.library) continue;
      const def = declared.table.indexes.find((i) => i.name === a.index && i.kind === 'global');
      if (!def || def.partitionKey.name !== a.partitionKey.attribute) continue;
      const judged = JUDGED[classifyAccess(a)];
      const key = logicalKeyOf(a);
      if (!judged || !key) continue;
      const template = render(a.partitionKey.template);
      const from = holes(a.partitionKey.template)
        .filter((h) => h.kind === 'low-cardinality')
        .map((h) => `\`${h.source.replace(/\s+/g, ' ')}\``)
        .filter((s) => s.length <= 42)
        .join(', ');
      const defined = declared.table.indexSources?.[def.name] ?? declared.table.source;
      const shard = addShardSuffix(a, key, null);
      out.push({
        access: a,
        messageId: judged.id,
        message:
          `Index "${def.name}" of ${declaredLabel(declared)} (${where(defined)}) is keyed by \`${def.partitionKey.name}\`, ` +
          `and this write fills it with ${judged.what(template, from)}: every write of this item goes to one ` +
          `index partition too, capped at ${capText('write')}, and an index that throttles throttles the table's writes. ` +
          `Add a shard suffix to the index key ("${template}${shard.separator}<0..N-1>") and query the index on every shard, ` +
          `or key the index by a high-cardinality attribute.`,
        related: [{ ...defined, message: `index "${def.name}" is defined here` }],
        fixes: [shard],
      });
    }
    return out;
  },
};
