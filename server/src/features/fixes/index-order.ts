import type { Access, InfraTable } from '../../engine';
import type { FixContext } from './fix-model';

/**
 * The sort key of the index a Query reads, as infrastructure code declares it: code
 * querying a global index seldom names the index's sort key (`ScanIndexForward: false` on
 * a leaderboard sorted by `score` says only "descending"), but the template declaring the
 * table does (`scoreIndex: gameTitle HASH, score RANGE`). A reader of every shard merges
 * the shards in that order. Null when the read is on no index, the table is not declared,
 * the templates disagree, or the index has no sort key.
 */
export function declaredIndexSortKey(ctx: FixContext, q: Access): string | null {
  if (!q.index || !ctx.tables) return null;
  const sortKeys = new Set<string | null>();
  for (const t of ctx.tables()) {
    if (!declares(t, q)) continue;
    for (const i of t.indexes) if (i.name === q.index) sortKeys.add(i.sortKey?.name ?? null);
  }
  return sortKeys.size === 1 ? [...sortKeys][0] : null;
}

/** Whether `t` is the table the access names: the resource its environment variable is set to, or by name. */
function declares(t: InfraTable, a: Access): boolean {
  const ref = a.table;
  if (ref.kind === 'unknown') return false;
  if (ref.fromEnv?.logicalId) return ref.fromEnv.logicalId === t.logicalId && ref.fromEnv.file === t.source.file;
  return ref.kind === 'literal' && t.tableName === ref.name;
}
