import * as path from 'node:path';
import type { FrontEnd } from '../../model/frontend';

/**
 * Whether a file the pre-scan passed over may call a wrapper: it imports one of the
 * modules that wrap DynamoDB calls (`require("./db")`, `from app.dao import ItemDao`,
 * `from app import dao`). Such a file names no SDK at all, so without this it would
 * never be parsed; with it, only the files that import a wrapper module are. Both
 * sides are reduced to module names, so the test costs the same however many wrapper
 * modules the workspace has.
 */
export function importsAny(imported: Iterable<string>, names: ReadonlySet<string>): boolean {
  for (const n of imported) if (names.has(n)) return true;
  return false;
}

/** How importers name a module: its file name without extension; `index.ts`, `__init__.py` by their folder. */
export function moduleName(file: string): string {
  const base = path.basename(file).replace(/\.(d\.)?[cm]?[jt]sx?$|\.py$/, '');
  const name = base === 'index' || base === '__init__' ? path.basename(path.dirname(file)) : base;
  return name.replace(/^@/, '');
}

/**
 * The names a wrapper module may be imported by: its own, and its two folders' (a
 * barrel `adapters/index.ts` re-exporting it, a path alias `@adapters`).
 */
export function importNamesOf(file: string): string[] {
  const dir = path.dirname(file);
  return [moduleName(file), path.basename(dir), path.basename(path.dirname(dir))];
}

// Each pattern starts with a literal word, which the regular expression engine finds by a fast
// search: a look at every import line of 5,000 files must cost little next to reading them.
const JS_FROM = /from\s*['"]([^'"\n]+)['"]/g;
const JS_REQUIRE = /require\s*\(\s*['"]([^'"\n]+)['"]/g;
const JS_DYNAMIC = /import\s*\(\s*['"]([^'"\n]+)['"]/g;
const PY_FROM = /from[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([^\n)]*)/g;
const PY_IMPORT = /import[ \t]+([\w., \t]+)/g;

/** The module names a JS/TS file's imports mention: the last part of each specifier (`./db.js` → `db`, `../models` → `models`). */
export function jsModuleNames(text: string): Set<string> {
  const out = new Set<string>();
  for (const re of [JS_FROM, JS_REQUIRE, JS_DYNAMIC]) for (const m of text.matchAll(re)) out.add(moduleName(m[1]));
  return out;
}

/**
 * The module names a Python file's imports mention: each part of a module path and the
 * names imported from it (`from app import dao` may import the module `dao`).
 */
export function pythonModuleNames(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(PY_FROM)) {
    for (const part of m[1].split('.')) if (part) out.add(part);
    for (const name of m[2].split(',')) {
      const n = name.trim().split(/\s+/)[0];
      if (n) out.add(n);
    }
  }
  for (const m of text.matchAll(PY_IMPORT)) {
    for (const item of m[1].split(','))
      for (const part of item.trim().split(/\s+/)[0].split('.')) if (part) out.add(part);
  }
  return out;
}

/** How much of a file is read for its imports: they sit at the top. */
export const IMPORTS_HEAD = 8 * 1024;

/** The module names a file's head imports, read with its own language's patterns. */
export function headImports(text: string, fe: Pick<FrontEnd, 'importedModuleNames'>): string[] {
  return [...fe.importedModuleNames(text.slice(0, IMPORTS_HEAD))].map(kept);
}

/**
 * The index keeps these names for every file of a workspace: one copy of each name
 * (`logger` was kept 3,179 times for bench/workspace), and a copy rather than a piece of
 * the file's text, which a piece keeps whole in memory.
 */
const keptNames = new Map<string, string>();
function kept(name: string): string {
  let copy = keptNames.get(name);
  if (copy === undefined) keptNames.set((copy = (' ' + name).slice(1)), copy);
  return copy;
}
