/**
 * What the edits since the last reading changed, as a few separate regions rather than one
 * span from the first to the last: keystrokes faster than the server's debounced analysis
 * often fall in two places (a character typed at line 300, another at line 1,200), and one
 * span over both would take in everything between them.
 */

/**
 * [oldStart, oldEnd) of the text read last is [newStart, newEnd) of the text now; the text
 * between two regions is the same in both, moved by the regions before it.
 */
export interface Region {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** How much longer a region made its text (negative: shorter). */
function growth(r: Region): number {
  return r.newEnd - r.newStart - (r.oldEnd - r.oldStart);
}

/**
 * The regions after replacing [start, end) of the current text by `inserted` characters.
 * Regions it touches (overlap or meet) become one with it; those after it move.
 */
export function addEdit(regions: readonly Region[], start: number, end: number, inserted: number): Region[] {
  const delta = inserted - (end - start);
  const before: Region[] = [];
  const touching: Region[] = [];
  const after: Region[] = [];
  for (const r of regions) {
    if (r.newEnd < start) before.push(r);
    else if (r.newStart > end) after.push(r);
    else touching.push(r);
  }
  // An offset of the current text outside every region is this much further than in the text read last.
  const shift = before.reduce((n, r) => n + growth(r), 0);
  const first = touching[0];
  const last = touching[touching.length - 1];
  const oldStart = first && first.newStart <= start ? first.oldStart : start - shift;
  const oldEnd = last && last.newEnd >= end ? last.oldEnd : end - shift - touching.reduce((n, r) => n + growth(r), 0);
  const merged: Region = {
    oldStart,
    oldEnd,
    newStart: Math.min(start, first?.newStart ?? start),
    newEnd: Math.max(end, last?.newEnd ?? end) + delta,
  };
  const moved = after.map((r) => ({ ...r, newStart: r.newStart + delta, newEnd: r.newEnd + delta }));
  return [...before, merged, ...moved];
}

/** The regions with [from, to) of the current text added, as a change that kept its length (a reparse's changed range). */
export function addRange(regions: readonly Region[], from: number, to: number): Region[] {
  return addEdit(regions, from, to, to - from);
}

/** The regions whose text changed: one where a character was typed and deleted again is left out. */
export function changedOnly(regions: readonly Region[], before: string, now: string): Region[] {
  return regions.filter(
    (r) =>
      r.oldEnd - r.oldStart !== r.newEnd - r.newStart ||
      before.slice(r.oldStart, r.oldEnd) !== now.slice(r.newStart, r.newEnd),
  );
}
