/**
 * What the last walk over the workspace listed in each folder (collectFiles' `onFolder`,
 * through `noteWalkedFolder`): the project roots, the config lookup and the cache's
 * path-alias facts ask it whether a file is there or a path is a folder, instead of a stat
 * or a listing each (on bench/workspace some 1,900 alias configs, a marker look per folder
 * and a stat per source file). Kept until the next walk notes the folder again, or
 * `forgetWalkListings` (a watcher saw a config change).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** What a folder's entry is, as its listing says. */
export type EntryKind = 'file' | 'dir' | 'link' | 'other';

/** Each entry's kind, by name. */
export function kindsOf(entries: readonly fs.Dirent[]): Map<string, EntryKind> {
  const kinds = new Map<string, EntryKind>();
  for (const d of entries)
    kinds.set(d.name, d.isFile() ? 'file' : d.isDirectory() ? 'dir' : d.isSymbolicLink() ? 'link' : 'other');
  return kinds;
}

const walked = new Map<string, Map<string, EntryKind>>();

/** A folder's entries as a walk just listed them. */
export function noteWalkedFolder(dir: string, entries: readonly fs.Dirent[]): void {
  walked.set(path.resolve(dir), kindsOf(entries));
}

/** A folder's entries as the walk listed them; undefined when no walk listed it. */
export function walkListing(dir: string): ReadonlyMap<string, EntryKind> | undefined {
  return walked.get(dir);
}

/**
 * What an absolute path is as its folder's walk listing says: null when the folder was
 * listed without it, undefined when the folder was not walked (the caller asks the disk).
 */
export function walkedKind(p: string): EntryKind | null | undefined {
  const listing = walked.get(path.dirname(p));
  return listing && (listing.get(path.basename(p)) ?? null);
}

export function forgetWalkListings(): void {
  walked.clear();
}

/**
 * Whether a regular file is there: its folder's walk listing says, when the folder was
 * walked and the name is not a link there; else the file system.
 */
export function walkedFileExists(p: string): boolean {
  const kind = walkedKind(p);
  if (kind !== undefined && kind !== 'link') return kind === 'file';
  try {
    return fs.statSync(p, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}
