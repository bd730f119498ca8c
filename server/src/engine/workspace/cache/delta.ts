import {
  entryParts,
  readBody,
  readHeaderAndBody,
  sha1,
  writeWithHeader,
  type CacheFile,
  type RunFacts,
} from './format';

/**
 * A cache's delta: the entries that differ from the whole cache, written beside it
 * (`check.delta.json` beside `check.json`) in the same layout, so that a check after a
 * one-file edit writes ten entries instead of all 5,000 again. Each delta holds every
 * entry that differs from the whole cache, not only the last run's: a reader needs the
 * whole cache and one delta. It names the whole cache it goes with by the hash of that
 * file's header line (which holds the checksum of its entries): once another check has
 * written the whole cache again, a delta over the old one is passed over, never mixed in.
 */
const DELTA_MAGIC = 'shardlens-analysis-cache-delta';

/**
 * How large a delta may grow beside the whole cache's entries: past it the whole cache is
 * written again (and the delta removed), so a reader never parses much twice.
 */
const DELTA_SHARE = 1 / 8;

export function deltaFile(file: string): string {
  return `${file.replace(/\.json$/, '')}.delta.json`;
}

/**
 * The whole cache with its delta's entries and facts in place of its own; the whole
 * cache alone when there is no delta for it. A damaged delta is reported in one line and
 * not used: the files it held are analysed again.
 */
export function withDelta(whole: CacheFile, file: string, key: string, notice: (line: string) => void): CacheFile {
  const delta = deltaFile(file);
  const discarded = (why: string) => {
    notice(`the cache ${delta} is ${why}; discarded, analysing the files it held again`);
    return whole;
  };
  const read = readHeaderAndBody(delta, DELTA_MAGIC);
  if (read === null) return whole;
  if ('unreadable' in read) return discarded(`unreadable (${read.unreadable})`);
  if ('corrupt' in read) return discarded(read.corrupt);
  const { header, body, written } = read;
  // Written with other options, or over a whole cache written again since: not this one's.
  if (header.key !== key || header.base !== whole.base.id) return whole;
  if (sha1(body) !== header.checksum) return discarded('damaged (its checksum does not match: cut short?)');
  const parsed = readBody(body, header.facts);
  if (typeof parsed === 'string') return discarded(parsed);
  for (const [name, entry] of parsed.entries) {
    whole.entries.set(name, entry);
    // The whole cache's bytes of it are not this entry's: never written again as read.
    whole.raw.delete(name);
    const line = parsed.raw.get(name);
    if (line) whole.raw.set(name, line);
  }
  return {
    ...whole,
    facts: parsed.facts,
    fromDelta: new Set(parsed.entries.keys()),
    deltaWritten: written,
  };
}

/**
 * The entries (serialised) to write as a delta over the cache `old` was read from: those
 * that differ from the whole cache's. Null when the whole cache should be written again:
 * a file of it left the run (only a whole write drops its entry), or the delta would pass
 * DELTA_SHARE of the whole cache.
 */
export function deltaOf(entries: ReadonlyArray<[string, Buffer]>, old: CacheFile): Array<[string, Buffer]> | null {
  const names = new Set(entries.map(([name]) => name));
  for (const name of old.entries.keys()) if (!names.has(name)) return null;
  // An entry kept as read is the very buffer read: from the whole cache, it is not written again.
  const changed = entries.filter(([name, bytes]) => old.fromDelta.has(name) || bytes !== old.raw.get(name));
  const size = changed.reduce((sum, [, bytes]) => sum + bytes.length + 2, 0);
  return size <= old.base.bytes * DELTA_SHARE ? changed : null;
}

/** Writes the delta over the whole cache `base` names, as the whole cache is written (format.ts); false when it could not be. */
export function writeDelta(
  file: string,
  key: string,
  base: string,
  facts: RunFacts,
  entries: ReadonlyArray<[string, Buffer]>,
  notice: (line: string) => void,
): boolean {
  return writeWithHeader(deltaFile(file), { magic: DELTA_MAGIC, key, base }, facts, entryParts(entries), notice);
}
