import type { ImportInfo } from '../../engine/model';
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
  const lines: string[] = [...(extra.importLines ?? [])];
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
  const nextBlank = (text.split('\n')[last + 1] ?? '').trim() === '';
  const tail = blocks.length && imports.length && !nextBlank ? gap.slice(1) : '';
  if (parts.length) out.push(afterImports(file, text, imports, lead + parts.join(gap) + tail));
  return out;
}

/** Whether a Python file already has `import random` (or `import random as random`). */
export function hasRandomImport(text: string): boolean {
  return /^import\s+([\w.]+\s*,\s*)*random\b(?!\s+as\s+(?!random\b))/m.test(text);
}
