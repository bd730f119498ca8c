import type { ImportInfo } from '../../engine';

/** How a file writes code: its language, typing, indentation, quotes and what its top level can name. */

export const isPython = (file: string) => file.endsWith('.py');
export const isTyped = (file: string) => /\.(ts|tsx|mts|cts)$/.test(file);

export function indentUnitOf(text: string, python: boolean): string {
  const m = /^([ \t]+)\S/m.exec(text);
  if (m?.[1].startsWith('\t')) return '\t';
  const sizes = [...text.matchAll(/^( +)\S/gm)].slice(0, 50).map((x) => x[1].length);
  const min = sizes.length ? Math.min(...sizes) : python ? 4 : 2;
  return ' '.repeat(min >= 2 && min <= 8 ? min : python ? 4 : 2);
}

export function quoteOf(text: string, imports: ImportInfo[]): "'" | '"' {
  for (const i of imports) {
    const line = text.split('\n')[i.span.startLine] ?? '';
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
