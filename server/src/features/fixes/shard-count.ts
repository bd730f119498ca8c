import * as path from 'node:path';
import {
  type Access,
  type ImportInfo,
  literalText,
  type ShardCount,
  type Span,
  suggestedShardCount,
  words,
} from '../../engine';
import type { FixAnswers, FixContext, TextChange } from './fix-model';
import { lineOf } from './apply';

/**
 * How many shards a fix writes, and under which constant. A key gets exactly one
 * named count: the one its sharded writers already use (in this file or another
 * module, then it is imported), else one the fix declares after the file's imports.
 * Declaring a second constant for the same key would let writers and readers drift
 * apart, which is what SL007 reports.
 */
export interface CountPlan {
  value: number;
  /** The constant's name as the fixed code writes it. */
  name: string;
  /** An existing constant is reused: the user is not asked for a count. */
  reused: boolean;
  /** Source lines to add after the imports (the declaration), if any. */
  declare: string | null;
  /** An import of the constant from its module, when it lives in another file: an edit of an existing import or a new line. */
  importChange: TextChange | string | null;
}

/** The count to suggest: the workspace's own, else ceil(peak / 800), else the default. */
export function suggestedCount(ctx: FixContext): number {
  return suggestedShardCount(ctx.shards.peakWriteUnits, ctx.shards.defaultCount);
}

/** `GLOBAL_BOARD_SHARDS` for a key through `GLOBAL_BOARD`, `BOARD_GLOBAL_SHARDS` for `"BOARD#global"`. */
export function countNameFor(a: Access): string {
  const pk = a.partitionKey!;
  const base =
    pk.via[pk.via.length - 1]?.name ?? pk.template.parts.map((p) => ('literal' in p ? p.literal : ' ')).join(' ');
  // A name starts with a letter: a key `1` or `2024#x` gives no `1_SHARDS` (not an identifier).
  const ws = words(base).slice(0, 3);
  if (ws.length && /^\d/.test(ws[0])) ws.unshift('key');
  return ws.length ? `${ws.join('_').toUpperCase()}_SHARDS` : 'WRITE_SHARDS';
}

// The name looked for first: a pattern anchored at each line start costs a scan of the whole file per name.
const declaredIn = (text: string, name: string, python: boolean) =>
  text.includes(name) &&
  (python
    ? new RegExp(`^${name}\\s*(:\\s*int\\s*)?=`, 'm').test(text)
    : new RegExp(`^\\s*(export\\s+)?(const|let|var)\\s+${name}\\b`, 'm').test(text));

const importedIn = (imports: ImportInfo[], name: string) => imports.some((i) => i.names.includes(name));

export function planShardCount(
  a: Access,
  existing: ShardCount | null,
  ctx: FixContext,
  answers: FixAnswers | undefined,
  /** A name the caller chose free in the file (the counter fix's `VISITS_SHARDS`): declared, never reused. */
  chosen?: string,
): CountPlan {
  const text = ctx.textOf(a.file) ?? '';
  const python = a.language === 'python';
  const imports = ctx.analysisOf(a.file)?.imports ?? [];
  if (existing?.name && existing.value !== null && existing.declaration) {
    const name = existing.name;
    const local = existing.declaration.file === a.file || declaredIn(text, name, python) || importedIn(imports, name);
    const importChange = local ? null : importOf(a, imports, text, name, existing.declaration.file);
    if (local || importChange) return { value: existing.value, name, reused: true, declare: null, importChange };
  }
  const value = answers?.shardCount ?? existing?.value ?? suggestedCount(ctx);
  const name = chosen ?? countNameFor(a);
  if (!chosen && (declaredIn(text, name, python) || importedIn(imports, name))) {
    return { value: valueDeclared(text, name) ?? value, name, reused: true, declare: null, importChange: null };
  }
  const declare = python
    ? `# Write shards of this key; readers must query all of them.\n${name} = ${value}`
    : `/** Write shards of this key; readers must query all of them. */\nconst ${name} = ${value};`;
  return { value, name, reused: false, declare, importChange: null };
}

function valueDeclared(text: string, name: string): number | null {
  const m = new RegExp(`\\b${name}\\s*(?::\\s*\\w+\\s*)?=\\s*(\\d+)`).exec(text);
  return m ? Number(m[1]) : null;
}

/**
 * Imports `name` from the module that declares it: added to an existing import of
 * that module when there is one, else a new import line after the last import.
 */
