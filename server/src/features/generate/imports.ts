import type { ImportInfo, Span } from '../../engine';
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
    // `from __future__` imports must come first.
    const future = /^(?:from __future__ import[^\n]*\n|\s*\n)*/.exec(text.slice(offset));
    if (future && /__future__/.test(future[0])) offset += future[0].replace(/\n\s*$/, '\n').length;
  } else {
    const strict = /^\s*['"]use strict['"];?[^\n]*\n/.exec(text.slice(offset));
    if (strict) offset += strict[0].length;
  }
  return { offset, before: '', after: '\n' };
}

/**
 * Python's standard library modules a file is likely to import (the top-level names):
 * PEP 8 groups imports as standard library, third party, then local, a blank line
 * between groups, so a new import joins its own group.
 */
const PY_STDLIB = new Set(
  `abc argparse array ast asyncio base64 bisect calendar collections concurrent contextlib copy csv
  dataclasses datetime decimal enum functools glob gzip hashlib heapq hmac http importlib inspect io
  itertools json logging math multiprocessing operator os pathlib pickle platform pprint queue random re
  secrets shutil signal socket sqlite3 statistics string struct subprocess sys tempfile textwrap threading
  time timeit traceback types typing unittest urllib uuid warnings weakref zlib zoneinfo`.split(/\s+/),
);

type PyGroup = 0 | 1 | 2;
const pyGroup = (module: string): PyGroup =>
  module.startsWith('.') ? 2 : PY_STDLIB.has(module.split('.')[0]) || module === '__future__' ? 0 : 1;

/**
 * isort's order within a group: `import m` lines before `from m import ...` lines, each
 * by module name, case aside (what isort and ruff's `I` rules keep a file in).
 */
const isortKey = (fromImport: boolean, module: string) => `${fromImport ? 1 : 0}${module.toLowerCase()}`;

/**
 * Where a new Python import of `module` goes: in its group (standard library, third
 * party, local) at its isort place when the group is in isort's order (`import
 * concurrent.futures` before `import os`), else after the group's last import; with no
 * import of its group, before the first import of a later group (a blank line between),
 * else after the last import; with no import, after the module docstring and
 * `from __future__`. `fromImport`: the new line is `from module import ...`.
 */
export function pythonImportPoint(
  text: string,
  imports: ImportInfo[],
  module: string,
  fromImport = false,
): { offset: number; before: string; after: string } {
  const top = imports.filter((i) => i.span.startColumn === 0);
  if (top.length === 0) return newImportPoint(text, [], true);
  const group = pyGroup(module);
  const same = top.filter((i) => pyGroup(i.module) === group && i.module !== '__future__');
  if (same.length) {
    const keys = same.map((i) => isortKey(/^from\s/.test(text.slice(offsetAt(text, i.span.startLine, 0))), i.module));
    const sorted = keys.every((k, n) => n === 0 || keys[n - 1] <= k);
    const mine = isortKey(fromImport, module);
    const next = sorted ? same.find((_, n) => keys[n] > mine) : undefined;
    if (next) return { offset: offsetAt(text, next.span.startLine, 0), before: '', after: '\n' };
    return { offset: endOf(text, same[same.length - 1].span), before: '\n', after: '' };
  }
  const later = top.find((i) => pyGroup(i.module) > group);
  const earlier = top.filter((i) => pyGroup(i.module) < group || i.module === '__future__');
  if (earlier.length) return { offset: endOf(text, earlier[earlier.length - 1].span), before: '\n\n', after: '' };
  if (later) return { offset: offsetAt(text, later.span.startLine, 0), before: '', after: '\n\n' };
  return { offset: endOf(text, top[top.length - 1].span), before: '\n', after: '' };
}

/** Whether the file loads modules with `require` rather than `import`. */
function usesRequire(text: string, imports: ImportInfo[]): boolean {
  const first = imports[0];
  return (
    !!first && /^\s*(const|let|var)\b/.test(text.slice(offsetAt(text, first.span.startLine, first.span.startColumn)))
  );
}

/**
 * `names` added to the list of names between `open` and `close` (the offsets inside an
 * import's braces or parentheses), as the list is written: one name a line gets a line of
 * its own for each (`    ScanCommand,` then `    DynamoDBDocumentClient,`); a list on one
 * line gets `, NAME` after its last name, before the trailing comma it may have (a comma
 * added after the insertion would double it).
 */
