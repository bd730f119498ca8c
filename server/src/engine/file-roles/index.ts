import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRootOf } from './project';
import type { Access, FileContext, FileContexts } from '../model';
import { frontEndFor } from '../frontends/registry';
import { languageForFile } from '../syntax/parser';
import { fileRole, type ContentRole, type FileRole, type RoleStyle } from './role';

export {
  FILE_ROLES,
  isTestFileName,
  fileRole,
  isOneOff,
  pathRole,
  contentRole,
  roleWords,
  type ContentRole,
  type FileRole,
  type RoleStyle,
} from './role';
export { RoleWatch } from './role-watch';
export { valueShape, type ValueShape } from './shape';
export { languageProjectRootOf, projectRootOf, sameProject } from './project';

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
  if (text != null || byContent !== undefined)
    return fileRole(inProject(file), text ?? null, roleStyleOf(file), byContent);
  let stamp: string;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return fileRole(inProject(file), null, roleStyleOf(file));
    stamp = `${st.mtimeMs}:${st.size}`;
  } catch {
    return fileRole(inProject(file), null, roleStyleOf(file));
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
  const role = fileRole(inProject(file), content, roleStyleOf(file));
  cache.set(file, { stamp, role });
  return role;
}

/** A file's role and project: from its text when given, else from the file on disk. */
export function fileContextOf(file: string, text?: string | null, byContent?: ContentRole): FileContext {
  return { role: roleOfFile(file, text, byContent), project: projectRootOf(file) };
}

/**
 * The contexts the rules need for one file's accesses, worked out once when the file is
 * analysed: the file's own (from its text, which an editor may hold unsaved), every other
 * file an access sits in, and every file a key's literal text came from (a test passing a
 * sample id to a service function), those two from disk.
 */
export function contextsFor(
  file: string,
  accesses: readonly Access[],
  text?: string | null,
  byContent?: ContentRole,
): Record<string, FileContext> {
  const out: Record<string, FileContext> = { [file]: fileContextOf(file, text, byContent) };
  const add = (f: string) => {
    if (!(f in out)) out[f] = fileContextOf(f);
  };
  for (const a of accesses) {
    add(a.file);
    for (const p of a.partitionKey?.template.parts ?? []) if ('literal' in p && p.origin) add(p.origin.file);
  }
  return out;
}

/** The contexts of `files` not in `known` added from disk: for files whose analysis did not say. */
export function withContexts(known: FileContexts, files: Iterable<string>): FileContexts {
  let out: Record<string, FileContext> | null = null;
  for (const f of files) {
    if (f in known || (out && f in out)) continue;
    out ??= { ...known };
    out[f] = fileContextOf(f);
  }
  return out ?? known;
}

/**
 * Whether contexts worked out in an earlier run (a cached analysis's) still hold. A
 * file's project is the nearest folder with a package.json, pyproject.toml, ... now: one
 * added since makes a folder a project of its own, and the folders that give a file its
 * role are those below its root. A file whose text `unchanged` vouches for keeps its role
 * when it keeps its root (the role is read from the text and the path below the root);
 * any other file's role is read again from the disk.
 */
export function contextsHold(contexts: FileContexts | undefined, unchanged: (file: string) => boolean): boolean {
  for (const [file, context] of Object.entries(contexts ?? {})) {
    if (projectRootOf(file) !== context.project) return false;
    if (!unchanged(file) && roleOfFile(file) !== context.role) return false;
  }
  return true;
}

/** Whose patterns a file's content is read with: its front-end's (the JavaScript ones where no front-end reads it). */
function roleStyleOf(file: string): RoleStyle {
  const language = languageForFile(file);
  return language ? frontEndFor(language).contentRoles : 'js';
}

/** The file's path below its project root (its folders there are what its path says of it). */
function inProject(file: string): string {
  const root = projectRootOf(file);
  if (!root) return file;
  const rel = path.relative(root, path.resolve(file));
  return rel.startsWith('..') ? file : rel;
}
