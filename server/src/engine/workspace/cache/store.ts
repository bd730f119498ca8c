import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isEntry, type Entry } from './entry';
import type { InfraReadEntry } from '../infra';

/**
 * The cache file: one header line, then the entries. The header names the format, the
 * key (engine version, cache schema, the options that change results) and a checksum of
 * the rest, so a truncated, damaged or foreign file is told from a valid one before any
 * of it is used.
 */
const MAGIC = 'shardlens-analysis-cache';

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
  /** The cache file's modification time: a stamp of a file modified about then is not trusted (stamp.ts). */
  written: number;
}

interface Header {
  magic: string;
  key: string;
  checksum: string;
  facts: RunFacts;
}

/** The same digest for a text and for its UTF-8 bytes. */
export const sha1 = (data: string | Buffer) => createHash('sha1').update(data).digest('base64');

/**
 * Where a workspace's cache lives: the folder given, else `node_modules/.cache/shardlens`
 * under the root when it has `node_modules` (where build tools keep theirs), else
 * `.shardlens-cache/` in the root.
 */
export function cacheDir(root: string, given?: string | null): string {
  if (given) return path.resolve(given);
  const modules = path.join(root, 'node_modules');
  return fs.existsSync(modules) ? path.join(modules, '.cache', 'shardlens') : path.join(root, '.shardlens-cache');
}

export function cacheFile(dir: string, name: string): string {
  return path.join(dir, `${name}.json`);
}

/**
 * Reads the cache: null when there is none or it was written with another key (another
 * engine version or other options: not an error). A file that is not a whole, valid
 * cache is reported through `notice` in one line and not used.
 */
export function readCache(file: string, key: string, notice: (line: string) => void): CacheFile | null {
  // Read as bytes: the checksum is taken of them as they are (hashing a string would first
  // encode all 6 MB of it to UTF-8 again), and only the entries are decoded, once.
  let raw: Buffer;
  let written: number;
  try {
    // Before the read: a cache renamed over this one in between is newer, so this is the stricter time.
    written = fs.statSync(file).mtimeMs;
    raw = fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      notice(`cannot read the cache ${file} (${(e as Error).message}); analysing every file`);
    return null;
  }
  const corrupt = (why: string) => {
    notice(`the cache ${file} is ${why}; discarded, analysing every file`);
    return null;
  };
  const nl = raw.indexOf(0x0a);
  let header: Header;
  try {
    header = JSON.parse(raw.toString('utf8', 0, nl < 0 ? raw.length : nl)) as Header;
  } catch {
    return corrupt('not a ShardLens cache');
  }
  if (header?.magic !== MAGIC || typeof header.key !== 'string') return corrupt('not a ShardLens cache');
  if (header.key !== key) return null;
  const body = nl < 0 ? Buffer.alloc(0) : raw.subarray(nl + 1);
  if (sha1(body) !== header.checksum) return corrupt('damaged (its checksum does not match: cut short?)');
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const entries = new Map<string, Entry>();
    for (const [file, e] of Object.entries(parsed)) {
      if (!isEntry(e)) return corrupt(`not a ShardLens cache (entry ${file})`);
      entries.set(file, e);
    }
    const raw = entryLines(body, [...entries.keys()]);
    const facts = header.facts;
    if (typeof facts?.definitions !== 'string' || !Array.isArray(facts.wrappers))
      return corrupt('not a ShardLens cache');
    if (!Array.isArray(facts.aliases) || !facts.aliases.every(isAliasState))
      return corrupt('not a ShardLens cache (path aliases)');
    if (facts.infra !== undefined && !isInfraEntries(facts.infra))
      return corrupt('not a ShardLens cache (infrastructure)');
    return { facts, entries, raw, written };
  } catch {
    return corrupt('damaged');
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

/**
 * Writes the cache whole and at once: to a temporary file in the same folder, then
 * renamed over the old one. Two checks writing together each rename a whole file, and
 * the last one stays; a reader never sees half of one. Failing to write is reported and
 * costs only the next run's speed.
 */
export function writeCache(
  file: string,
  key: string,
  facts: RunFacts,
  entries: Iterable<[string, Entry | Buffer]>,
  notice: (line: string) => void,
): void {
  // One entry per line (entryLines reads them back so); a Buffer is an entry's bytes as read.
  const parts: Buffer[] = [Buffer.from('{\n')];
  let size = 0;
  for (const [name, entry] of entries) {
    const part = Buffer.isBuffer(entry) ? entry : Buffer.from(`${JSON.stringify(name)}:${JSON.stringify(entry)}`);
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
  // Hashed and written piece by piece: joining 6 MB into a new buffer first cost more than writing it.
  const checksum = createHash('sha1');
  for (const part of parts) checksum.update(part);
  const header: Header = { magic: MAGIC, key, checksum: checksum.digest('base64'), facts };
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeAll(tmp, [Buffer.from(`${JSON.stringify(header)}\n`), ...parts]);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    notice(`cannot write the cache ${file} (${(e as Error).message})`);
  }
}
