import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Entry } from './entry';
import { deltaFile, deltaOf, withDelta, writeDelta } from './delta';
import {
  entryParts,
  readBody,
  readHeaderAndBody,
  serialisedEntry,
  sha1,
  writeWithHeader,
  type CacheFile,
  type RunFacts,
} from './format';

export { MAX_CACHE_BYTES, sha1, type CacheFile, type RunFacts } from './format';

/** The whole cache's format (format.ts has the layout). */
const MAGIC = 'shardlens-analysis-cache';

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
 * Reads the cache, and the delta written over it since (delta.ts): null when there is
 * none or it was written with another key (another engine version or other options: not
 * an error). A file that is not a whole, valid cache is reported through `notice` in one
 * line and not used.
 */
export function readCache(file: string, key: string, notice: (line: string) => void): CacheFile | null {
  const corrupt = (why: string) => {
    notice(`the cache ${file} is ${why}; discarded, analysing every file`);
    return null;
  };
  const read = readHeaderAndBody(file, MAGIC);
  if (read === null) return null;
  if ('unreadable' in read) {
    notice(`cannot read the cache ${file} (${read.unreadable}); analysing every file`);
    return null;
  }
  if ('corrupt' in read) return corrupt(read.corrupt);
  const { header, headerLine, body, written } = read;
  if (header.key !== key) return null;
  if (sha1(body) !== header.checksum) return corrupt('damaged (its checksum does not match: cut short?)');
  const parsed = readBody(body, header.facts);
  if (typeof parsed === 'string') return corrupt(parsed);
  const whole: CacheFile = {
    ...parsed,
    written,
    base: { id: sha1(headerLine), bytes: body.length },
    fromDelta: new Set(),
    deltaWritten: 0,
  };
  return withDelta(whole, file, key, notice);
}

/**
 * Writes the cache whole (see `writeWithHeader` for how it stays whole with concurrent
 * writers); the delta written over the old one goes with it.
 */
export function writeCache(
  file: string,
  key: string,
  facts: RunFacts,
  entries: Iterable<[string, Entry | Buffer]>,
  notice: (line: string) => void,
): void {
  if (writeWithHeader(file, { magic: MAGIC, key }, facts, entryParts(entries), notice))
    fs.rmSync(deltaFile(file), { force: true });
}

/**
 * Writes what a run changed: as a delta over the cache it read when the changes are few
 * (a one-file edit rewrote 6 MB to change 10 entries), else the whole cache again.
 */
export function writeChanges(
  file: string,
  key: string,
  facts: RunFacts,
  entries: ReadonlyArray<[string, Entry | Buffer]>,
  old: CacheFile | null,
  notice: (line: string) => void,
): void {
  const serialised = entries.map(([name, e]): [string, Buffer] => [
    name,
    Buffer.isBuffer(e) ? e : serialisedEntry(name, e),
  ]);
  const changed = old && deltaOf(serialised, old);
  if (changed && writeDelta(file, key, old.base.id, facts, changed, notice)) return;
  writeCache(file, key, facts, serialised, notice);
}
