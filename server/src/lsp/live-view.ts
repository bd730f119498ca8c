import type { CodeLens } from 'vscode-languageserver';
import { Commands, type ShowKeyArgs } from '../../../protocol/src/commands';
import { type Access, tableName } from '../engine';
import { codeLensTitle, liveLine, resolveTable, throttlesFor, type HeatReport } from '../heat/offline';
import type { LiveHover } from './hover';
import { spanToRange } from './convert';
import { liveOf } from './live-findings';

/**
 * What the editor shows of live heat on the code: the hover's live line and the code
 * lens above a key with live data. Plain functions of the accesses and the last
 * linked reports; they never fetch.
 */

/** The report of the table (and index) an access addresses, if one was read. */
function reportOf(reports: HeatReport[], a: Access, tables: Record<string, string>): HeatReport | null {
  const name = tableName(a.table);
  const table = name === null ? null : resolveTable(name, tables);
  return reports.find((r) => r.table === table && r.index === (a.index ?? null)) ?? null;
}

/**
 * The hover's live line for an access: what calls of its kind did to its key (a reader
 * is never shown its writers' throttles), with the throttles it may have met, or — when its table was read
 * but the key is not among the contributors — that it is not. Null without a report.
 */
export function hoverLiveLine(reports: HeatReport[], a: Access, tables: Record<string, string> = {}): LiveHover | null {
  const live = liveOf(reports, a);
  if (live) return { line: liveLine(live.report, live.heat, a.kind), throttles: throttlesFor(live.heat, a.kind) };
  const report = reportOf(reports, a, tables);
  return report ? { line: liveLine(report, null), throttles: 0 } : null;
}

/** One code lens per key with live data, above its partition-key expression; one per key and line. */
export function heatLenses(uri: string, accesses: Access[], reports: HeatReport[]): CodeLens[] {
  if (reports.length === 0) return [];
  const lenses: CodeLens[] = [];
  const seen = new Set<string>();
  for (const a of accesses) {
    if (!a.partitionKey) continue;
    const live = liveOf(reports, a);
    if (!live) continue;
    // What calls of this kind did: a reader that never ran gets no lens.
    const title = codeLensTitle(live.report, live.heat, a.kind);
    if (!title) continue;
    const range = spanToRange(a.partitionKey.span);
    const id = `${range.start.line}:${live.heat.key.id}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const args: ShowKeyArgs = {
      logicalKey: live.heat.key.id,
      table: live.report.table,
      index: live.report.index,
      uri,
      range,
    };
    lenses.push({
      range,
      command: { title, command: Commands.showKey, arguments: [args] },
    });
  }
  return lenses;
}
