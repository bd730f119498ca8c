import type { ImportInfo, Span } from '../../engine/model';
import { offsetAt, positionAt } from '../fixes/apply';

/**
 * Adds what generated code needs to a file's imports, and only that: a name already
 * imported is left alone, a missing name joins an existing import of its module
 * (`import { PutCommand } from "@aws-sdk/lib-dynamodb"` gains `, QueryCommand`), and
 * only a module the file does not import yet gets a new import, after the last one.
 */

export interface Needed {
  module: string;
  /** The name to import; none for Python's `import module`. */
  name?: string;
}

export interface ImportEdit {
  span: Span;
  newText: string;
}

function pointAt(text: string, offset: number): Span {
  const p = positionAt(text, offset);
  return { startLine: p.line, startColumn: p.column, endLine: p.line, endColumn: p.column };
}

function endOf(text: string, s: Span): number {
  return offsetAt(text, s.endLine, s.endColumn);
}

/** Where a new import line goes: after the last import, else at the top (after a Python docstring or a shebang). */
function newImportPoint(
  text: string,
  imports: ImportInfo[],
  python: boolean,
): { offset: number; before: string; after: string } {
  if (imports.length > 0) return { offset: endOf(text, imports[imports.length - 1].span), before: '\n', after: '' };
  let offset = 0;
  const shebang = /^#![^\n]*\n/.exec(text);
  if (shebang) offset = shebang[0].length;
  if (python) {
    const doc = /^\s*("""|''')[\s\S]*?\1[^\n]*\n/.exec(text.slice(offset));
    if (doc) offset += doc[0].length;
  } else {
    const strict = /^\s*['"]use strict['"];?[^\n]*\n/.exec(text.slice(offset));
    if (strict) offset += strict[0].length;
  }
  return { offset, before: '', after: '\n' };
}

/** Whether the file loads modules with `require` rather than `import`. */
function usesRequire(text: string, imports: ImportInfo[]): boolean {
  const first = imports[0];
  return (
    !!first && /^\s*(const|let|var)\b/.test(text.slice(offsetAt(text, first.span.startLine, first.span.startColumn)))
  );
}

export function jsImportEdits(text: string, imports: ImportInfo[], needed: Needed[], quote: "'" | '"'): ImportEdit[] {
  const edits: ImportEdit[] = [];
  const newLines: string[] = [];
  const byModule = new Map<string, string[]>();
  for (const n of needed) {
    if (!n.name) continue;
    const have = imports.some((i) => i.module === n.module && i.names.includes(n.name!));
    const list = byModule.get(n.module) ?? [];
    if (!have && !list.includes(n.name)) byModule.set(n.module, [...list, n.name]);
  }
  const require = usesRequire(text, imports);
  for (const [module, names] of byModule) {
    if (names.length === 0) continue;
    // An existing `{ ... }` import of the module (not `import type`): add the names inside its braces.
    const into = imports.find((i) => {
      if (i.module !== module) return false;
      const stmt = text.slice(offsetAt(text, i.span.startLine, i.span.startColumn), endOf(text, i.span));
      return /\{[^}]*\}/.test(stmt) && !/^import\s+type\b/.test(stmt);
    });
    if (into) {
      const start = offsetAt(text, into.span.startLine, into.span.startColumn);
      const stmt = text.slice(start, endOf(text, into.span));
      const close = stmt.indexOf('}');
      const inside = stmt.slice(stmt.indexOf('{') + 1, close);
      const trailingComma = /,\s*$/.test(inside);
      const at = start + stmt.slice(0, close).replace(/[\s,]*$/, '').length;
      const sep = inside.trim() === '' ? ' ' : ', ';
      edits.push({ span: pointAt(text, at), newText: `${sep}${names.join(', ')}${trailingComma ? ',' : ''}` });
      continue;
    }
    const m = `${quote}${module}${quote}`;
    newLines.push(
      require ? `const { ${names.join(', ')} } = require(${m});` : `import { ${names.join(', ')} } from ${m};`,
    );
  }
  if (newLines.length) {
    const p = newImportPoint(text, imports, false);
    edits.push({ span: pointAt(text, p.offset), newText: p.before + newLines.join('\n') + p.after });
  }
  return edits;
}

export function pythonImportEdits(text: string, imports: ImportInfo[], needed: Needed[]): ImportEdit[] {
  const edits: ImportEdit[] = [];
  const newLines: string[] = [];
  const from = new Map<string, string[]>();
  for (const n of needed) {
    if (!n.name) {
      const line = `import ${n.module}`;
      if (!imports.some((i) => i.module === n.module && i.names.length === 0) && !newLines.includes(line))
        newLines.push(line);
      continue;
    }
    if (imports.some((i) => i.module === n.module && i.names.includes(n.name!))) continue;
    const list = from.get(n.module) ?? [];
    if (!list.includes(n.name)) from.set(n.module, [...list, n.name]);
  }
  for (const [module, names] of from) {
    const into = imports.find((i) => i.module === module && i.names.length > 0 && !i.names.includes('*'));
    if (into) {
      const start = offsetAt(text, into.span.startLine, into.span.startColumn);
      const stmt = text.slice(start, endOf(text, into.span));
      const close = stmt.lastIndexOf(')');
      const end = close >= 0 ? start + stmt.slice(0, close).replace(/[\s,]*$/, '').length : endOf(text, into.span);
      edits.push({ span: pointAt(text, end), newText: `, ${names.join(', ')}` });
    } else newLines.push(`from ${module} import ${names.join(', ')}`);
  }
  if (newLines.length) {
    const p = newImportPoint(text, imports, true);
    edits.push({ span: pointAt(text, p.offset), newText: p.before + newLines.join('\n') + p.after });
  }
  return edits;
}
