import type { Node } from 'web-tree-sitter';
import type { ImportInfo } from '../../../../engine';
import type { TextChange } from '../../fix-model';
import { projectLineWidth } from '../../line-width';
import { indentUnitOf } from '../../reader-conventions';
import { lineOf } from '../../apply';

/** `BoardScore` → `board_score`. */
export function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** Whether a module annotates its functions (`def f(x: str) -> int`): generated code does too. */
export function usesTypeHints(text: string): boolean {
  return /^\s*def\s+\w+\([^)]*\w\s*:\s*\w[^)]*\)|\)\s*->\s*\S/m.test(text);
}

/**
 * Names added to the file's own import of `owner` (`from .models import BoardScore`), so they
 * come from the module the file already imports the model from, relative or not: appended to
 * a one-line import (`edit`), else a new `from` line of the same module (`line`); nothing when
 * they are imported already. Null when the file imports `owner` no way the fix can follow
 * (`import models`).
 */
export function importBeside(
  file: string,
  text: string,
  imports: ImportInfo[],
  owner: string,
  names: string[],
): { edit?: TextChange; line?: string } | null {
  const wanted = names.filter((n) => !imports.some((i) => i.names.includes(n)));
  if (wanted.length === 0) return {};
  const from = imports.find((i) => i.names.includes(owner));
  if (!from) return null;
  const line = lineOf(text, from.span.endLine);
  if (from.span.startLine === from.span.endLine && /^from\s+\S+\s+import\s+[^(#]+$/.test(line.trim())) {
    const column = line.replace(/\s+$/, '').length;
    const at = { startLine: from.span.endLine, startColumn: column, endLine: from.span.endLine, endColumn: column };
    const added = `, ${wanted.join(', ')}`;
    if (column + added.length <= projectLineWidth(file, text)) return { edit: { file, span: at, newText: added } };
    // Past the width: the names in parentheses, one a line, as black writes a long import.
    const start = /^\s*from\s+\S+\s+import\s+/.exec(line)![0].length;
    const all = [
      ...line
        .slice(start, column)
        .split(',')
        .map((n) => n.trim()),
      ...wanted,
    ];
    const indent = /^\s*/.exec(line)![0];
    const step = indentUnitOf(text, true);
    return {
      edit: {
        file,
        span: { ...at, startColumn: start },
        newText: `(\n${all.map((n) => `${indent}${step}${n},`).join('\n')}\n${indent})`,
      },
    };
  }
  return { line: `from ${from.module} import ${wanted.join(', ')}` };
}

const PURE = new Set([
  'identifier',
  'attribute',
  'string',
  'string_start',
  'string_content',
  'string_end',
  'escape_sequence',
  'interpolation',
  'integer',
  'parenthesized_expression',
]);

/**
 * Whether reading an expression again gives the same value: names, attributes, literals,
 * f-strings of them and subscripts by a literal (`event["player"]`). A call (`uuid4()`)
 * would hash another value than the one stored.
 */
export function pure(n: Node): boolean {
  if (n.type === 'subscript') {
    const value = n.childForFieldName('value');
    const index = n.childForFieldName('subscript');
    return !!value && !!index && pure(value) && /^(string|integer)$/.test(index.type);
  }
  if (!PURE.has(n.type)) return false;
  return n.namedChildren.every((c) => !c || pure(c));
}
