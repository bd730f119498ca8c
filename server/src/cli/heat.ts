import type { FileAnalysis, Finding, WorkspaceIndex } from '../engine';
import type { JsonHeatFailure } from '../../../protocol/src/heat';
import {
  getHeat,
  hotKeyLiveFindings,
  resolveTable,
  toJsonHeat,
  toJsonProblem,
  unmappedProblem,
  withLiveUse,
} from '../heat';
import { problemText, formatHeatText } from '../heat/text';
import type { HeatConnection, HeatReport } from '../heat/types';
import type { AwsOptions, HeatOptions } from './args';
import { displayPath } from './report';

/**
 * `shardlens heat` prints one table's (or index's) live report linked to the code;
 * `check --heat` reads the reports of the tables the code uses and adds their
 * evidence to the findings, plus SL009 hot-key-live findings. Both go through the
 * heat service (server/src/heat), as the language server does.
 */

const connectionOf = (o: AwsOptions): HeatConnection => ({
  endpoint: o.endpoint,
  profile: o.profile,
  region: o.region,
});

export async function heatCommand(
  options: HeatOptions,
  index: WorkspaceIndex,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const table = resolveTable(options.table, options.tableMap ?? {});
  if (table === null) {
    // Never sent: `$SCORES_TABLE_NAME` is the code's name, not the account's.
    err.write(`shardlens heat: ${unmappedProblem([options.table]).message}\n`);
    return 2;
  }
  const outcome = await getHeat(
    connectionOf(options),
    {
      table,
      index: options.index,
      window: options.window,
      periodSeconds: options.periodSeconds,
      aliases: table === options.table ? [] : [options.table],
    },
    index,
  );
  if (!outcome.ok) {
    err.write(`shardlens heat: ${outcome.problem.message}\n`);
    if (outcome.problem.command) err.write(`  ${outcome.problem.command}\n`);
    if (options.format === 'json') {
      const failure: JsonHeatFailure = { version: 1, error: toJsonProblem(outcome.problem) };
      out.write(JSON.stringify(failure, null, 2) + '\n');
    }
    return 1;
  }
  if (options.format === 'json') out.write(JSON.stringify(toJsonHeat(outcome.report, displayPath), null, 2) + '\n');
  else out.write(formatHeatText(outcome.report, displayPath));
  return 0;
}

/**
 * The tables and indexes `check --heat` reads, as the account names them: those named
 * (else every table of the code with its indexes), an environment-named one through
 * `--map-table`. The environment names with no mapping come back apart: never sent.
 */
function resources(
  index: WorkspaceIndex,
  tables: string[],
  map: Record<string, string>,
): { resources: Array<{ table: string; index: string | null; aliases: string[] }>; unmapped: string[] } {
  const out: Array<{ table: string; index: string | null; aliases: string[] }> = [];
  const unmapped: string[] = [];
  const add = (code: string, ix: string | null) => {
    const table = resolveTable(code, map);
    if (table === null) return void (unmapped.includes(code) || unmapped.push(code));
    let r = out.find((x) => x.table === table && x.index === ix);
    if (!r) out.push((r = { table, index: ix, aliases: [] }));
    if (code !== table && !r.aliases.includes(code)) r.aliases.push(code);
  };
  const wanted = tables.map((t) => resolveTable(t, map) ?? t);
  for (const t of index.keys()) {
    if (t.table === null) continue;
    if (tables.length && !wanted.includes(resolveTable(t.table, map) ?? t.table)) continue;
    for (const ix of t.indexes) add(t.table, ix.index);
  }
  // A table named on the command line that the code names only through a variable.
  for (const t of tables) if (!out.some((r) => r.table === (resolveTable(t, map) ?? t))) add(t, null);
  return { resources: out, unmapped };
}

/**
 * The results with live evidence: a finding whose key has live data is judged
 * read-hot or write-hot by it (when the window tells reads from writes) and gets the
 * window's throttle count and share appended to its message, and SL009 findings join
 * their files. Reports that cannot be read are explained on stderr; the findings stay.
 */
export async function withLiveEvidence(
  results: FileAnalysis[],
  index: WorkspaceIndex,
  aws: AwsOptions & { tables: string[] },
  err: NodeJS.WritableStream,
): Promise<FileAnalysis[]> {
  const reports: HeatReport[] = [];
  const { resources: toRead, unmapped } = resources(index, aws.tables, aws.tableMap ?? {});
  if (unmapped.length) err.write(`shardlens: ${unmappedProblem(unmapped).message}\n`);
  for (const r of toRead) {
    const outcome = await getHeat(
      connectionOf(aws),
      { ...r, window: aws.window, periodSeconds: aws.periodSeconds },
      index,
    );
    if (!outcome.ok) {
      err.write(
        `shardlens: live data for ${r.index ? `${r.table}/${r.index}` : r.table}: ${problemText(outcome.problem).replace(/^note: /, '')}\n`,
      );
      // One connection: a credentials or network failure would repeat for every table.
      if (!['table-not-found', 'index-not-found', 'access-denied'].includes(outcome.problem.code)) break;
      continue;
    }
    for (const p of outcome.report.problems)
      err.write(`shardlens: ${outcome.report.table}: ${problemText(p).replace(/^note: /, '')}\n`);
    reports.push(outcome.report);
  }
  if (reports.length === 0) return results;

  const live = new Map<string, Finding[]>();
  for (const report of reports)
    for (const f of hotKeyLiveFindings(report)) live.set(f.file, [...(live.get(f.file) ?? []), f]);
  return results.map((r) => {
    const findings = r.findings.map((f) => withLiveUse(reports, f));
    const added = live.get(r.file) ?? [];
    if (added.length === 0 && findings.every((f, i) => f === r.findings[i])) return r;
    return {
      ...r,
      findings: [...findings, ...added].sort(
        (a, b) => a.span.startLine - b.span.startLine || a.span.startColumn - b.span.startColumn,
      ),
    };
  });
}
