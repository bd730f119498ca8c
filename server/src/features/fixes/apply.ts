import type { Span } from '../../engine';
import type { TextChange } from './fix-model';

/**
 * Where each line of a text starts, for the last few texts asked about: a fix plan asks
 * for hundreds of positions in the same few files, and walking a 3,000-line file from its
 * top for each was a seventh of working out why no shard fix applies.
 */
const KEPT_TEXTS = 8;
const startsOf = new Map<string, number[]>();

export function lineStarts(text: string): number[] {
  let starts = startsOf.get(text);
  if (starts) return starts;
  starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  if (startsOf.size >= KEPT_TEXTS) startsOf.delete(startsOf.keys().next().value!);
  startsOf.set(text, starts);
  return starts;
}

/** The UTF-16 offset of a zero-based line/column in `text` (CRLF and LF lines alike). */
export function offsetAt(text: string, line: number, column: number): number {
  const starts = lineStarts(text);
  if (line >= starts.length) return text.length;
  return Math.min(starts[Math.max(line, 0)] + column, text.length);
}

/** The zero-based line/column of an offset. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  const starts = lineStarts(text);
  // The last line starting at or before the offset.
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, column: offset - starts[lo] };
}

/** Line `line` of `text`, without its line break (an empty string past the end). */
export function lineOf(text: string, line: number): string {
  const starts = lineStarts(text);
  if (line < 0 || line >= starts.length) return '';
  const end = line + 1 < starts.length ? starts[line + 1] - 1 : text.length;
  return text.slice(starts[line], end);
}

export function textIn(text: string, s: Span): string {
  return text.slice(offsetAt(text, s.startLine, s.startColumn), offsetAt(text, s.endLine, s.endColumn));
}

/**
 * Applies one file's changes to its text, as an editor applies a WorkspaceEdit: all
 * positions refer to the text before any change, and changes must not overlap.
 */
export function applyChanges(text: string, changes: TextChange[]): string {
  const ranges = changes
    .map((c) => ({
      start: offsetAt(text, c.span.startLine, c.span.startColumn),
      end: offsetAt(text, c.span.endLine, c.span.endColumn),
      newText: c.newText,
    }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i].start < ranges[i - 1].end) throw new Error('overlapping changes');
  }
  let out = '';
  let at = 0;
  for (const r of ranges) {
    out += text.slice(at, r.start) + r.newText;
    at = r.end;
  }
  return out + text.slice(at);
}
