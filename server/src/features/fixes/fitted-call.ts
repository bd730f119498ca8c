/**
 * A call written in place of a read (a reader's, or the cache's around the read), kept within
 * the width of the line it lands on as the file's formatter keeps it. On one line when that fits; else prettier's form (each argument
 * on a line of its own, a trailing comma after the last where the file's multi-line calls
 * end with one) or black's (the arguments together on one indented line when that fits, else
 * one a line with a trailing comma).
 */
import type { Span } from '../../engine';
import { fitPythonLine } from '../generate/fit-lines-python';
import { fitLine, pastString, templateOverLines } from '../generate/fit-lines';
import type { TextChange } from './fix-model';
import { trailingCommaOf } from './reader-conventions';
import { lineOf } from './apply';

export interface CallPlace {
  /** The file's text and where the call goes in it. */
  text: string;
  span: Span;
  indentUnit: string;
  width: number;
  python: boolean;
}

export function fittedCall(name: string, args: readonly string[], place: CallPlace): string {
  const one = `${name}(${args.join(', ')})`;
  const textLines = place.text.split('\n');
  const before = (textLines[place.span.startLine] ?? '').slice(0, place.span.startColumn);
  const after = (textLines[place.span.endLine] ?? '').slice(place.span.endColumn).replace(/\r$/, '');
  const fits = (line: string) => line.replace(/\t/g, '  ').length <= place.width;
  // An argument written over lines (a read the cache wraps) does not fit one line either.
  const overLines = args.some((a) => a.includes('\n'));
  if (!args.length || (!overLines && fits(before + one + after))) return one;
  // A string held over lines stays as written: re-indenting its lines would change it.
  if (args.some((a) => (place.python ? /"""|'''/.test(a) : templateOverLines(a)))) return one;
  const indent = /^[ \t]*/.exec(before)![0];
  const inner = indent + place.indentUnit;
  // The lines of an argument written over lines move a step in with it; they are the author's.
  const deeper = (a: string) => a.replace(/\n/g, `\n${place.indentUnit}`);
  if (place.python) {
    const together = inner + args.join(', ');
    if (!overLines && fits(together)) return `${name}(\n${together}\n${indent})`;
    // One a line, each broken further as black breaks it (an options dict one entry a line).
    const lines = args.map((a) =>
      a.includes('\n') ? `${inner}${deeper(a)},` : fitPythonLine(`${a},`, inner, place.indentUnit, place.width),
    );
    return `${name}(\n${lines.join('\n')}\n${indent})`;
  }
  const comma = callsEndWithComma(place.text) ? ',' : '';
  // One a line, an object past the width one entry a line (a read's options).
  const lines = args.map((a, i) => {
    const end = i < args.length - 1 ? ',' : comma;
    // prettier puts an arrow's body that does not fit beside it on the next line, a step in.
    const arrow = /^\(\)\s*=>\s*/.exec(a);
    if (arrow && (a.includes('\n') || !fits(`${inner}${a}${end}`)))
      return `${inner}() =>\n${inner}${place.indentUnit}${deeper(deeper(a.slice(arrow[0].length)))}${end}`;
    if (a.includes('\n')) return `${inner}${deeper(a)}${end}`;
    return fitLine(`${a}${end}`, inner, place.indentUnit, place.width);
  });
  return `${name}(\n${lines.join('\n')}\n${indent})`;
}

/**
 * `fittedCall` where the line goes on after the call with an operator (`flags = get(...) or {}`,
 * `return load(...) + extra`): black, splitting such a right-hand side, puts it in parentheses,
 * the call a step in and each operator's operand on a line of its own. Returns the text and
 * the span it replaces: the call's, or to the end of its line for that form.
 */
export function fittedCallInLine(
  name: string,
  args: readonly string[],
  place: CallPlace,
): { text: string; span: Span } {
  const text = fittedCall(name, args, place);
  const line = lineOf(place.text, place.span.endLine);
  const after = line.slice(place.span.endColumn).replace(/\r$/, '');
  const before = lineOf(place.text, place.span.startLine).slice(0, place.span.startColumn);
  const operand = /^\s+(or|and|if|\+|-|\*|\/|%|\|)\s/.test(after) && !/[([{,]\s*$/.test(after);
  if (!place.python || !text.includes('\n') || !operand || !/(^\s*\w+\s*=|\breturn)\s+$/.test(before))
    return { text, span: place.span };
  const indent = /^[ \t]*/.exec(before)![0];
  const inner = indent + place.indentUnit;
  const atInner = fittedCall(name, args, {
    ...place,
    text: `${inner}_`,
    span: { startLine: 0, startColumn: inner.length, endLine: 0, endColumn: inner.length + 1 },
  });
  // Black's split: one operand a line (a conditional's `if` and `else` each on their own).
  const rest = after.trim().replace(/\s+(or|and|else)\s+/g, `\n${inner}$1 `);
  return {
    text: `(\n${inner}${atInner}\n${inner}${rest}\n${indent})`,
    span: { ...place.span, endColumn: line.replace(/\r$/, '').length },
  };
}

/**
 * Whether the file's multi-line calls end their arguments with a comma (prettier's
 * `trailingComma: "all"`, its default since 3.0). Without a multi-line call, as its
 * multi-line lists end: a file that ends none with a comma gets none.
 */
function callsEndWithComma(text: string): boolean {
  if (/,[ \t]*\r?\n[ \t]*\)/.test(text)) return true;
  if (/[\w'"`\]}][ \t]*\r?\n[ \t]*\)[;,.)]/.test(text)) return false;
  return trailingCommaOf(text) === ',';
}

/**
 * `newText` in place of `span` in a Python file, where the text put in takes its line past
 * `width`: the whole line fitted as black fits it (its last bracket pair split: a read
 * replaced by a longer expression inside `total = <read>.get("Item", {})`). A line with a
 * comment after the change, or a change over lines, is left as the plain replacement.
 */
export function fittedPythonChange(
  file: string,
  text: string,
  span: Span,
  newText: string,
  indentUnit: string,
  width: number,
): TextChange {
  const plain: TextChange = { file, span, newText };
  const last = lineOf(text, span.endLine).replace(/\r$/, '');
  const before = lineOf(text, span.startLine).slice(0, span.startColumn);
  const after = last.slice(span.endColumn);
  const line = before + newText + after;
  if (newText.includes('\n') || line.replace(/\t/g, '  ').length <= width || hasComment(after)) return plain;
  const indent = /^[ \t]*/.exec(before)![0];
  return {
    file,
    span: { startLine: span.startLine, startColumn: 0, endLine: span.endLine, endColumn: last.length },
    newText: fitPythonLine(line.slice(indent.length), indent, indentUnit, width),
  };
}

/** Whether a Python line's rest holds a comment (a `#` outside its strings). */
function hasComment(rest: string): boolean {
  for (let i = 0; i < rest.length;) {
    const c = rest[i];
    if (c === '#') return true;
    i = c === '"' || c === "'" ? pastString(rest, i) : i + 1;
  }
  return false;
}