export function importOf(
  a: Access,
  imports: ImportInfo[],
  text: string,
  name: string,
  from: string,
): TextChange | string | null {
  const python = a.language === 'python';
  const spec = python ? pythonModule(a.file, from) : jsSpecifier(a.file, from);
  if (!spec) return null;
  const lines = text.split('\n');
  for (const i of imports) {
    if (i.module !== spec) continue;
    const line = lines[i.span.endLine] ?? '';
    const end = { line: i.span.endLine, column: i.span.endColumn };
    if (python && /^from\s+\S+\s+import\s+[^(]+$/.test(line.trim())) {
      return insertAt(a.file, end.line, line.replace(/\s+$/, '').length, `, ${name}`);
    }
    if (!python) {
      const merged = intoJsImport(a.file, lines, i.span, name);
      if (merged) return merged;
    }
  }
  const cjs = !python && imports.some((i) => /require\(/.test(sliceLine(text, i.span)));
  return python
    ? `from ${spec} import ${name}`
    : cjs
      ? `const { ${name} } = require(${JSON.stringify(spec)});`
      : `import { ${name} } from ${JSON.stringify(spec)};`;
}

/**
 * `name` added to an ES import of its module: into its braces (one line or one name a
 * line), or beside its default (`import schema from './schema'` → `import schema, {
 * NAME } from './schema'`). Never into `import type` (a value there is a type only) nor
 * a namespace import; null when the import is not of these forms (a line of its own then).
 */
function intoJsImport(file: string, lines: string[], span: Span, name: string): TextChange | null {
  const first = lines[span.startLine] ?? '';
  const last = lines[span.endLine] ?? '';
  if (!/^\s*import\s/.test(first) || /^\s*import\s+type\b/.test(first) || /\*\s*as\b/.test(first)) return null;
  const brace = last.lastIndexOf('}');
  if (brace >= 0 && span.startLine === span.endLine) {
    const before = last.slice(0, brace).replace(/\s+$/, '');
    return insertAt(file, span.endLine, before.length, `${before.endsWith(',') ? '' : ','} ${name}`);
  }
  if (brace >= 0 && /^\s*\}/.test(last) && span.endLine > span.startLine) {
    // One name a line: a line of its own before the closing brace, as the others are written.
    const previous = lines[span.endLine - 1] ?? '';
    const indent = /^\s*/.exec(previous)?.[0] ?? '  ';
    if (!previous.trimEnd().endsWith(',') || span.endLine - 1 === span.startLine) return null;
    return insertAt(file, span.endLine, 0, `${indent}${name},\n`);
  }
  const only = /^(\s*import\s+[A-Za-z_$][\w$]*)(\s+from\s)/.exec(first);
  if (only && span.startLine === span.endLine) return insertAt(file, span.startLine, only[1].length, `, { ${name} }`);
  return null;
}

function sliceLine(text: string, s: Span): string {
  return text
    .split('\n')
    .slice(s.startLine, s.endLine + 1)
    .join('\n');
}

function insertAt(file: string, line: number, column: number, newText: string): TextChange {
  return { file, span: { startLine: line, startColumn: column, endLine: line, endColumn: column }, newText };
}

/** A block inserted after the last import (or at the top, after a Python docstring / a shebang). */
export function afterImports(file: string, text: string, imports: ImportInfo[], block: string): TextChange {
  const last = imports.reduce((m, i) => Math.max(m, i.span.endLine), -1);
  if (last >= 0) {
    const col = lineOf(text, last).replace(/\r$/, '').length;
    return insertAt(file, last, col, `\n${block}`);
  }
  const lines = text.split('\n');
  let at = 0;
  while (at < lines.length && /^(#!|\s*['"]use strict['"];?\s*$|from __future__)/.test(lines[at])) at++;
  if (file.endsWith('.py')) at = afterDocstring(lines, at);
  return insertAt(file, at, 0, `${block}\n\n`);
}

function afterDocstring(lines: string[], at: number): number {
  const first = lines[at]?.trim() ?? '';
  const q = first.slice(0, 3);
  if (q !== '"""' && q !== "'''") return at;
  if (first.length > 3 && first.endsWith(q) && first.length >= 6) return at + 1;
  for (let i = at + 1; i < lines.length; i++) if (lines[i].includes(q)) return i + 1;
  return at;
}

/** `./config` from src/writer.ts to src/config.ts. */
function jsSpecifier(fromFile: string, declFile: string): string {
  let rel = path.relative(path.dirname(fromFile), declFile).split(path.sep).join('/');
  rel = rel.replace(/\.(ts|tsx|js|jsx|mjs|cjs)$/, '').replace(/\/index$/, '');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** `config` or `pkg.config` for a module in the same folder or below; null above it (the package root is unknown). */
function pythonModule(fromFile: string, declFile: string): string | null {
  const rel = path.relative(path.dirname(fromFile), declFile).split(path.sep);
  if (rel.some((p) => p === '..')) return null;
  return rel
    .join('.')
    .replace(/\.py$/, '')
    .replace(/\.__init__$/, '');
}

/** The literal text of a key (for names and messages), or null when it has holes. */
export function keyLiteral(a: Access): string | null {
  return a.partitionKey ? literalText(a.partitionKey.template) : null;
}
