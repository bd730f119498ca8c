import type { ImportInfo } from '../../engine';
import { escapeRegExp as escape } from '../../engine';
import { lineOf } from './apply';

/** How a file writes code: its language, typing, indentation, quotes and what its top level can name. */

export const isPython = (file: string) => file.endsWith('.py');
export const isTyped = (file: string) => /\.(ts|tsx|mts|cts)$/.test(file);

export function indentUnitOf(text: string, python: boolean): string {
  const m = /^([ \t]+)\S/m.exec(text);
  if (m?.[1].startsWith('\t')) return '\t';
  // A doc comment's inner lines (` * ...`) sit one space in, and a comment line may sit
  // anywhere (`   # Creating the table` under a four-space body): they tell nothing of the step.
  const sizes = [...text.matchAll(/^( +)(?!\*|#|\/\/)\S/gm)].slice(0, 50).map((x) => x[1].length);
  const min = sizes.length ? Math.min(...sizes) : python ? 4 : 2;
  return ' '.repeat(min >= 2 && min <= 8 ? min : python ? 4 : 2);
}

/** Code written in steps of `from` spaces, re-stepped in `unit` (a doc comment's ` *` lines keep their one space). */
export function restepped(code: string, from: number, unit: string): string {
  if (unit === ' '.repeat(from)) return code;
  return code.replace(
    /^( +)/gm,
    (spaces: string) => unit.repeat(Math.floor(spaces.length / from)) + ' '.repeat(spaces.length % from),
  );
}

/** The widths formatters are set to most: prettier's and flake8's default, black's, and the two wider ones teams pick. */
const COMMON_WIDTHS = [80, 88, 100, 120];

/**
 * The line width a file keeps to when its project sets none (`projectLineWidth`): the
 * narrowest common width its longest line fits in (80, 88, 100, 120), else that line's.
 */
export function lineWidthOf(text: string): number {
  const longest = Math.max(0, ...text.split('\n').map((l) => l.replace(/\t/g, '  ').length));
  return COMMON_WIDTHS.find((w) => longest <= w) ?? longest;
}

/** `,` where the file ends its multi-line lists with a comma (prettier's default), else nothing. */
export function trailingCommaOf(text: string): string {
  return /,[ \t]*\r?\n[ \t]*[}\])]/.test(text) ? ',' : '';
}

export function quoteOf(text: string, imports: ImportInfo[]): "'" | '"' {
  for (const i of imports) {
    const line = lineOf(text, i.span.startLine);
    if (line.includes(`'${i.module}'`)) return "'";
    if (line.includes(`"${i.module}"`)) return '"';
  }
  return "'";
}

/** Whether `name` is a top-level declaration of `text` or imported by it: usable from a top-level function. */
export function visibleAtTop(name: string, text: string, imports: ImportInfo[], python: boolean): boolean {
  if (imports.some((i) => i.names.includes(name) || i.names.includes(`default as ${name}`))) return true;
  const esc = name.replace(/[$]/g, '\\$');
  const decl = python
    ? new RegExp(`^${esc}\\s*(:[^=\\n]*)?=`, 'm')
    : new RegExp(`^(export\\s+)?(const|let|var|class|function|async\\s+function)\\s+${esc}\\b`, 'm');
  return decl.test(text);
}

/**
 * The top-level constant a module keeps an environment variable's value in (`const TABLE =
 * process.env.TABLE_NAME!`, `TABLE_NAME = os.environ["TABLE_NAME"]`, `os.getenv(...)`, with
 * or without a default), so a reader names the table as the module's own requests do.
 * `exact`: only a constant bound to the variable alone (no default), whose value is the
 * variable's in every case.
 */
export function envConstant(text: string, variable: string, python: boolean, exact = false): string | null {
  const v = escape(variable);
  const rest = exact ? String.raw`\s*;?\s*$` : String.raw`[^\n]*$`;
  const item = String.raw`\[\s*(["'])${v}\2\s*\]`;
  const read = python
    ? String.raw`os\.(?:environ${item}${exact ? '' : String.raw`|(?:environ\.get|getenv)\(\s*(["'])${v}\3`})`
    : String.raw`process\.env(?:\.${v}\b|${item})!?`;
  const decl = python
    ? String.raw`^([A-Za-z_]\w*)\s*(?::[^=\n]*)?=\s*${read}`
    : String.raw`^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*(?::[^=\n]*)?=\s*${read}`;
  return new RegExp(decl + rest, 'm').exec(text)?.[1] ?? null;
}

/** The variable an expression reads and nothing else (`process.env.TABLE_NAME!`, `os.environ["T"]`), or null. */
export function envRead(expression: string, python: boolean): string | null {
  const m = python
    ? /^os\.environ\[\s*(["'])(\w+)\1\s*\]$/.exec(expression.trim())
    : /^process\.env(?:\.([A-Za-z_$][\w$]*)|\[\s*(["'])([\w$]+)\2\s*\])!?$/.exec(expression.trim());
  return (python ? m?.[2] : (m?.[1] ?? m?.[3])) ?? null;
}
