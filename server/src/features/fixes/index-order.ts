import type { Access, InfraTable } from '../../engine';
import { memoized, type FixContext } from './fix-model';

/**
 * The sort key of the index a Query reads, as infrastructure code or a table created in
 * code (`CreateTableCommand`, `create_table`, the CDK) declares it: code
 * querying a global index seldom names the index's sort key (`ScanIndexForward: false` on
 * a leaderboard sorted by `score` says only "descending"), but the template declaring the
 * table does (`scoreIndex: gameTitle HASH, score RANGE`). A reader of every shard merges
 * the shards in that order. Null when the read is on no index, the table is not declared,
 * the templates disagree, or the index has no sort key.
 */
export function declaredIndexSortKey(ctx: FixContext, q: Access): string | null {
  if (!q.index) return null;
  const sortKeys = new Set<string | null>();
  for (const t of ctx.tables?.() ?? []) {
    if (!declares(t, q)) continue;
    for (const i of t.indexes) if (i.name === q.index) sortKeys.add(i.sortKey?.name ?? null);
  }
  if (sortKeys.size === 0) for (const s of definedInCode(ctx, q)) sortKeys.add(s);
  return sortKeys.size === 1 ? [...sortKeys][0] : null;
}

/**
 * The index's sort keys the workspace's files define for the table the access names by
 * its literal name (`definitions`: tables created in code, and the keys queries through
 * the index name). A query that names no sort key tells nothing of it: only the names are kept.
 */
function definedInCode(ctx: FixContext, q: Access): string[] {
  if (q.table.kind !== 'literal') return [];
  // As the engine keys a table by its literal name (`literal:players`).
  const table = `literal:${q.table.name}`;
  return memoized(ctx, q, 'index-sort-in-code', () => {
    const out = new Set<string>();
    for (const file of ctx.files?.() ?? [q.file]) {
      for (const [name, hint] of ctx.analysisOf(file)?.definitions ?? []) {
        const sort = name === table ? hint.indexes?.[q.index!]?.sort : undefined;
        if (sort) out.add(sort);
      }
    }
    return [...out];
  });
}

/** Whether `t` is the table the access names: the resource its environment variable is set to, or by name. */
function declares(t: InfraTable, a: Access): boolean {
  const ref = a.table;
  if (ref.kind === 'unknown') return false;
  if (ref.fromEnv?.logicalId) return ref.fromEnv.logicalId === t.logicalId && ref.fromEnv.file === t.source.file;
  return ref.kind === 'literal' && t.tableName === ref.name;
}
