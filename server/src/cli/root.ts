import * as path from 'node:path';

/**
 * The workspace root a check reads the paths under: the working directory when every
 * path lies in it, else the deepest folder holding them all. Imports are resolved up to
 * the root (a tsconfig's `baseUrl` and `paths`, a Python package's modules), so a folder
 * checked from elsewhere (`shardlens check ../app`) must be its own root: with the
 * working directory as root, its tsconfig was never read and every import through it
 * (`import { Db } from 'services/db/db.service'`) was lost.
 */
export function workspaceRoot(paths: readonly string[], cwd: string = process.cwd()): string {
  const inside = (p: string) => p === cwd || p.startsWith(cwd.endsWith(path.sep) ? cwd : cwd + path.sep);
  const resolved = paths.map((p) => path.resolve(cwd, p));
  if (resolved.length === 0 || resolved.every(inside)) return cwd;
  return resolved.reduce(commonFolder);
}

function commonFolder(a: string, b: string): string {
  const as = a.split(path.sep);
  const bs = b.split(path.sep);
  let i = 0;
  while (i < as.length && i < bs.length && as[i] === bs[i]) i++;
  return as.slice(0, i).join(path.sep) || path.sep;
}
