import type { FixAction, FixProvider } from './fix-model';
import { alignShardRange } from './align-range';
import { spreadCounter } from './counter';
import { readerFixes } from './reader-fixes';
import { shardFixBlocked, shardFixes } from './blocked';
import { cacheReadFix } from './cache-read';
import { cacheFixElsewhere } from './cache-elsewhere';
import { libraryFixes } from './libraries';
import { inFileQuotes } from './quote-style';

/**
 * Every fix ShardLens offers for a finding, in the order the light bulb lists them.
 * Write-side fixes change the key a writer writes (or align a reader's loop with the
 * writers'); the reader fixes (generated scatter-gather readers, SL006/SL008 repairs)
 * come from ./reader-fixes. None is `safe`: see docs/fixes.md.
 */
export const writeFixes: FixProvider[] = [shardFixes, spreadCounter, alignShardRange];

/** Fixes of a read-hot key's reads: serve them from an in-process cache (./cache-read). */
export const readFixes: FixProvider[] = [cacheReadFix];

/**
 * At a wrapper's caller only the key text the caller writes can be changed here: the
 * request itself (its receiver, its update expression, the reader around it) is in the
 * wrapper's module, or in a library whose API is not known (a call read by its shape),
 * so fixes that rewrite or generate calls are not offered. A read there is cached at the
 * wrapper or around the caller's call of it (./cache-wrapper).
 */
const keyTextFixes: FixProvider[] = [shardFixes];

export const allFixes: FixProvider = (finding, ctx, answers): FixAction[] => {
  const offered = fixesOf(finding, ctx, answers);
  // A hot read whose request is a library's or a wrapper's: the light bulb says why nothing is offered.
  const actions = offered.length ? offered : cacheFixElsewhere(finding, ctx);
  // Every string a fix writes takes the quotes of the file it goes into (./quote-style).
  return actions.map((a) => inFileQuotes(a, ctx));
};

const fixesOf: FixProvider = (finding, ctx, answers) => {
  const library = finding.access.library?.library;
  // A library's read is cached where it stands as an SDK request is (./cache-library), when its results can be.
  if (library) {
    const own = libraryFixes[library]?.(finding, ctx, answers) ?? [];
    return [...readFixes.flatMap((p) => p(finding, ctx, answers)), ...own];
  }
  const providers = finding.access.guessed
    ? keyTextFixes
    : finding.access.through
      ? [...readFixes, ...keyTextFixes]
      : [...readFixes, ...writeFixes, readerFixes];
  return providers.flatMap((p) => p(finding, ctx, answers));
};

/**
 * Why no shard fix can rewrite a hot write, as the light bulb's edit-less action says it
 * (the hover shows it too); on a library's access, what its own provider says, since the
 * SDK fixes' reasons are about request text the library's calls do not have.
 */
export const blockedFixes: FixProvider = (finding, ctx): FixAction[] => {
  const library = finding.access.library?.library;
  if (!library) return shardFixBlocked(finding, ctx);
  return (libraryFixes[library]?.(finding, ctx) ?? []).filter((a) => a.id === 'shard-fix-blocked');
};

export { fixContextOf } from './context';
