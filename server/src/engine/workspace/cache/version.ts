declare const SHARDLENS_VERSION: string | undefined;

/** The engine's version (package.json's, in the bundles). */
export const ENGINE_VERSION = typeof SHARDLENS_VERSION === 'string' ? SHARDLENS_VERSION : '0.0.0-dev';

declare const SHARDLENS_ENGINE_HASH: string | undefined;

/**
 * The hash of the engine sources a bundle was built from (scripts/engine-hash.mjs); null when
 * running from the sources, where CACHE_SCHEMA alone tells caches apart. Read at each call: a
 * test running from the sources sets the global to open a cache a bundle wrote.
 */
export function engineSourceHash(): string | null {
  return typeof SHARDLENS_ENGINE_HASH === 'string' ? SHARDLENS_ENGINE_HASH : null;
}

/**
 * Bumped whenever what an entry holds changes shape (FileAnalysis, Access, Finding...): older
 * caches are dropped. Bundles key the cache by engineSourceHash() as well, so a missed or
 * doubled bump cannot make a build read another engine's analyses.
 */
export const CACHE_SCHEMA = 80;
