import type { FixAction, FixProvider } from './fix-model';
import { alignShardRange } from './align-range';
import { calculatedWriteShard } from './calculated-shard';
import { spreadCounter } from './counter';
import { randomWriteShard } from './write-shard';

/**
 * Every fix ShardLens offers for a finding, in the order the light bulb lists them.
 * Write-side fixes change the key a writer writes; the reader fixes (generated
 * scatter-gather readers, SL006 repairs) come from ./reader-fixes.
 */
export const writeFixes: FixProvider[] = [randomWriteShard, calculatedWriteShard, spreadCounter, alignShardRange];

/** The reader fixes' provider, when that module is present (see docs/fixes.md). */
export const readerFixSlot: FixProvider[] = [];

export const allFixes: FixProvider = (finding, ctx, answers): FixAction[] =>
  [...writeFixes, ...readerFixSlot].flatMap((p) => p(finding, ctx, answers));
