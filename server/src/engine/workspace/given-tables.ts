/**
 * The table of a wrapper's own call, given by the constructions its callers make
 * (`FileAnalysis.tablesGiven`, `TableGiven`): a repository module cannot name the table
 * its methods send requests on (`self._table`, `TableName: this.tableName`), the handler
 * module that builds the instance can. Worked out over every file of the index, per
 * version of it, and put on the wrapper's own access where results hand it out
 * (`annotated`): its key, its findings and where they sit stay the wrapper's.
 */
import type { FileAnalysis } from '../analyze';
import { tableKey, tableName } from '../keys/table';
import type { Access, SourceRange, TableGiven, TableRef } from '../model';
import { bySite, siteKey } from '../requests/coverage';

export interface GivenTable {
  /** The one table every construction gives, or an unknown table with the `candidates` they give. */
  table: TableRef;
  /** Every construction seen, in file and position order. */
  injected: SourceRange[];
}

/** Wrapper call site → the table its callers' constructions give. */
export function givenTables(analyses: Iterable<FileAnalysis>): Map<string, GivenTable> {
  const givenAt = new Map<string, TableGiven[]>();
  for (const r of analyses)
    for (const g of r.tablesGiven ?? []) {
      const key = siteKey(g.through.file, g.through.span);
      const list = givenAt.get(key);
      if (list) list.push(g);
      else givenAt.set(key, [g]);
    }
  const out = new Map<string, GivenTable>();
  for (const [key, given] of givenAt) {
    const tables = [...new Map(given.map((g) => [tableKey(g.table), g.table])).values()];
    const names = tables.map((t) => tableName(t)!).sort();
    const injected = given.flatMap((g) => g.injected).sort(bySite);
    // Constructions passing different tables: any of them, as a class's own constructions of one file give.
    out.set(key, { table: tables.length === 1 ? tables[0] : { kind: 'unknown', candidates: names }, injected });
  }
  return out;
}

/** The table callers give a wrapper's own access whose table its module does not know; undefined for any other. */
export function givenTableOf(a: Access, given: () => ReadonlyMap<string, GivenTable>): GivenTable | undefined {
  if (a.table.kind !== 'unknown' || a.table.candidates?.length || a.through || a.library) return undefined;
  return given().get(siteKey(a.file, a.span));
}

/** Whether two given tables say the same (each version of the index makes them anew). */
export function sameGivenTable(a: GivenTable | undefined, b: GivenTable | undefined): boolean {
  if (!a || !b) return a === b;
  const candidates = (g: GivenTable) => (g.table.kind === 'unknown' ? (g.table.candidates ?? []).join('\0') : '');
  return (
    tableKey(a.table) === tableKey(b.table) &&
    candidates(a) === candidates(b) &&
    a.injected.length === b.injected.length &&
    a.injected.every((x, i) => bySite(x, b.injected[i]) === 0)
  );
}
