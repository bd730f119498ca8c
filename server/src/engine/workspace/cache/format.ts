import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isEntry, type Entry } from './entry';
import type { InfraReadEntry } from '../infra';

/**
 * How a cache file is laid out (store.ts writes the whole cache, delta.ts what changed
 * since): one header line, then the entries, one per line. The header names the format,
 * the key (engine version, cache schema, the options that change results) and a checksum
 * of the rest, so a truncated, damaged or foreign file is told from a valid one before any
 * of it is used.
 */

/**
 * The most the entries may take, serialised (a cap, not a target): 5,000 files of which
 * 150 hold DynamoDB calls take a few MB. Entries past it are left out (in path order)
 * and analysed again next time. Entries of files not in the run are never written.
 */
export const MAX_CACHE_BYTES = 64 * 1024 * 1024;

const ENTRY_SEPARATOR = Buffer.from(',\n');

/** What a whole run knows beside the entries: the workspace facts every file was judged with. */
export interface RunFacts {
  /** The table definitions of the whole workspace, as JSON. */
  definitions: string;
  /** The files that wrap DynamoDB calls. */
  wrappers: string[];
  /** What each infrastructure file declared, with the text hash and other files' answers it holds for. */
  infra?: Record<string, InfraReadEntry>;
  /**
   * The tsconfig.json / jsconfig.json paths the JavaScript and TypeScript files' imports
   * are resolved through (`aliasConfigPaths`), each with what it held: the sha-1 of its
   * text, '-' when it could not be read, null when there was none.
   */
  aliases: Array<[string, string | null]>;
}

export interface CacheFile {
  facts: RunFacts;
  entries: Map<string, Entry>;
  /**
   * Each entry's bytes as read (`"name":{...}`), to be written again as they are when the
   * entry has not changed: re-serialising and re-encoding 5,000 entries was most of what a
   * check after a one-file edit spent writing the cache. Empty when the lines do not match.
   */
  raw: Map<string, Buffer>;
  /**
   * The whole cache file's modification time: a stamp of a file modified about then is
   * not trusted (stamp.ts). An entry from the delta is judged by the delta's (`deltaWritten`).
   */
  written: number;
  /** The whole file the entries were read from (its delta names it by `id`), and the bytes of its entries. */
  base: { id: string; bytes: number };
  /** The files whose entries came from the delta (delta.ts), which holds the entries that differ from the whole file's. */
  fromDelta: ReadonlySet<string>;
  /** The delta's modification time; 0 without one. */
  deltaWritten: number;
}

/** A cache file's first line. */
export interface Header {
  magic: string;
  key: string;
  /** A delta's: the whole cache it was written over (`CacheFile.base.id`). */
  base?: string;
  checksum: string;
  facts: RunFacts;
}

/** The same digest for a text and for its UTF-8 bytes. */
export const sha1 = (data: string | Buffer) => createHash('sha1').update(data).digest('base64');

/**
 * A cache file's header and body, read as bytes (the checksum is taken of them as they
 * are: hashing a string would first encode all 6 MB of it to UTF-8 again), with the file's
 * modification time; null when there is none, a reason when it cannot be read or is not
 * a whole file of this `magic`.
 */
export function readHeaderAndBody(
  file: string,
  magic: string,
):
  | { header: Header; headerLine: Buffer; body: Buffer; written: number }
  | null
  | { unreadable: string }
  | { corrupt: string } {
  let raw: Buffer;
  let written: number;
  try {
    // Before the read: a cache renamed over this one in between is newer, so this is the stricter time.
    written = fs.statSync(file).mtimeMs;
    raw = fs.readFileSync(file);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : { unreadable: (e as Error).message };
  }
  const nl = raw.indexOf(0x0a);
  let header: Header;
  try {
    header = JSON.parse(raw.toString('utf8', 0, nl < 0 ? raw.length : nl)) as Header;
  } catch {
    return { corrupt: 'not a ShardLens cache' };
  }
  if (header?.magic !== magic || typeof header.key !== 'string') return { corrupt: 'not a ShardLens cache' };
  const body = nl < 0 ? Buffer.alloc(0) : raw.subarray(nl + 1);
  const headerLine = raw.subarray(0, nl < 0 ? raw.length : nl);
  return { header, headerLine, body, written };
}

/**
 * A cache file's (or a delta's) body and facts, checked: its entries, each with its bytes
 * as read; or why they are not a ShardLens cache's.
 */
export function readBody(
  body: Buffer,
  facts: RunFacts,
): { facts: RunFacts; entries: Map<string, Entry>; raw: Map<string, Buffer> } | string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const entries = new Map<string, Entry>();
    for (const [file, e] of Object.entries(parsed)) {
      if (!isEntry(e)) return `not a ShardLens cache (entry ${file})`;
      entries.set(file, e);
    }
    const raw = entryLines(body, [...entries.keys()]);
    if (typeof facts?.definitions !== 'string' || !Array.isArray(facts.wrappers)) return 'not a ShardLens cache';
    if (!Array.isArray(facts.aliases) || !facts.aliases.every(isAliasState))
      return 'not a ShardLens cache (path aliases)';
    if (facts.infra !== undefined && !isInfraEntries(facts.infra)) return 'not a ShardLens cache (infrastructure)';
    return { facts, entries, raw };
  } catch {
    return 'damaged';
  }
}

