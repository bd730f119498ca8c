/**
 * Generated Python lines kept within the project's width as black keeps them. A line past
 * the width is split at its last bracket pair, as black's right-hand split does: the text up
 * to the opening bracket, what the brackets hold one step deeper, the closing bracket and
 * what follows it. What a call is given stays on one line when it fits there; a literal list
 * or dict, or a call's arguments that do not fit together, go one a line, each closed by a
 * comma (black's "magic trailing comma"). The lines that gives are fitted again. Comments
 * and the lines of a triple-quoted string are text, left as they are.
 */
import { closing, fitLineWith, pastString, splitTopLevel, type Line } from './fit-lines';

export function fitPythonLines(lines: readonly Line[], indentUnit: string, width: number): Line[] {
  const unit = indentUnit.replace(/\t/g, '  ').length;
  const out: Line[] = [];
  const fits = (depth: number, text: string) => depth * unit + text.length <= width;
  const fit = ([depth, text]: Line): void => {
    const split = fits(depth, text) ? null : (lastBrackets(text) ?? inParentheses(text, (t) => fits(depth + 1, t)));
    if (!split) {
      out.push([depth, text]);
      return;
    }
    const parts = splitTopLevel(split.body, ',')
      .map((p) => p.trim())
      .filter(Boolean);
    const together = split.body.trim();
    fit([depth, split.head]);
    // black keeps a call's arguments together on one line a step in when they fit there.
    if (parts.length < 2 || (split.call && fits(depth + 1, together))) fit([depth + 1, together]);
    else for (const p of parts) fit([depth + 1, `${p},`]);
    out.push([depth, split.tail]);
  };
  let inString = false;
  for (const line of lines) {
    const quotes = (line[1].match(/"""|'''/g) ?? []).length;
    if (inString || quotes || line[1].trimStart().startsWith('#')) out.push(line);
    else fit(line);
    if (quotes % 2) inString = !inString;
  }
  return out;
}

/**
 * A block of Python written in four-space steps (a helper the fixes add), each line fitted
 * to `width` and written in the file's step.
 */
export function fitPythonBlock(text: string, width: number, indentUnit = '    '): string {
  const lines = text.split('\n').map((l): Line => [Math.floor((l.length - l.trimStart().length) / 4), l.trimStart()]);
  return fitPythonLines(lines, indentUnit, width)
    .map(([d, t]) => (t ? indentUnit.repeat(d) + t : ''))
    .join('\n');
}

/**
 * `return <value>` or `name = <value>` with no bracket to split at (an f-string): the value in
 * parentheses on a line of its own, as black makes its invisible parentheses visible, when
 * the value then fits.
 */
function inParentheses(text: string, fits: (line: string) => boolean) {
  const m = /^(return|[\w.]+\s*=)\s+(.+)$/.exec(text);
  if (!m || !fits(m[2])) return null;
  return { head: `${m[1]} (`, body: m[2], tail: ')', call: true };
}

/** The line around its last bracket pair, and whether the brackets are a call's or a subscript's. */
function lastBrackets(text: string): { head: string; body: string; tail: string; call: boolean } | null {
  const close = lastCloser(text);
  if (close < 0) return null;
  const open = openerOf(text, close);
  if (open < 0 || !text.slice(open + 1, close).trim()) return null;
  return {
    head: text.slice(0, open + 1),
    body: text.slice(open + 1, close),
    tail: text.slice(close),
    call: /[\w)\]]$/.test(text.slice(0, open)),
  };
}

/** The index of the last closing bracket outside strings, or -1. */
function lastCloser(text: string): number {
  let last = -1;
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === "'" || c === '"') {
      i = pastString(text, i);
      continue;
    }
    if (c === ')' || c === ']' || c === '}') last = i;
    i++;
  }
  return last;
}

/** The opening bracket of the closing one at `close`: the last opener whose pair ends there. */
function openerOf(text: string, close: number): number {
  for (let i = 0; i < close;) {
    const c = text[i];
    if (c === "'" || c === '"') {
      i = pastString(text, i);
      continue;
    }
    if ((c === '(' || c === '[' || c === '{') && closing(text, i) === close) return i;
    i++;
  }
  return -1;
}

/** One line that starts at `indent`, fitted as black would: its lines joined. */
export const fitPythonLine = (text: string, indent: string, indentUnit: string, width: number) =>
  fitLineWith(fitPythonLines, text, indent, indentUnit, width);
