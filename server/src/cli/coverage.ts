import type { JsonCoverage } from '../../../protocol/src/report';
import { coverageOf, type FileAnalysis, type KeyValue, REASONS } from '../engine';
import { displayPath } from './report';

/**
 * How many key values the evaluators gave up on because they nest deeper than
 * evaluation follows (`MAX_DEPTH` levels): such a key comes out `{unknown}` and no rule
 * can judge it, so the output says how many there were instead of passing over them
 * in silence. The evaluators mark those holes (`limit: 'depth'`), so this is a count,
 * not a guess.
 */
export async function keysTooDeep(results: FileAnalysis[]): Promise<number> {
  let count = 0;
  for (const r of results) {
    for (const a of r.accesses) {
      for (const k of [a.partitionKey, a.sortKey]) if (k && stoppedByDepth(k)) count++;
    }
  }
  return count;
}

function stoppedByDepth(k: KeyValue): boolean {
  return k.template.parts.some((p) => 'hole' in p && p.hole.kind === 'unknown' && p.hole.limit === 'depth');
}

/**
 * The JSON `coverage` object: the fields it always had (files, keys too deep) and what
 * the engine's `coverageOf` says of the calls, with 1-based sites and each reason's words.
 */
export function toJsonCoverage(results: FileAnalysis[], tooDeep: number): JsonCoverage {
  const analysed = results.filter((r) => !r.skipped && !r.infrastructure);
  const c = coverageOf(analysed);
  return {
    files: analysed.length,
    keysTooDeep: tooDeep,
    calls: c.calls,
    resolved: c.resolved,
    unresolved: c.unresolved.map((u) => ({
      reason: u.reason,
      label: REASONS[u.reason].label,
      count: u.count,
      sites: u.sites.map((s) => ({
        file: displayPath(s.file),
        line: s.span.startLine + 1,
        column: s.span.startColumn + 1,
        detail: s.detail,
      })),
    })),
    ...failuresOf(results),
    entryPoints: entryPointsOf(results),
  };
}

/** Calls an entry point reaches, and calls none reaches in a project whose entry points are all known. */
function entryPointsOf(results: FileAnalysis[]): NonNullable<JsonCoverage['entryPoints']> {
  let reached = 0;
  let unreached = 0;
  for (const r of results)
    for (const a of r.accesses) {
      if (a.reach?.entryPoints.length) reached++;
      else if (a.reach?.unreached) unreached++;
    }
  return { reached, unreached };
}

const WHOLE_FILE_FAILED = 'analysis failed: ';

/** Each part of a file's analysis that threw, and each file whose analysis threw outright. */
function failuresOf(results: FileAnalysis[]): Pick<JsonCoverage, 'failures'> {
  const failures = results.flatMap((r) =>
    [
      ...(r.skipped?.startsWith(WHOLE_FILE_FAILED)
        ? [{ stage: 'the whole file', message: r.skipped.slice(WHOLE_FILE_FAILED.length) }]
        : []),
      ...(r.failures ?? []),
    ].map((f) => ({ file: displayPath(r.file), ...f })),
  );
  return failures.length ? { failures } : {};
}
