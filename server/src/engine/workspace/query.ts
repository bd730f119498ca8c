import type { FileAnalysis } from '../analyze';
import { logicalKeyOf, logicalKeysOf } from '../keys/logical-key';
import type { KeyPattern } from '../keys/matcher';
import type { Access, Finding, KeyTemplate, LogicalKey, Operation, ShardSet, Span } from '../model';
import { keySite } from '../rules/group';
import { shardSetOf } from '../model/template';

/**
 * The workspace's keys as plain data, for `shardlens keys`, the panel and anything that
 * lists or links keys: tables → indexes → logical keys → call sites.
 *
 * Tables are sorted by name (an unknown table, `null`, last), indexes with the base
 * table (`null`) first, keys by id, call sites in path and line order. A read of one
 * literal shard (`BOARD#global#3`) is listed under the sharded key it is a shard of
 * when the workspace has one, else under its own key.
 */
export interface TableEntry {
  /** `leaderboard`, `$EVENTS_TABLE`, or null when the calls do not say. */
  table: string | null;
  indexes: IndexEntry[];
}

export interface IndexEntry {
  /** The GSI/LSI name, or null for the table's own key. */
  index: string | null;
  keys: KeyEntry[];
}

export interface KeyEntry {
  /** The logical key; `shards` is the first sharded writer's set (else the first sharded reader's). */
  key: LogicalKey;
  sites: CallSiteEntry[];
}

export interface CallSiteEntry {
  kind: 'read' | 'write';
  operation: Operation;
  file: string;
  /** The partition key expression at its use site (zero-based). */
  span: Span;
  /** This call's own full template, shard part included. */
  template: KeyTemplate;
  shards: ShardSet | null;
  /** The findings on this call, cross-file ones included. */
  findings: Finding[];
  access: Access;
}

/** Lists the keys of analyses whose findings already include the cross-file ones. */
export function listKeys(results: FileAnalysis[]): TableEntry[] {
  // Which keys some call shards: a literal-shard read joins those.
  const sharded = new Set<string>();
  for (const r of results) for (const a of r.accesses) if (logicalKeyOf(a)?.shards) sharded.add(logicalKeyOf(a)!.id);

  const keys = new Map<string, KeyEntry>();
  const shownRank = new Map<KeyEntry, number>();
  for (const r of results) {
    const findingsOf = new Map<Access, Finding[]>();
    for (const f of r.findings) {
      const list = findingsOf.get(f.access);
      if (list) list.push(f);
      else findingsOf.set(f.access, [f]);
    }
    for (const a of r.accesses) {
      const [own, parent] = logicalKeysOf(a);
      if (!own) continue;
      const key = parent && sharded.has(parent.id) ? parent : own;
      let entry = keys.get(key.id);
      if (!entry) keys.set(key.id, (entry = { key, sites: [] }));
      // The key shows the shard set its writers use; a reader's only while no writer shards it.
      const rank = key.shards ? (a.kind === 'write' ? 2 : 1) : 0;
      if (rank > (shownRank.get(entry) ?? (entry.key.shards ? 1 : 0))) {
        entry.key = key;
        shownRank.set(entry, rank);
      }
      const template = a.partitionKey!.template;
      entry.sites.push({
        kind: a.kind,
        operation: a.operation,
        file: a.file,
        span: keySite(a).span,
        template,
        shards: shardSetOf(template),
        findings: findingsOf.get(a) ?? [],
        access: a,
      });
    }
  }

  const tables = new Map<string | null, Map<string | null, KeyEntry[]>>();
  for (const entry of keys.values()) {
    let indexes = tables.get(entry.key.table);
    if (!indexes) tables.set(entry.key.table, (indexes = new Map()));
    const list = indexes.get(entry.key.index);
    if (list) list.push(entry);
    else indexes.set(entry.key.index, [entry]);
  }
  return [...tables]
    .sort(([a], [b]) => nullsLast(a, b))
    .map(([table, indexes]) => ({
      table,
      indexes: [...indexes]
        .sort(([a], [b]) => (a === null ? -1 : b === null ? 1 : a.localeCompare(b)))
        .map(([index, list]) => ({ index, keys: list.sort((x, y) => x.key.id.localeCompare(y.key.id)) })),
    }));
}

function nullsLast(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a.localeCompare(b);
}

/** Every call site's full template with its logical key: what concrete keys are matched against. */
export function* keyPatterns(analyses: Iterable<FileAnalysis>): Generator<KeyPattern> {
  for (const r of analyses) {
    for (const a of r.accesses) {
      const key = logicalKeyOf(a);
      if (key) yield { key, template: a.partitionKey!.template };
    }
  }
}
