/**
 * What a file tells other files of a table's keys: the tables it defines (each front-end's
 * `tableDefinitions`, `frontends/table-definitions.ts` for code) merged with what its calls
 * name (`keysTold`), and the hints a call's request is read with (`withDefinitions`).
 */
import type { KeyNames, KeySchemaHints, TableDefinition, TableHint } from '../model/call-site';
import type { Access } from '../model';
import { tableKey } from '../keys/table';
import { isAlias } from './request-keys';

/** Hints learned from calls, completed by table definitions (what the calls say wins). */
export function withDefinitions(hints: KeySchemaHints, definitions: readonly TableDefinition[]): KeySchemaHints {
  if (definitions.length === 0) return hints;
  const out: KeySchemaHints = new Map(hints);
  for (const [table, def] of definitions) {
    const known = out.get(table) ?? {};
    // The file's own names first, then the indexes only the definition names: the same order
    // whichever definitions were known when the file was analysed (a warm run knows them all).
    const indexes = { ...known.indexes, ...def.indexes, ...known.indexes };
    const others = otherNames(known, def);
    out.set(table, {
      partition: known.partition ?? def.partition,
      sort: known.partition ? known.sort : def.sort,
      ...(Object.keys(indexes).length ? { indexes } : {}),
      ...(others.length ? { others } : {}),
    });
  }
  return out;
}

/**
 * The key names a definition tells beside those already known, when they differ. Kept so that
 * the hint does not depend on which file's definition came first: the CLI's analysis thread
 * reads a file with no definitions and the language server with those indexed before it.
 */
function otherNames(known: TableHint, def: TableHint): KeyNames[] {
  const others = known.others ?? [];
  if (!known.partition || !def.partition || def.partition === known.partition) return others;
  if (others.some((o) => o.partition === def.partition)) return others;
  return [...others, { partition: def.partition, ...(def.sort ? { sort: def.sort } : {}) }];
}

const NAMES_ONLY_KEYS = new Set(['GetItem', 'UpdateItem', 'DeleteItem', 'Query']);

/**
 * What this file's calls tell other files of a table's key names: `IndexName:
 * "by-state"` with `state = :s` names the index's keys; a `Key` or a key condition on
 * the table names the table's own (so a writer elsewhere whose item spreads its key in,
 * `{ ...input, createdAt }`, is not read by position).
 */
export function keysTold(accesses: readonly Access[]): TableDefinition[] {
  const out: TableDefinition[] = [];
  const seen = new Set<string>();
  for (const a of accesses) {
    if (!NAMES_ONLY_KEYS.has(a.operation) || !a.partitionKey || a.table.kind === 'unknown') continue;
    if (a.through || a.guessed || isAlias(a.partitionKey.attribute)) continue;
    // A write reaches an index only through the attributes its item sets (index-writes.ts):
    // that index's name and keys are the definition's, or a guess from the attribute names
    // (`gsi1pk` → `GSI1`), which would be told to every file as the table's own.
    if (a.kind === 'write' && a.index) continue;
    const keys: KeyNames = { partition: a.partitionKey.attribute, ...(a.sortKey ? { sort: a.sortKey.attribute } : {}) };
    const told: TableDefinition = [tableKey(a.table), a.index ? { indexes: { [a.index]: keys } } : keys];
    // Told once per file: every call of a table names the same keys, and each file's list is read by all.
    const id = JSON.stringify(told);
    if (!seen.has(id)) out.push(told);
    seen.add(id);
  }
  return out;
}
