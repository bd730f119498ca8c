import * as path from 'node:path';

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

const JS_SPECIFIER = /(?:\bfrom|\brequire\s*\(|\bimport\s*\()\s*['"]([^'"\n]+)['"]/g;
const PY_FROM = /^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([^\n)]*)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([\w., \t]+)/gm;

/**
 * The module names a file's imports mention: the last part of each JS specifier
 * (`./db.js` → `db`, `../models` → `models`), each part of a Python module path and the
 * names imported from it (`from app import dao` may import the module `dao`).
 */
export function importedModuleNames(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(JS_SPECIFIER)) out.add(moduleName(m[1]));
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
