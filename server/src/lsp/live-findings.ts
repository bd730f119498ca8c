import type { Access, Finding, Span } from '../engine';
import { heatForAccess, hotKeyLiveFindings, withLiveUse, type HeatReport } from '../heat/offline';

/**
 * A file's findings with what live data adds, as `shardlens check --heat` does: a
 * finding whose key has live figures is judged read-hot or write-hot by them and gets
 * the window's throttles and share appended to its message, and SL009 (hot-key-live) findings join at the key's call sites.
 * With no report the findings come back as they were (the same array).
 */
export function withLiveFindings(file: string, findings: Finding[], reports: HeatReport[]): Finding[] {
  if (reports.length === 0) return findings;
  const out = findings.map((f) => withLiveUse(reports, f));
  const seen = new Set<string>();
  for (const report of reports) {
    for (const f of hotKeyLiveFindings(report)) {
      // One key read on a table and its index is reported once per call site.
      const id = `${f.file}:${spanId(f.span)}`;
      if (f.file !== file || seen.has(id)) continue;
      seen.add(id);
      out.push(f);
    }
  }
  return out.sort((a, b) => a.span.startLine - b.span.startLine || a.span.startColumn - b.span.startColumn);
}

const spanId = (s: Span) => `${s.startLine}:${s.startColumn}-${s.endLine}:${s.endColumn}`;

/** The live figures of an access in the first report that has them. */
export function liveOf(reports: HeatReport[], access: Access) {
  for (const report of reports) {
    const heat = heatForAccess(report, access);
    if (heat) return { report, heat };
  }
  return null;
}
