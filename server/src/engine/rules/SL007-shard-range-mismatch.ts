import type { Access, FixDescriptor } from '../model';
import { logicalKeyOf } from '../keys/logical-key';
import {
  isScatterGather,
  keySite,
  linkable,
  linked,
  shardValues,
  shardedWriters,
  shardsText,
  tableScopeKey,
  writerLocation,
} from './group';
import type { KeyRule, Report } from './rule';

function list(xs: number[]): string {
  return xs.length > 8 ? `${xs.slice(0, 8).join(', ')}, …` : xs.join(', ');
}

/** One shard set as the writers of a key use it: the first writer of each (table, set). */
interface SetOfWriters {
  first: Access;
  values: number[];
  has: Set<number>;
  signature: string;
}

/**
 * Writers and readers of one logical key that disagree on the shard set: a reader
 * looping 0..9 over keys written 1..10 misses shard 10 and queries an empty shard 0.
 *
 * Shard sets are compared once per distinct (table or project, set), not once per writer: a key
 * written from thousands of files has only a few distinct sets, so the rule is linear
 * in the number of call sites.
 */
export const shardRangeMismatch: KeyRule = {
  scope: 'key',
  code: 'SL007',
  category: 'shard-range-mismatch',
  defaultSeverity: 'error',
  summary: 'Writers and readers of one logical key disagree on the shard set.',
  fixKinds: ['align-shard-range'],
  messages: {
    readerMisses: 'a scatter-gather reader whose shard loop differs from the writers’ shard set',
    writersDisagree: 'a writer whose shard set differs from an earlier writer’s',
  },
  check(group) {
    const out: Report[] = [];
    if (!linkable(group)) return out;
    // Writers in order; a writer whose set differs from an earlier writer's (same table) is reported.
    const sets: SetOfWriters[] = [];
    const seen = new Set<string>();
    for (const { access: w } of shardedWriters(group)) {
      const values = shardValues(w);
      if (!values) continue;
      const signature = [...values].sort((a, b) => a - b).join(',');
      const earlier = sets.find((s) => linked(group, s.first, w) && s.signature !== signature);
      if (earlier) out.push(writerDisagrees(w, earlier, group.where(earlier.first)));
      const id = `${tableScopeKey(group, w)}\u0000${signature}`;
      if (!seen.has(id)) {
        seen.add(id);
        sets.push({ first: w, values, has: new Set(values), signature });
      }
    }
    if (sets.length === 0) return out;
    // Readers against the first writer set (in writer order) they share a table with and disagree with.
    for (const read of group.accesses) {
      const got = shardValues(read);
      if (!isScatterGather(read) || !got) continue;
      const gotSet = new Set(got);
      for (const s of sets) {
        if (!linked(group, s.first, read)) continue;
        const missing = s.values.filter((x) => !gotSet.has(x));
        const extra = got.filter((x) => !s.has.has(x));
        if (missing.length === 0 && extra.length === 0) continue;
        const parts = [
          missing.length ? `misses shard${missing.length > 1 ? 's' : ''} ${list(missing)}` : '',
          extra.length ? `queries shard${extra.length > 1 ? 's' : ''} ${list(extra)} that no writer writes` : '',
        ].filter(Boolean);
        out.push({
          access: read,
          messageId: 'readerMisses',
          message:
            `This reader loops over ${shardsText(read)} but ${group.where(s.first)} writes ${shardsText(s.first)}: it ` +
            `${parts.join(' and ')}. Use one shard constant for both sides.`,
          related: [writerLocation(s.first, `writes ${shardsText(s.first)} here`)],
          fixes: [align(s.first, s.values, got)],
        });
        break;
      }
    }
    return out;
  },
};

function writerDisagrees(w: Access, earlier: SetOfWriters, where: string): Report {
  return {
    access: w,
    messageId: 'writersDisagree',
    message:
      `This writer uses ${shardsText(w)} but ${where} writes the same key with ` +
      `${shardsText(earlier.first)}: no single reader loop can match both. Use one shard constant.`,
    related: [writerLocation(earlier.first, `writes ${shardsText(earlier.first)} here`)],
    fixes: [align(earlier.first, earlier.values, shardValues(w)!)],
  };
}

function align(writer: Access, want: number[], have: number[]): FixDescriptor {
  return { kind: 'align-shard-range', key: logicalKeyOf(writer)!.id, want, have, writer: keySite(writer) };
}
