import type { FileAnalysis } from '../engine/analyze';
import type { KeyValue } from '../engine/model';

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
