/**
 * Where the code uses each environment-named table (`$SCORES_TABLE_NAME`), from the keys
 * report: the call sites the pick of unmapped tables shows beside each name, so the user
 * can tell which table of the account it is. No `vscode` import: tested in plain Node.
 */
import type { JsonKeysReport } from '../../protocol/src/report';
import { plural } from '../../protocol/src/plural';

/** The distinct `file:line` call sites of a table, in the report's order. */
export function tableUses(report: JsonKeysReport | null, table: string): string[] {
  const out: string[] = [];
  for (const t of report?.tables ?? []) {
    if (t.table !== table) continue;
    for (const ix of t.indexes)
      for (const k of ix.keys)
        for (const s of k.sites) {
          const at = `${s.file}:${s.line}`;
          if (!out.includes(at)) out.push(at);
        }
  }
  return out;
}

/** One line for the pick: the first sites, and how many more. */
export function usesLine(uses: string[], shown = 3): { count: string; where: string } {
  const more = uses.length > shown ? ` and ${uses.length - shown} more` : '';
  return {
    count: uses.length ? `used at ${plural(uses.length, 'call site')}` : 'no call site read',
    where: uses.slice(0, shown).join(' · ') + more,
  };
}
