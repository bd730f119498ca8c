import type { Span } from '../../engine';
import type { TextChange } from './fix-model';

/** The UTF-16 offset of a zero-based line/column in `text` (CRLF and LF lines alike). */
export function offsetAt(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 0; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + column, text.length);
}

/** The zero-based line/column of an offset. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start };
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
