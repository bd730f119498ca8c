import type { Span } from '../../../../engine';
import { offsetAt, positionAt } from '../../apply';
import type { TextChange } from '../../fix-model';

/**
 * Small insertions into code the ElectroDB fixes edit, by offsets in the text as it is:
 * an entry at the end of an object or array literal (`{ board, player }` gains `shard`),
 * text before a string's closing quote. Each returns null when the span does not hold
 * what it should, so a fix is blocked rather than written into the wrong place.
 */

export function insertAtOffset(file: string, text: string, offset: number, newText: string): TextChange {
  const p = positionAt(text, offset);
  return { file, span: { startLine: p.line, startColumn: p.column, endLine: p.line, endColumn: p.column }, newText };
}

const bounds = (text: string, s: Span) => ({
  start: offsetAt(text, s.startLine, s.startColumn),
  end: offsetAt(text, s.endLine, s.endColumn),
});

/**
 * `entry` appended to the object or array literal at `s` (`open`/`close` its brackets):
 * after a comma when it has entries, on a line of its own with the entries' indentation
 * when they are written one per line.
 */
export function appendEntry(
  file: string,
  text: string,
  s: Span,
  written: string | ((indent: string) => string),
): TextChange | null {
  const { start, end } = bounds(text, s);
  const open = text[start];
  const close = text[end - 1];
  if (!((open === '{' && close === '}') || (open === '[' && close === ']'))) return null;
  const inner = text.slice(start + 1, end - 1);
  const multiline = inner.includes('\n');
  const indent = multiline ? (/\n([ \t]*)\S/.exec(inner)?.[1] ?? '  ') : null;
  // A function of the entries' indentation writes the entry across lines when they are one a line.
  const entry = typeof written === 'string' ? written : written(indent ?? '');
  if (inner.trim() === '') return insertAtOffset(file, text, start + 1, open === '{' ? ` ${entry} ` : entry);
  let last = end - 2;
  while (last > start && /\s/.test(text[last])) last--;
  const comma = text[last] === ',' ? '' : ',';
  if (indent === null) return insertAtOffset(file, text, last + 1, `${comma} ${entry}`);
  // A trailing comma where the entries already end in one (prettier's style), none where they do not.
  return insertAtOffset(file, text, last + 1, `${comma}\n${indent}${entry}${comma ? '' : ','}`);
}

/** `suffix` inserted before the closing quote of the string literal at `s`. */
export function appendToString(file: string, text: string, s: Span, suffix: string): TextChange | null {
  const { start, end } = bounds(text, s);
  const quote = text[start];
  if ((quote !== "'" && quote !== '"') || text[end - 1] !== quote) return null;
  return insertAtOffset(file, text, end - 1, suffix);
}

/** The quote the code at `s` writes its strings with (`'` unless it writes `"`). */
export function quoteIn(text: string, s: Span): string {
  const { start, end } = bounds(text, s);
  return /^[^']*"/.test(text.slice(start, end)) ? '"' : "'";
}

export function textOf(text: string, s: Span): string {
  const { start, end } = bounds(text, s);
  return text.slice(start, end);
}
