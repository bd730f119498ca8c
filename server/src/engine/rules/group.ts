import type { Access, FileContexts, Hole, RelatedLocation, ShardCount, SourceRange } from '../model';
import { logicalKeyOf, shardShape, type ShardShape } from '../keys/logical-key';
import { sameTable } from '../keys/table';
import { describeShards, holes, render } from '../model/template';

/** The accesses of one logical key across the workspace, as the cross-file rules see them. */
export interface KeyGroup {
  /** What the accesses share: the logical key without its table (see `familyOf`). */
  key: string;
  /** In path order, so which writer a message names does not depend on the order files arrived in. */
  accesses: Access[];
  /** `path:line` for messages, relative to the workspace root. */
  where(a: Access): string;
  /** The role and project of every file the accesses involve, as the analysis found them. */
  files: FileContexts;
}

/** The project of an access's file ('' when none is known). */
export function projectOf(g: KeyGroup, a: Access): string {
  return g.files[a.file]?.project ?? '';
}

export function shardHoleOf(a: Access): Hole | undefined {
  return a.partitionKey ? holes(a.partitionKey.template).find((h) => h.kind === 'shard') : undefined;
}

/** Writes that put a shard part into the key (one chosen once per process does not shard: SL010). */
export function shardedWriters(g: KeyGroup): Array<{ access: Access; shape: ShardShape }> {
  const out: Array<{ access: Access; shape: ShardShape }> = [];
  for (const a of g.accesses) {
    const once = shardHoleOf(a)?.once;
    const shape = a.kind === 'write' && a.partitionKey && !once ? shardShape(a.partitionKey.template) : null;
    if (shape) out.push({ access: a, shape });
  }
  return out;
}

/** Reads that loop over a shard set: a scatter-gather reader. */
export function isScatterGather(a: Access): boolean {
  const h = shardHoleOf(a);
  return a.kind === 'read' && !!h && (h.shards?.method === 'loop' || h.shards?.method === 'list');
}

export function keyOf(a: Access): string {
  return a.partitionKey ? render(a.partitionKey.template) : '?';
}

export function shardsText(a: Access): string {
  return describeShards(shardHoleOf(a)?.shards);
}

/** The shard numbers of an access's shard part, when known. */
export function shardValues(a: Access): number[] | null {
  return shardHoleOf(a)?.shards?.values ?? null;
}

/**
 * The shard count an access's shard part uses: the count expression when the front-end
 * found one (`BOARD_SHARDS`), else the size of a known shard set.
 */
export function shardCountOfAccess(a: Access): ShardCount | null {
  const s = shardHoleOf(a)?.shards;
  if (!s) return null;
  if (s.count) return s.count;
  const n = s.values?.length;
  return n ? { expression: String(n), name: null, declaration: null, value: n } : null;
}

/** The separator a sharded key puts before its shard part (`#` in `BOARD#global#{shard}`, '' for none), or null. */
export function shardSeparatorOf(a: Access): string | null {
  return shardHoleOf(a) && a.partitionKey ? (shardShape(a.partitionKey.template)?.separator ?? null) : null;
}

/** Where an access's key is: its partition key expression, else the call. */
export function keySite(a: Access): SourceRange {
  return { file: a.file, span: a.partitionKey?.span ?? a.span };
}

/** The writer of a key, as a related location of a reader's finding. */
export function writerLocation(w: Access, message: string): RelatedLocation {
  return { ...keySite(w), message };
}

/**
 * Whether two call sites of one key shape address the same item collection, as the
 * code links them: both name the same literal table; or they may address the same
 * table (one unknown, or the same environment variable) and sit in the same project
 * (nearest package.json, pyproject.toml, requirements.txt or setup.py). Another
 * service's unnamed table, or its `$TABLE`, is another table.
 */
export function linked(g: KeyGroup, a: Access, b: Access): boolean {
  if (!sameTable(a.table, b.table)) return false;
  // A literal table name is the table; an environment variable is set by each service's own deployment.
  return (
    (a.table.kind === 'literal' && b.table.kind === 'literal') ||
    a.file === b.file ||
    projectOf(g, a) === projectOf(g, b)
  );
}

/** An id for where an access's table lives: the literal table, else the table in its project. */
export function tableScopeKey(g: KeyGroup, a: Access): string {
  const t = a.table;
  const table = t.kind === 'unknown' ? '*' : `${t.kind}:${t.name}`;
  return t.kind === 'literal' ? table : `${table}@${projectOf(g, a)}`;
}

/**
 * Whether a key shape says enough to link call sites through it: a template made
 * only of holes (`{entity-id}#{shard}`) matches every key of its shape in every
 * service, which is no evidence that two calls share a key.
 */
export function linkable(g: KeyGroup): boolean {
  const first = g.accesses.find((a) => a.partitionKey);
  const key = first ? logicalKeyOf(first) : null;
  return !!key && key.template.parts.some((p) => 'literal' in p && p.literal.trim() !== '');
}
