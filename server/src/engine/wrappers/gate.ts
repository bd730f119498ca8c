import * as path from 'node:path';

/**
 * Whether a file the pre-scan passed over may call a wrapper: it imports one of the
 * modules that wrap DynamoDB calls (`require("./db")`, `from app.dao import ItemDao`, `from app import dao`).
 * Such a file names no SDK at all, so without this it would never be parsed; with it,
 * only the files that import a wrapper module are.
 */
export function importGate(moduleFiles: Iterable<string>): (text: string) => boolean {
  const names = new Set<string>();
  for (const f of moduleFiles) {
    const base = path.basename(f).replace(/\.(d\.)?[cm]?[jt]sx?$|\.py$/, '');
    // `./models/index.ts` and `models/__init__.py` are imported by their folder's name.
    names.add(base === 'index' || base === '__init__' ? path.basename(path.dirname(f)) : base);
  }
  if (names.size === 0) return () => false;
  const alternatives = [...names].map((n) => n.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|');
  const js = new RegExp(
    String.raw`(?:\bfrom|\brequire\s*\()\s*['"][^'"\n]*?\b(?:${alternatives})(?:\.[cm]?[jt]sx?)?['"]`,
  );
  const python = new RegExp(String.raw`^[ \t]*(?:from|import)[ \t][^\n]*\b(?:${alternatives})\b`, 'm');
  return (text) => js.test(text) || python.test(text);
}
