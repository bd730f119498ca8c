import * as fs from 'node:fs';
import { formatBytes } from '../syntax/prescan';

/** A file's text, or why it is not read: too large, binary, unreadable, not a regular file. */
/** Reads a file's current text (an open editor's buffer first), or null. */
export type ReadText = (file: string) => string | null;

export type Source = { text: string } | { skipped: string };

/**
 * Opening a FIFO for reading blocks until a writer opens it; O_NONBLOCK makes the open
 * return at once (it changes nothing for regular files), so the type check below runs.
 * Windows has no FIFOs of this kind and no such flag.
 */
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
const CHUNK = 64 * 1024;

/** What a non-regular file is, for the reason it is skipped. */
export function kindOf(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/**
 * Reads a source file as the CLI and the index see it. Only regular files are read
 * (a FIFO would block forever, `/dev/zero` would never end), the type is checked on the
 * opened descriptor (the path may change between a stat and the open), and the size
 * limit is enforced on the bytes actually read, not on what stat said: a file that
 * grows while it is read stops at the limit too. Invalid UTF-8 becomes U+FFFD: the rest
 * of the file is still worth analysing.
 */
export function readSource(file: string, maxBytes: number): Source {
  let fd: number;
  try {
    // Not even opened when it is not a regular file: opening a device can do things.
    const before = fs.statSync(file);
    if (!before.isFile()) return { skipped: `not a regular file (${kindOf(before)})` };
    if (before.size > maxBytes) return { skipped: tooLarge(maxBytes, formatBytes(before.size)) };
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch (e) {
    return { skipped: `unreadable: ${(e as Error).message}` };
  }
  let buf: Buffer;
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { skipped: `not a regular file (${kindOf(stat)})` };
    const read = readUpTo(fd, maxBytes + 1, stat.size);
    if (read.length > maxBytes) return { skipped: tooLarge(maxBytes, 'it grew while read') };
    buf = read;
  } catch (e) {
    return { skipped: `unreadable: ${(e as Error).message}` };
  } finally {
    fs.closeSync(fd);
  }
  if (buf.subarray(0, 8192).includes(0)) return { skipped: 'binary file' };
  return { text: new TextDecoder('utf-8').decode(buf) };
}

function tooLarge(maxBytes: number, size: string): string {
  return `larger than ${formatBytes(maxBytes)} (${size})`;
}

/**
 * Up to `limit` bytes from `fd`: first the size the file says it has (plus one byte, to
 * see whether it grew), then in chunks while it keeps growing. Never more than `limit`
 * in memory, and no 64 KB chunk for a 2 KB file (5,000 such chunks made a check's peak
 * memory 40% larger).
 */
function readUpTo(fd: number, limit: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  let want = Math.min(size + 1, limit);
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(want, limit - total)));
    want = CHUNK;
    const n = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    total += n;
    // A regular file reads short only at its end.
    if (n < chunk.length) break;
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
}

/**
 * The first `bytes` of a regular file as text (imports sit at the top), or null when it
 * cannot be read: a cheap look before reading the whole file.
 */
export function readHead(file: string, bytes: number): string | null {
  let fd: number;
  try {
    if (!fs.statSync(file).isFile()) return null;
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    const buf = Buffer.allocUnsafe(bytes);
    const n = fs.readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}
