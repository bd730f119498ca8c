/**
 * What the workspace's folders hold, read once per folder: whether a module file is there
 * and a folder's entries, for import resolution and project lookup. Kept until a file in
 * the folder changes (`forget`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { kindsOf, type EntryKind } from '../file-roles/walk-listings';

/** A folder's entries; empty when it is not a folder or not there, 'unlisted' when listing it is not allowed. */
function readListing(dir: string): Map<string, EntryKind> | 'unlisted' {
  try {
    return kindsOf(fs.readdirSync(dir, { withFileTypes: true }));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EACCES' ? 'unlisted' : new Map();
  }
}

/** Whether a link leads to a regular file. */
function isFileBehind(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export class FolderListings {
  private readonly existing = new Map<string, boolean>();
  /** Folder → what its entries are, read once (see `exists`). */
  private readonly listings = new Map<string, Map<string, EntryKind> | 'unlisted'>();

  /**
   * Whether a module file is there, from its folder's listing, read once: an import is
   * looked for under several names in every folder up to the root (2,400 stats for the
   * 152 DynamoDB files of bench/workspace, one listing per folder instead). A link is
   * followed with a stat. Remembered until a file changes.
   */
  exists(file: string): boolean {
    let known = this.existing.get(file);
    if (known === undefined) {
      const listing = this.listing(path.dirname(file));
      const entry = listing === 'unlisted' ? 'link' : listing.get(path.basename(file));
      // A link, or a file in a folder that cannot be listed, is asked of the file system.
      known = entry === 'file' || (entry === 'link' && isFileBehind(file));
      this.existing.set(file, known);
    }
    return known;
  }

  /**
   * A folder's entries (empty when it is not there), or 'unlisted' when it cannot be
   * listed but may hold files (execute-only folders such as `/home` on shared machines).
   * A folder its parent's listing does not hold is not read at all.
   */
  listing(dir: string): Map<string, EntryKind> | 'unlisted' {
    let entries = this.listings.get(dir);
    if (!entries) {
      const parent = path.dirname(dir);
      const up = parent === dir ? 'unlisted' : this.listing(parent);
      const self = up === 'unlisted' ? undefined : up.get(path.basename(dir));
      entries = up !== 'unlisted' && self !== 'dir' && self !== 'link' ? new Map() : readListing(dir);
      this.listings.set(dir, entries);
    }
    return entries;
  }

  /**
   * Whether `file` is there as asked earlier (`exists`) or as its folder's listing read earlier
   * says (a file or a link), or undefined when neither was: then nothing was looked up there yet.
   */
  listedBefore(file: string): boolean | undefined {
    const known = this.existing.get(file);
    if (known !== undefined) return known;
    const listing = this.listings.get(path.dirname(file));
    if (!listing || listing === 'unlisted') return undefined;
    const entry = listing.get(path.basename(file));
    return entry === 'file' || entry === 'link';
  }

  /** A file appeared, changed or went: what is known of it, and its folder's listing and its parents' (a new package folder appears in its parent's). */
  forget(file: string): void {
    this.existing.delete(file);
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      this.listings.delete(dir);
      if (path.dirname(dir) === dir) break;
    }
  }
}
