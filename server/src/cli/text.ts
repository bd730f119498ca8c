import type { FileAnalysis } from '../engine/analyze';
import type { Severity } from '../engine/model';
import { displayPath, type SkippedPath } from './report';

const COLORS: Record<Severity, string> = { error: '\x1b[31m', warning: '\x1b[33m', info: '\x1b[36m' };
const DIM = '\x1b[2m';
const BOLD = '\x1b[1m';
const RESET = '\x1b[0m';

/** Compiler-style lines: `path:line:col severity SL001 message`. */
export function formatText(results: FileAnalysis[], color: boolean, quiet: boolean): string {
  const paint = (code: string, s: string) => (color ? `${code}${s}${RESET}` : s);
  const lines: string[] = [];
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const r of results) {
    for (const f of r.findings) {
      counts[f.severity]++;
      const where = `${displayPath(f.file)}:${f.span.startLine + 1}:${f.span.startColumn + 1}`;
      lines.push(`${paint(BOLD, where)} ${paint(COLORS[f.severity], f.severity)} ${paint(DIM, f.rule)} ${f.message}`);
    }
  }
  if (!quiet) {
    const accesses = results.reduce((n, r) => n + r.accesses.length, 0);
    const files = results.filter((r) => !r.skipped).length;
    const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
    const total = counts.error + counts.warning + counts.info;
    lines.push(
      `${lines.length ? '\n' : ''}${plural(total, 'finding')} (${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ` +
        `${counts.info} info) in ${plural(accesses, 'DynamoDB call')} across ${plural(files, 'file')}.`,
    );
  }
  return lines.join('\n') + '\n';
}

/** One stderr line per file or folder that was not analysed, with why. */
export function formatSkipped(skipped: SkippedPath[]): string {
  return skipped.map((s) => `shardlens: skipped ${s.file}: ${s.reason}\n`).join('');
}
