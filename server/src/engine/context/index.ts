import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRootOf } from './project';
import { fileRole, type ContentRole, type FileRole } from './role';

export {
  FILE_ROLES,
  fileRole,
  isOneOff,
  pathRole,
  contentRole,
  roleWords,
  type ContentRole,
  type FileRole,
} from './role';
export { RoleWatch } from './role-watch';
export { valueShape, type ValueShape } from './shape';
export { projectRootOf, sameProject } from './project';

/** How much of a file its role is read from: imports, guards and handlers sit near the top or at the end. */
const HEAD = 64 * 1024;

const cache = new Map<string, { stamp: string; role: FileRole }>();

/** A role the project's configuration gives a path (its `entryPoints`), before anything the file says. */
export type RoleOverride = (file: string) => FileRole | null;
let override: RoleOverride | null = null;

/** Installs (or, with null, removes) the project's role override; the CLI and the server install theirs. */
export function setRoleOverride(fn: RoleOverride | null): void {
  override = fn;
}

/**
 * The role of `file`. With its text, from the text; without it (the rules see only
 * accesses), from the file on disk, read once per modification: the role rarely
 * changes while a file is edited, and a file that cannot be read is judged by its
 * path alone. Unsaved editor text is not seen here until the caller passes it.
 */
export function roleOfFile(file: string, text?: string | null, byContent?: ContentRole): FileRole {
  const configured = override?.(file);
  if (configured) return configured;
  if (text != null || byContent !== undefined) return fileRole(inProject(file), text ?? null, byContent);
  let stamp: string;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return fileRole(inProject(file), null);
    stamp = `${st.mtimeMs}:${st.size}`;
  } catch {
    return fileRole(inProject(file), null);
  }
  const known = cache.get(file);
  if (known?.stamp === stamp) return known.role;
  let content: string | null = null;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      // The head and the tail: a `__main__` guard or `main()` call sits at the end of long files.
      const head = Buffer.alloc(Math.min(size, HEAD));
      fs.readSync(fd, head, 0, head.length, 0);
      let tail = '';
      if (size > HEAD) {
        const t = Buffer.alloc(Math.min(size - HEAD, HEAD));
        fs.readSync(fd, t, 0, t.length, size - t.length);
        tail = '\n' + t.toString('utf8');
      }
      content = head.toString('utf8') + tail;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    content = null;
  }
  const role = fileRole(inProject(file), content);
  cache.set(file, { stamp, role });
  return role;
}

/** The file's path below its project root (its folders there are what its path says of it). */
function inProject(file: string): string {
  const root = projectRootOf(file);
  if (!root) return file;
  const rel = path.relative(root, path.resolve(file));
  return rel.startsWith('..') ? file : rel;
}
