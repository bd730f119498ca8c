import type { ImportInfo } from '../../engine';
import { pythonImportPoint } from '../generate/imports';
import { lineOf, lineStarts, offsetAt, positionAt } from './apply';
import type { TextChange } from './fix-model';
import { afterImports, type CountPlan } from './shard-count';

/**
 * Everything a fix adds near the top of the writer's file, as one change after the
 * imports (two insertions at one point would have no defined order): new import
 * lines, `import random`, the shard-count constant, the hash helper. Edits of
 * existing import lines are separate changes on those lines.
 */
export function headerChanges(
  file: string,
  text: string,
  imports: ImportInfo[],
  count: CountPlan,
  extra: { importLines?: string[]; blocks?: string[] },
): TextChange[] {
  const out: TextChange[] = [];
  const lines: string[] = [];
  // Lines moved to one point of a group go in one change, in order (`import heapq`, `import itertools`).
  const moved = new Map<string, TextChange>();
  const isortOrder = (l: string) => `${l.startsWith('from ') ? 1 : 0}${l}`;
  const ordered = [...(extra.importLines ?? [])].sort((a, b) => (isortOrder(a) < isortOrder(b) ? -1 : 1));
  for (const line of ordered) {
    const change = file.endsWith('.py') ? inItsGroup(file, text, imports, line) : null;
    if (!change) {
      lines.push(line);
      continue;
    }
    const at = `${change.span.startLine}:${change.span.startColumn}`;
    const same = moved.get(at);
    if (!same) moved.set(at, change);
    else moved.set(at, { ...same, newText: joinLines(same.newText, change.newText, line) });
  }
  out.push(...moved.values());
  if (typeof count.importChange === 'string') lines.push(count.importChange);
  else if (count.importChange) out.push(count.importChange);
  const blocks = [...(count.declare ? [count.declare] : []), ...(extra.blocks ?? [])];
  // Python style wants two blank lines around top-level functions; one elsewhere.
  const gap = file.endsWith('.py') && blocks.some((b) => b.startsWith('def ')) ? '\n\n\n' : '\n\n';
  const parts = [lines.join('\n'), ...blocks].filter(Boolean);
  // A blank line between the file's imports and a new declaration.
  const lead = lines.length === 0 && imports.length > 0 ? '\n' : '';
  // ...and after it, before the code that follows.
  const last = imports.reduce((m, i) => Math.max(m, i.span.endLine), -1);
  const lineCount = lineStarts(text).length;
  let blank = 0;
  while (last + 1 + blank < lineCount && lineOf(text, last + 1 + blank).trim() === '') blank++;
  // Python: two blank lines after a block that ends with a function or class (counting those the file has).
  const endsWithDef = file.endsWith('.py') && /^(async def|def|class) /m.test(blocks[blocks.length - 1] ?? '');
  const wanted = endsWithDef ? 2 : blank ? 0 : gap.length - 1;
  const tail = blocks.length && imports.length ? '\n'.repeat(Math.max(0, wanted - blank)) : '';
  if (parts.length) out.push(afterImports(file, text, imports, lead + parts.join(gap) + tail));
  return out;
}

/** Two `before + line + after` insertions at one point as one: `before + first + \n + line + after`. */
function joinLines(first: string, second: string, line: string): string {
  const at = second.indexOf(line);
  const before = second.slice(0, at);
  const after = second.slice(at + line.length);
  const firstLine = first.slice(before.length, first.length - after.length);
  return before + firstLine + '\n' + line + after;
}

/** Whether a Python file already has `import <name>` (or `import <name> as <name>`). */
export function hasModuleImport(text: string, name: string): boolean {
  return new RegExp(`^import\\s+([\\w.]+\\s*,\\s*)*${name}\\b(?!\\s+as\\s+(?!${name}\\b))`, 'm').test(text);
}

/** Whether a Python file already has `import random` (or `import random as random`). */
export const hasRandomImport = (text: string): boolean => hasModuleImport(text, 'random');

/**
 * A Python `import m` placed with its group (standard library before third party), when
 * that is not the header's own point after the last import; null to keep it in the header.
 */
function inItsGroup(file: string, text: string, imports: ImportInfo[], line: string): TextChange | null {
  const module = /^import\s+([\w.]+)/.exec(line)?.[1];
  const last = imports.filter((i) => i.span.startColumn === 0).at(-1);
  if (!module || !last) return null;
  const p = pythonImportPoint(text, imports, module);
  if (p.offset === offsetAt(text, last.span.endLine, last.span.endColumn)) return null;
  const at = positionAt(text, p.offset);
  const span = { startLine: at.line, startColumn: at.column, endLine: at.line, endColumn: at.column };
  return { file, span, newText: p.before + line + p.after };
}
