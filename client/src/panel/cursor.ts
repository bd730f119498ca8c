/**
 * Which logical key the editor's cursor is on: the key whose call site's partition-key
 * expression (from `shardlens/keys`) contains the position, else one whose call site
 * starts on the cursor's line. Plain data in, a display form out.
 */
import type { JsonKeysReport } from '../../../protocol/src/report';

export function keyAt(report: JsonKeysReport, file: string, line: number, column: number): string | null {
  let onLine: string | null = null;
  for (const t of report.tables)
    for (const ix of t.indexes)
      for (const k of ix.keys)
        for (const s of k.sites) {
          if (s.file !== file) continue;
          const afterStart = line > s.line || (line === s.line && column >= s.column);
          const beforeEnd = line < s.endLine || (line === s.endLine && column <= s.endColumn);
          if (afterStart && beforeEnd) return k.logicalKey;
          if (s.line === line) onLine ??= k.logicalKey;
        }
  return onLine;
}
