import { type FileAnalysis, type Severity, subjectOf } from '../engine';
import { percentUnderstood, type JsonCoverage } from '../../../protocol/src/report';
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
    const { dynamodb, kafka } = callCounts(results);
    const files = results.filter((r) => !r.skipped && !r.infrastructure).length;
    const total = counts.error + counts.warning + counts.info;
    // Kafka producer calls are counted apart: calling them DynamoDB calls misleads.
    const calls = kafka
      ? `${plural(dynamodb, 'DynamoDB call')} and ${plural(kafka, 'Kafka producer call')}`
      : plural(dynamodb, 'DynamoDB call');
    lines.push(
      `${lines.length ? '\n' : ''}${plural(total, 'finding')} (${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ` +
        `${counts.info} info) in ${calls} across ${plural(files, 'file')}.`,
    );
  }
  return lines.join('\n') + '\n';
}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

/**
 * The results' calls by what they call, each access counted once by its subject: DynamoDB
 * requests, and Kafka producer records (SL020). A tenant routed by a hash (SL021) is no
 * call of any store: it is not counted.
 */
export function callCounts(results: ReadonlyArray<Pick<FileAnalysis, 'accesses'>>): {
  dynamodb: number;
  kafka: number;
} {
  const counts = { dynamodb: 0, kafka: 0 };
  for (const r of results)
    for (const a of r.accesses) {
      const subject = subjectOf(a);
      if (subject === null) counts.dynamodb++;
      else if (subject === 'kafka') counts.kafka++;
    }
  return counts;
}

/** One stderr line per file or folder that was not analysed, with why. */
export function formatSkipped(skipped: SkippedPath[]): string {
  return skipped.map((s) => `shardlens: skipped ${s.file}: ${s.reason}\n`).join('');
}

/** Sites listed per reason in text; JSON lists them all. */
const SITES_SHOWN = 5;

/**
 * `--stats`: how many calls were understood, then each reason with its count and its
 * first sites (`file:line:col  pk from event.pk`), so a quiet run can be told from a
 * run that could not read the code.
 */
export function formatStats(c: JsonCoverage, color: boolean, kafka = 0): string {
  const paint = (code: string, s: string) => (color ? `${code}${s}${RESET}` : s);
  const calls = c.calls ?? 0;
  const resolved = c.resolved ?? 0;
  const unresolved = c.unresolved ?? [];
  // With Kafka producer calls among them, the count is of calls of either kind.
  const noun = kafka ? 'DynamoDB or Kafka producer call' : 'DynamoDB call';
  const plural = (n: number) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const failed = (c.failures ?? []).map((f) => `  ${paint(BOLD, f.file)}  ${f.stage}: ${paint(DIM, f.message)}`);
  const failures = failed.length
    ? `Analysis failed in part (an engine bug; the rest of each file is reported):\n${failed.join('\n')}\n`
    : '';
  if (calls === 0) return 'Coverage: no DynamoDB calls found.\n' + failures;
  const reach = reachLine(c, calls, noun);
  if (unresolved.length === 0) return `Coverage: all ${plural(calls)} understood.\n` + reach + failures;
  const lines = [
    `Coverage: ${resolved} of ${plural(calls)} understood (${percentUnderstood(resolved, calls)}%); not understood:`,
  ];
  const width = String(Math.max(...unresolved.map((u) => u.count))).length;
  for (const u of unresolved) {
    lines.push(`  ${String(u.count).padStart(width)}  ${u.label}`);
    for (const s of u.sites.slice(0, SITES_SHOWN))
      lines.push(
        `  ${' '.repeat(width)}    ${paint(BOLD, `${s.file}:${s.line}:${s.column}`)}  ${paint(DIM, s.detail)}`,
      );
    const more = u.sites.length - SITES_SHOWN;
    if (more > 0)
      lines.push(`  ${' '.repeat(width)}    ${paint(DIM, `… and ${more} more (--format json lists them all)`)}`);
  }
  return lines.join('\n') + '\n' + reach + failures;
}

/** How many calls an entry point is known to reach (docs/entry-points.md), when the pass ran. */
function reachLine(c: JsonCoverage, calls: number, noun: string): string {
  const e = c.entryPoints;
  if (!e) return '';
  const pct = Math.floor((100 * e.reached) / calls);
  const none = e.unreached ? `; ${e.unreached} reached from no entry point` : '';
  return `Entry points: ${e.reached} of ${calls} ${noun}${calls === 1 ? '' : 's'} reached from a known entry point (${pct}%)${none}.\n`;
}
