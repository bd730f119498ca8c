/**
 * The tables a file's constructions give the wrappers it calls (`TableGiven`): read from
 * the caller's copies of a wrapper's calls whose table came from the instance's
 * construction (`Access.injected`), whether or not the copy is judged at the caller. One
 * per wrapper call site and table.
 */
import type { Access, TableGiven } from '../model';
import { tableKey } from '../keys/table';
import { siteKey } from './coverage';

export function tablesGivenBy(accesses: readonly Access[]): TableGiven[] {
  const out = new Map<string, TableGiven>();
  for (const a of accesses) {
    if (!a.through || !a.injected?.length || a.table.kind === 'unknown') continue;
    const id = `${siteKey(a.through.file, a.through.span)}\0${tableKey(a.table)}`;
    if (!out.has(id)) out.set(id, { through: a.through, table: a.table, injected: a.injected });
  }
  return [...out.values()];
}
