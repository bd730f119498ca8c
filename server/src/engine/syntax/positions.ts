import type { Point } from 'web-tree-sitter';
import type { Span } from '../model';

/**
 * One way to move the positions held in plain data: the call sites, values,
 * templates, origins and accesses an edit shifts, and an imported value placed at
 * its import. Any object shaped like a `Span` is moved, wherever it sits, so a new
 * field with a position needs no new walker.
 */

/** A span is the only shape in the model with a numeric `startLine` and `endColumn`. */
function isSpan(x: object): x is Span {
  return typeof (x as Partial<Span>).startLine === 'number' && typeof (x as Partial<Span>).endColumn === 'number';
}

/**
 * `x` with every span moved by `move`; the same object wherever nothing moved, so
 * memoised results stay attached. Objects that name another `file` than `file`
 * (an origin in an imported module) keep their positions.
 */
export function moveSpans<T>(x: T, move: (s: Span) => Span, file: string): T {
  return walk(x, move, file, 0) as T;
}

function walk(x: unknown, move: (s: Span) => Span, file: string, depth: number): unknown {
  if (typeof x !== 'object' || x === null || depth > 200) return x;
  if (Array.isArray(x)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < x.length; i++) {
      const y = walk(x[i], move, file, depth + 1);
      if (y !== x[i]) (out ??= x.slice())[i] = y;
    }
    return out ?? x;
  }
  if (x instanceof Set || x instanceof Map) return x;
  if (isSpan(x)) return move(x);
  const record = x as Record<string, unknown>;
  const own = typeof record.file === 'string' ? record.file : undefined;
  if (own !== undefined && own !== '' && own !== file) return x;
  let out: Record<string, unknown> | null = null;
  for (const k in record) {
    if (k === 'file') continue;
    const v = record[k];
    const y = walk(v, move, file, depth + 1);
    if (y !== v) (out ??= { ...record })[k] = y;
  }
  return out ?? x;
}

/**
 * The lines the spans of `x` in `file` (or in no named file) start or end on, and the
 * last of them: an edit that adds no lines moves only positions on its own line, and
 * an edit below every position moves none.
 */
export function spanLines(x: unknown, file: string): { lines: Set<number>; last: number } {
  const lines = new Set<number>();
  let last = -1;
  moveSpans(
    x,
    (s) => {
      lines.add(s.startLine);
      lines.add(s.endLine);
      if (s.endLine > last) last = s.endLine;
      return s;
    },
    file,
  );
  return { lines, last };
}

/**
 * The row/column (UTF-16 units) of an offset, as tree-sitter counts them in the text it
 * parses (`lineBreaksForParsing`): a row ends at LF and at a lone CR (one not followed by
 * LF). Two native scans; the second finds nothing in a file without CR.
 */
export function pointAt(text: string, offset: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  for (let i = text.indexOf('\r'); i >= 0 && i < offset; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) === 10) continue;
    row++;
    lineStart = Math.max(lineStart, i + 1);
  }
  return { row, column: offset - lineStart };
}

/**
 * The point of `offset` from a known one (`at`, the point of `from` ≤ `offset`): `pointAt` without
 * counting the lines before `from` again, as tree-sitter counts rows (LF, and a lone CR).
 */
export function pointAfter(text: string, at: Point, from: number, offset: number): Point {
  let row = at.row;
  let lineStart = from - at.column;
  for (let i = from; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      row++;
      lineStart = i + 1;
    }
  }
  return { row, column: offset - lineStart };
}
