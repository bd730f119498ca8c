import type { JsonHeatReport } from '../../../protocol/src/heat';
import type { HeatProblem, HeatReport } from './types';

/**
 * The report in the JSON contract (protocol/src/heat.ts, docs/heat.md): plain values,
 * 1-based lines. `pathOf` writes a file as the reader wants it (the CLI: relative to
 * the current folder; the language server: relative to the workspace folder).
 */
export function toJsonHeat(r: HeatReport, pathOf: (file: string) => string = (f) => f): JsonHeatReport {
  return {
    version: 1,
    table: r.table,
    index: r.index,
    window: r.window,
    from: new Date(r.startMs).toISOString(),
    to: new Date(r.endMs).toISOString(),
    periodSeconds: r.periodSeconds,
    mode: r.mode,
    billingMode: r.billingMode,
    totalUnits: r.totalUnits,
    keys: r.keys.map((k) => ({
      logicalKey: k.key.id,
      template: k.template,
      sites: uniqueSites(
        k.sites.map((s) => ({
          file: pathOf(s.file),
          line: s.span.startLine + 1,
          kind: s.kind,
          operation: s.access.operation,
        })),
      ),
      rank: k.rank,
      consumedUnits: k.consumedUnits,
      share: k.share,
      throttles: k.throttles,
      peakUnitsPerSecond: k.peakUnitsPerSecond,
      operations: k.operations,
      shards: k.shards,
      shardBalance: k.shardBalance,
      topKeys: k.topKeys,
      topItems: k.topItems,
    })),
    unmatched: r.unmatched,
    metrics: r.metrics,
    problems: r.problems.map(toJsonProblem),
  };
}

export function toJsonProblem(p: HeatProblem): JsonHeatReport['problems'][number] {
  return { code: p.code, message: p.message, command: p.command };
}

function uniqueSites<T extends { file: string; line: number; kind: string; operation: string }>(sites: T[]): T[] {
  const seen = new Set<string>();
  return sites.filter((s) => {
    const id = `${s.file}:${s.line}:${s.kind}:${s.operation}`;
    return !seen.has(id) && seen.add(id);
  });
}
