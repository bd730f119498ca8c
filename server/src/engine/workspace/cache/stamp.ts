import * as fs from 'node:fs';

/**
 * What a file's stat said when its text was read and hashed: size, modification and
 * change times, inode. Like git's index, a later run that finds all four the same takes
 * the hash recorded then instead of reading the file again. The change time is what
 * tells a file rewritten with the same size and its modification time set back (touch -d,
 * an archive restored, a checkout that keeps times): writing the times moves it, and a
 * process cannot set it. A file rewritten under another name and renamed into place gets
 * another inode. What is trusted, then, is that an edit moves at least one of the four;
 * an edit that keeps them all (the clock set back, a filesystem that records none of
 * them) is not seen until the file's stat changes, as in git.
 */
export type Stamp = [size: number, mtimeMs: number, ctimeMs: number, ino: number];

/**
 * How far before a reference time a file must have been modified for its stamp to be
 * trusted. A file written twice within one tick of the filesystem's clock (a whole second
 * on some) can keep its stamp while its text changes; if the cache read it between the
 * two writes, the stamp would vouch for the first text. Git calls such entries racy and
 * compares their content; here a stamp is not even recorded when the file was modified
 * less than this before the run began reading, nor trusted when it was modified less
 * than this before the cache file was written (the same filesystem clock, should the
 * machine's disagree). Such a file is read and hashed again; its next run records it.
 */
export const RACY_MS = 1000;

/** The file's stamp now; null when it cannot be stat'ed (then it is read as before). */
export function stampOf(file: string): Stamp | null {
  try {
    const s = fs.statSync(file, { throwIfNoEntry: false });
    return s && s.isFile() ? [s.size, s.mtimeMs, s.ctimeMs, s.ino] : null;
  } catch {
    return null;
  }
}

export function sameStamp(a: Stamp, b: Stamp): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}

/** Whether a stamp was taken long enough after the file's last change (see RACY_MS). */
export function settledBefore(stamp: Stamp, reference: number): boolean {
  return Math.max(stamp[1], stamp[2]) < reference - RACY_MS;
}

export function isStamp(v: unknown): v is Stamp {
  return Array.isArray(v) && v.length === 4 && v.every((n) => typeof n === 'number' && Number.isFinite(n));
}

/**
 * Whether the stamps that moved are worth writing the whole cache again for, when nothing
 * else changed. A stamp not recorded costs each later run one read and hash of its file
 * (a fraction of a millisecond); the rewrite costs about as much as reading a thousand
 * files (on bench/workspace, 6 MB: ~120 ms of a 950 ms warm check). So a few touched files
 * (a checkout of a branch and back, a file saved unchanged, a file written just before the
 * last run) are hashed again until something else makes the cache be written; a hundredth
 * of the files, or more, is written at once.
 */
export function restampsWorthWriting(restamped: number, files: number): boolean {
  return restamped > 0 && restamped * 100 >= files;
}