/**
 * The body's entries, one per line (JSON.stringify escapes every newline in a string, so
 * a line break is always between entries): line i + 1 holds the i-th key, in the order
 * JSON.parse kept (insertion order: no file path is an array index). Anything else: none.
 */
function entryLines(body: Buffer, names: string[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const lines: Buffer[] = [];
  for (let at = 0; at < body.length;) {
    const nl = body.indexOf(0x0a, at);
    const end = nl < 0 ? body.length : nl;
    lines.push(body.subarray(at, end));
    at = end + 1;
  }
  if (lines.length !== names.length + 2) return out;
  for (let i = 0; i < names.length; i++) {
    const line = lines[i + 1];
    const part = i < names.length - 1 ? line.subarray(0, line.length - 1) : line;
    out.set(names[i], part);
  }
  return out;
}

/**
 * The entries as the pieces of a cache file's body, one entry per line (entryLines reads
 * them back so); a Buffer is an entry's bytes as read. Entries past MAX_CACHE_BYTES are left out.
 */
export function entryParts(entries: Iterable<[string, Entry | Buffer]>): Buffer[] {
  const parts: Buffer[] = [Buffer.from('{\n')];
  let size = 0;
  for (const [name, entry] of entries) {
    const part = Buffer.isBuffer(entry) ? entry : serialisedEntry(name, entry);
    if (size + part.length > MAX_CACHE_BYTES) continue;
    const last = parts[parts.length - 1];
    const first = size === 0;
    size += part.length + 2;
    // Entries kept as read lie one after the other in the old file: copied as one run, not
    // thousands of pieces (most of a one-file edit's write was Buffer.concat's per-part work).
    if (!first && followsInFile(last, part)) {
      parts[parts.length - 1] = Buffer.from(
        last.buffer,
        last.byteOffset,
        part.byteOffset + part.length - last.byteOffset,
      );
      continue;
    }
    if (!first) parts.push(ENTRY_SEPARATOR);
    parts.push(part);
  }
  parts.push(Buffer.from('\n}'));
  return parts;
}

/** An entry's line as written: `"name":{...}`. */
export function serialisedEntry(name: string, entry: Entry): Buffer {
  return Buffer.from(`${JSON.stringify(name)}:${JSON.stringify(entry)}`);
}

/**
 * Writes a cache file whole and at once: to a temporary file in the same folder, then
 * renamed over the old one. Two checks writing together each rename a whole file, and
 * the last one stays; a reader never sees half of one. Failing to write is reported
 * (false) and costs only the next run's speed.
 */
export function writeWithHeader(
  file: string,
  head: Pick<Header, 'magic' | 'key' | 'base'>,
  facts: RunFacts,
  parts: Buffer[],
  notice: (line: string) => void,
): boolean {
  // Hashed and written piece by piece: joining 6 MB into a new buffer first cost more than writing it.
  const checksum = createHash('sha1');
  for (const part of parts) checksum.update(part);
  const header: Header = { ...head, checksum: checksum.digest('base64'), facts };
  // Unique enough among the processes and threads writing here (crypto's random bytes cost ~5 ms to start).
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeAll(tmp, [Buffer.from(`${JSON.stringify(header)}\n`), ...parts]);
    fs.renameSync(tmp, file);
    return true;
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    notice(`cannot write the cache ${file} (${(e as Error).message})`);
    return false;
  }
}

/** Writes the buffers, in order, to a new file (a short write goes on from where it stopped). */
function writeAll(file: string, buffers: Buffer[]): void {
  const fd = fs.openSync(file, 'w');
  try {
    const rest = buffers.filter((b) => b.length > 0);
    while (rest.length > 0) {
      let written = fs.writevSync(fd, rest);
      while (rest.length > 0 && written >= rest[0].length) written -= rest.shift()!.length;
      if (written > 0) rest[0] = rest[0].subarray(written);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether `next` starts right after `prev` and the separator in the same buffer (two entries as read, adjacent). */
function followsInFile(prev: Buffer, next: Buffer): boolean {
  const end = prev.byteOffset + prev.length;
  if (prev.buffer !== next.buffer || next.byteOffset !== end + ENTRY_SEPARATOR.length) return false;
  const between = new Uint8Array(prev.buffer, end, ENTRY_SEPARATOR.length);
  return between[0] === ENTRY_SEPARATOR[0] && between[1] === ENTRY_SEPARATOR[1];
}

function isAliasState(v: unknown): v is [string, string | null] {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && (v[1] === null || typeof v[1] === 'string');
}

function isInfraEntries(v: unknown): v is Record<string, InfraReadEntry> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  return Object.values(v).every((e: unknown) => {
    const entry = e as Partial<InfraReadEntry> | null;
    return (
      typeof entry?.hash === 'string' &&
      Array.isArray(entry.deps) &&
      typeof entry.declarations === 'object' &&
      entry.declarations !== null &&
      Array.isArray(entry.declarations.functions) &&
      Array.isArray(entry.declarations.tables)
    );
  });
}
