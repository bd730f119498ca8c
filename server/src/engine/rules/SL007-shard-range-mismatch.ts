import type { Access } from '../model';
import { finding, isScatterGather, sameTable, shardHoleOf, shardedWriters, shardsText, type GroupRule } from './group';

function values(a: Access): number[] | null {
  return shardHoleOf(a)?.shards?.values ?? null;
}

function list(xs: number[]): string {
  return xs.length > 8 ? `${xs.slice(0, 8).join(', ')}, …` : xs.join(', ');
}

/**
 * Writers and readers of one logical key that disagree on the shard set: a reader
 * looping 0..9 over keys written 1..10 misses shard 10 and queries an empty shard 0.
 */
export const shardRangeMismatch: GroupRule = {
  code: 'SL007',
  category: 'shard-range-mismatch',
  defaultSeverity: 'error',
  summary: 'Writers and readers of one logical key disagree on the shard set.',
  check(group, severity) {
    const writers = shardedWriters(group).filter((w) => values(w.access) !== null);
    if (writers.length === 0) return [];
    const out = [];
    // Readers against every writer they share a table with.
    for (const read of group.accesses) {
      const got = values(read);
      if (!isScatterGather(read) || !got) continue;
      for (const { access: w } of writers) {
        if (!sameTable(w, read)) continue;
        const want = values(w)!;
        const missing = want.filter((x) => !got.includes(x));
        const extra = got.filter((x) => !want.includes(x));
        if (missing.length === 0 && extra.length === 0) continue;
        const parts = [
          missing.length ? `misses shard${missing.length > 1 ? 's' : ''} ${list(missing)}` : '',
          extra.length ? `queries shard${extra.length > 1 ? 's' : ''} ${list(extra)} that no writer writes` : '',
        ].filter(Boolean);
        out.push(
          finding(
            this,
            severity,
            read,
            `This reader loops over ${shardsText(read)} but ${group.where(w)} writes ${shardsText(w)}: it ` +
              `${parts.join(' and ')}. Use one shard constant for both sides.`,
          ),
        );
        break;
      }
    }
    // Writers that disagree with an earlier writer of the same key.
    for (let i = 1; i < writers.length; i++) {
      const w = writers[i].access;
      const first = writers.slice(0, i).find((x) => sameTable(x.access, w) && !sameSet(values(x.access)!, values(w)!));
      if (!first) continue;
      out.push(
        finding(
          this,
          severity,
          w,
          `This writer uses ${shardsText(w)} but ${group.where(first.access)} writes the same key with ` +
            `${shardsText(first.access)}: no single reader loop can match both. Use one shard constant.`,
        ),
      );
    }
    return out;
  },
};

function sameSet(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
