import { deltaFile } from './delta';
import { settledBefore, stampOf, type Stamp } from './stamp';
import { cacheFile } from './store';

/**
 * Each file's stamp, and whether one of them moved since the cache in `dir` was written
 * (or there is none): taken before the cache is read, so that a caller can start what a
 * changed file needs (the CLI's analysis thread, ~0.3 s to load) while the cache is read.
 * A hint only: what is restored is decided entry by entry, as without it.
 */
export function stampsBefore(
  dir: string,
  name: string,
  files: readonly string[],
): { stamps: Map<string, Stamp | null>; changed: boolean } {
  const whole = cacheFile(dir, name);
  const wholeWritten = stampOf(whole)?.[1] ?? null;
  // A delta written since holds the files changed after the whole cache was.
  const written = wholeWritten === null ? null : Math.max(wholeWritten, stampOf(deltaFile(whole))?.[1] ?? 0);
  const stamps = new Map<string, Stamp | null>();
  let changed = written === null;
  for (const f of files) {
    const stamp = stampOf(f);
    stamps.set(f, stamp);
    if (!changed && (!stamp || !settledBefore(stamp, written!))) changed = true;
  }
  return { stamps, changed };
}