function intoList(text: string, open: number, close: number, names: string[]): ImportEdit {
  const inside = text.slice(open, close);
  const last = open + inside.replace(/[\s,]*$/, '').length;
  if (inside.trim() === '') return { span: pointAt(text, last), newText: ` ${names.join(', ')}` };
  const lines = inside.split('\n');
  const trailingComma = /,\s*$/.test(inside);
  if (
    lines.length > 2 &&
    trailingComma &&
    lines.slice(1, -1).every((l) => /^\s*[\w$]+(\s+as\s+[\w$]+)?,\s*$/.test(l))
  ) {
    const indent = /^\s*/.exec(lines[lines.length - 2])![0];
    const end = last + 1; // after the last name's comma
    return { span: pointAt(text, end), newText: names.map((n) => `\n${indent}${n},`).join('') };
  }
  return { span: pointAt(text, last), newText: `, ${names.join(', ')}` };
}

/**
 * Whether the import binds `name` under its own name: `import { QueryCommand as Query }`
 * and `const { QueryCommand: Query } = require(...)` list `QueryCommand` but bind `Query`,
 * and generated code naming `QueryCommand` needs it imported as itself.
 */
function bindsOwnName(text: string, i: ImportInfo, name: string): boolean {
  const stmt = text.slice(offsetAt(text, i.span.startLine, i.span.startColumn), endOf(text, i.span));
  const own = new RegExp(`(?:^|[{,\\s])${escapeName(name)}\\s*(?=[,}]|$)`, 'm');
  return own.test(stmt.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ' '));
}

const escapeName = (name: string) => name.replace(/[$]/g, '\\$');

/**
 * The name the file binds `module` to as a whole, or null: `import * as DDB from module`,
 * or `const ddb = require(module)` (an ES default import is not taken: what it holds
 * depends on the compiler's interop settings).
 */
export function packageNamespace(text: string, imports: ImportInfo[], module: string): string | null {
  for (const i of imports) {
    if (i.module !== module) continue;
    const star = i.names.map((n) => /^\*\s*as\s+([A-Za-z_$][\w$]*)$/.exec(n)?.[1]).find(Boolean);
    if (star) return star;
    const whole = i.names.map((n) => /^default as ([A-Za-z_$][\w$]*)$/.exec(n)?.[1]).find(Boolean);
    const stmt = text.slice(offsetAt(text, i.span.startLine, i.span.startColumn), endOf(text, i.span));
    if (whole && /^(?:const|let|var)\s/.test(stmt)) return whole;
  }
  return null;
}

/** Whether one of the file's imports binds `name` as itself (not `ddb.Name`, not an alias). */
export function importsOwnName(text: string, imports: ImportInfo[], name: string): boolean {
  return imports.some((i) => i.names.includes(name) && bindsOwnName(text, i, name));
}

export function jsImportEdits(text: string, imports: ImportInfo[], needed: Needed[], quote: "'" | '"'): ImportEdit[] {
  const edits: ImportEdit[] = [];
  const newLines: string[] = [];
  const byModule = new Map<string, string[]>();
  for (const n of needed) {
    if (!n.name) continue;
    const have = imports.some(
      (i) => i.module === n.module && i.names.includes(n.name!) && bindsOwnName(text, i, n.name!),
    );
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
      const open = stmt.indexOf('{');
      edits.push(intoList(text, start + open + 1, start + stmt.indexOf('}'), names));
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
      const open = stmt.indexOf('(');
      const close = stmt.lastIndexOf(')');
      if (open >= 0 && close > open) edits.push(intoList(text, start + open + 1, start + close, names));
      else edits.push({ span: pointAt(text, endOf(text, into.span)), newText: `, ${names.join(', ')}` });
    } else newLines.push(`from ${module} import ${names.join(', ')}`);
  }
  // Each new line joins its group; lines for one point are written together, in order.
  const points = new Map<number, { before: string; after: string; lines: string[] }>();
  for (const line of newLines) {
    const p = pythonImportPoint(text, imports, line.split(/\s+/)[1], line.startsWith('from '));
    const at = points.get(p.offset) ?? { before: p.before, after: p.after, lines: [] };
    at.lines.push(line);
    points.set(p.offset, at);
  }
  for (const [offset, p] of points) {
    // Lines at one point (a file without imports): grouped, a blank line between groups.
    const order = (l: string) => `${pyGroup(l.split(/\s+/)[1])}${isortKey(l.startsWith('from '), l.split(/\s+/)[1])}`;
    const lines = [...p.lines].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
    const joined = lines
      .map((l, i) => (i > 0 && pyGroup(l.split(/\s+/)[1]) !== pyGroup(lines[i - 1].split(/\s+/)[1]) ? `\n${l}` : l))
      .join('\n');
    edits.push({ span: pointAt(text, offset), newText: p.before + joined + p.after });
  }
  return edits;
}
