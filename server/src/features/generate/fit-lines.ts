/**
 * Generated JS lines kept within the project's width as prettier keeps them. A line past the
 * width that ends with a brace list — an object (`Key: { a, b },`, `marshall({ ... }),`,
 * `= { ...names, '#pk': 'pk' };`) or a type literal (`options: { A?: string; B?: number },`)
 * — is broken into one entry a line, each closed by `,` (by `;` in a type literal), and the
 * lines that gives are fitted again. Other lines are left as they are: the readers are
 * written so that their other lines fit.
 */

/** A line of generated code: its depth in indent units, and its text. */
export type Line = [depth: number, text: string];

export function fitLines(lines: readonly Line[], indentUnit: string, width: number): Line[] {
  const unit = indentUnit.replace(/\t/g, '  ').length;
  const out: Line[] = [];
  const fit = ([depth, text]: Line): void => {
    const broken = depth * unit + text.length > width ? breakBraces(text) : null;
    if (!broken) {
      out.push([depth, text]);
      return;
    }
    fit([depth, broken.head]);
    for (const entry of broken.entries) fit([depth + 1, entry]);
    out.push([depth, broken.tail]);
  };
  for (const line of lines) fit(line);
  return out;
}

/**
 * `head {`, the entries, `} tail` of a line whose first top-level brace list closes at the
 * end of the line (only `)`, `,` or `;` after it); null for any other line.
 */
function breakBraces(text: string): { head: string; entries: string[]; tail: string } | null {
  const open = firstBrace(text);
  if (open < 0) return null;
  const close = closing(text, open);
  if (close < 0 || !/^\)*[,;]?$/.test(text.slice(close + 1))) return null;
  const inner = text.slice(open + 1, close).trim();
  if (!inner) return null;
  const typeLiteral = splitTopLevel(inner, ';').length > 1;
  const entries = splitTopLevel(inner, typeLiteral ? ';' : ',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((e) => `${e}${typeLiteral ? ';' : ','}`);
  return { head: text.slice(0, open + 1), entries, tail: text.slice(close) };
}

const OPENERS = '([{';
const CLOSERS = ')]}';

/** The index just past the string or template literal that starts at `at`. */
export function pastString(text: string, at: number): number {
  const quote = text[at];
  let i = at + 1;
  while (i < text.length && text[i] !== quote) {
    if (text[i] === '\\') i += 2;
    else if (quote === '`' && text.startsWith('${', i)) i = closing(text, i + 1) + 1 || text.length;
    else i++;
  }
  return i + 1;
}

/** The index of the bracket that closes the one at `open`, or -1. */
export function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length;) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      i = pastString(text, i);
      continue;
    }
    if (OPENERS.includes(c)) depth++;
    else if (CLOSERS.includes(c) && --depth === 0) return i;
    i++;
  }
  return -1;
}

/** The first `{` outside strings: a brace list, or the object a call is given (`marshall({`). */
function firstBrace(text: string): number {
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') i = pastString(text, i);
    else if (c === '{') return i;
    else i++;
  }
  return -1;
}

/** `text` split at each `sep` outside strings and brackets. */
export function splitTopLevel(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      i = pastString(text, i);
      continue;
    }
    if (OPENERS.includes(c)) depth++;
    else if (CLOSERS.includes(c)) depth--;
    else if (c === sep && depth === 0) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
    i++;
  }
  parts.push(text.slice(from));
  return parts;
}

/** How a language's lines are kept within a width (`fitLines`, `fitPythonLines`). */
export type Fitter = (lines: readonly Line[], indentUnit: string, width: number) => Line[];

/** One line that starts at `indent` (any run of spaces or tabs), fitted by `fit`: its lines joined. */
export function fitLineWith(fit: Fitter, text: string, indent: string, indentUnit: string, width: number): string {
  const used = indent.replace(/\t/g, '  ').length;
  return fit([[0, text]], indentUnit, width - used)
    .map(([d, t]) => indent + indentUnit.repeat(d) + t)
    .join('\n');
}

export const fitLine = (text: string, indent: string, indentUnit: string, width: number) =>
  fitLineWith(fitLines, text, indent, indentUnit, width);

/** Whether a template literal in `code` runs over lines (its lines are its value: not to be re-indented). */
export function templateOverLines(code: string): boolean {
  for (let i = 0; i < code.length;) {
    const c = code[i];
    if (c === "'" || c === '"' || c === '`') {
      const end = pastString(code, i);
      if (c === '`' && code.slice(i, end).includes('\n')) return true;
      i = end;
    } else if (c === '/' && (code[i + 1] === '/' || code[i + 1] === '*')) {
      // A comment's quotes are text: skip to its end.
      const end = code[i + 1] === '/' ? code.indexOf('\n', i) : code.indexOf('*/', i + 2) + 2;
      i = end <= i ? code.length : end;
    } else i++;
  }
  return false;
}
