/**
 * A call written in place of a read, kept within the width of the line it lands on as the
 * file's formatter keeps it. On one line when that fits; else prettier's form (each argument
 * on a line of its own, a trailing comma after the last where the file's multi-line calls
 * end with one) or black's (the arguments together on one indented line when that fits, else
 * one a line with a trailing comma).
 */
import type { Span } from '../../engine';
import { fitPythonLine } from '../generate/fit-lines-python';
import { fitLine } from '../generate/fit-lines';

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
  if (!args.length || fits(before + one + after)) return one;
  const indent = /^[ \t]*/.exec(before)![0];
  const inner = indent + place.indentUnit;
  if (place.python) {
    const together = inner + args.join(', ');
    if (fits(together)) return `${name}(\n${together}\n${indent})`;
    // One a line, each broken further as black breaks it (an options dict one entry a line).
    const lines = args.map((a) => fitPythonLine(`${a},`, inner, place.indentUnit, place.width));
    return `${name}(\n${lines.join('\n')}\n${indent})`;
  }
  const comma = callsEndWithComma(place.text) ? ',' : '';
  // One a line, an object past the width one entry a line (a read's options).
  const lines = args.map((a, i) =>
    fitLine(`${a}${i < args.length - 1 ? ',' : comma}`, inner, place.indentUnit, place.width),
  );
  return `${name}(\n${lines.join('\n')}\n${indent})`;
}

/**
 * Whether the file's multi-line calls end their arguments with a comma (prettier's
 * `trailingComma: "all"`, its default since 3.0); without a multi-line call, yes.
 */
function callsEndWithComma(text: string): boolean {
  if (/,[ \t]*\r?\n[ \t]*\)/.test(text)) return true;
  return !/[\w'"`\]}][ \t]*\r?\n[ \t]*\)[;,.)]/.test(text);
}
