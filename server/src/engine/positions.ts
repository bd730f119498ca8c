import type { Span } from './model';

/**
 * One way to move the positions held in plain data: the call sites, values,
 * templates, origins and accesses an edit shifts, and an imported value placed at
 * its import. Any object shaped like a `Span` is moved, wherever it sits, so a new
 * field with a position needs no new walker.
 */

const SPAN_KEYS = ['startLine', 'startColumn', 'endLine', 'endColumn'];

function isSpan(x: object): x is Span {
  const keys = Object.keys(x);
  return keys.length === 4 && SPAN_KEYS.every((k) => typeof (x as Record<string, unknown>)[k] === 'number');
}

/**
 * `x` with every span moved by `move`; the same object wherever nothing moved, so
 * memoised results stay attached. Objects that name another `file` than `file`
 * (an origin in an imported module) keep their positions. When `fill` is given,
 * objects whose `file` is empty get that file.
 */
export function moveSpans<T>(x: T, move: (s: Span) => Span, file: string, fill?: string): T {
  return walk(x, move, file, fill, 0) as T;
}

function walk(x: unknown, move: (s: Span) => Span, file: string, fill: string | undefined, depth: number): unknown {
  if (typeof x !== 'object' || x === null || depth > 200) return x;
  if (Array.isArray(x)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < x.length; i++) {
      const y = walk(x[i], move, file, fill, depth + 1);
      if (y !== x[i]) (out ??= x.slice())[i] = y;
    }
    return out ?? x;
  }
  if (x instanceof Set || x instanceof Map) return x;
  if (isSpan(x)) return move(x);
  const record = x as Record<string, unknown>;
  const own = typeof record.file === 'string' ? record.file : undefined;
  if (own !== undefined && own !== '' && own !== file && own !== fill) return x;
  let out: Record<string, unknown> | null = null;
  if (fill !== undefined && own === '') out = { ...record, file: fill };
  for (const k in record) {
    if (k === 'file') continue;
    const v = record[k];
    const y = walk(v, move, file, fill, depth + 1);
    if (y !== v) (out ??= { ...record })[k] = y;
  }
  return out ?? x;
}

/**
 * The first and last line of the spans `x` holds in `file` (or in no named file),
 * so an edit below them, or on another line without adding lines, can skip it.
 */
export function lineExtent(x: unknown, file: string): [number, number] {
  const out: [number, number] = [Infinity, -Infinity];
  moveSpans(
    x,
    (s) => {
      if (s.startLine < out[0]) out[0] = s.startLine;
      if (s.endLine > out[1]) out[1] = s.endLine;
      return s;
    },
    file,
  );
  return out;
}
