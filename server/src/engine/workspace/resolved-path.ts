import * as path from 'node:path';

/**
 * A file's absolute path, kept: the environment binder looks up every file of the workspace
 * after each template edit (resolving 5,000 paths each time was a quarter of that), and a
 * warm check's planning of entry files tests every file passed over, twice a round.
 * Keyed by the name alone, so a lookup hashes a string V8 has hashed before (a key built per
 * call, `${cwd}\0${file}`, cost 1-2 µs a lookup); cleared when the working directory, which
 * relative names resolve against, changes.
 */
let resolvedPaths = new Map<string, string>();
let resolvedIn = '';
export function resolvedPath(file: string): string {
  const cwd = process.cwd();
  if (cwd !== resolvedIn || resolvedPaths.size > 100_000) {
    resolvedPaths = new Map();
    resolvedIn = cwd;
  }
  let abs = resolvedPaths.get(file);
  if (abs === undefined) resolvedPaths.set(file, (abs = joinedToCwd(cwd, file) ?? path.resolve(file)));
  return abs;
}

/**
 * A walk's relative path (no `.` or `..` segment, no doubled separator) joined to the
 * working directory: what `path.resolve` gives, at a tenth of its cost (a warm check
 * resolves the 5,000 paths of a workspace once). Null for any other path.
 */
function joinedToCwd(cwd: string, file: string): string | null {
  if (path.sep !== '/' || file === '' || path.isAbsolute(file) || UNUSUAL_SEGMENT.test(file)) return null;
  return cwd === '/' ? `/${file}` : `${cwd}/${file}`;
}
const UNUSUAL_SEGMENT = /(^|\/)\.{1,2}(\/|$)|\/\/|\/$/;
