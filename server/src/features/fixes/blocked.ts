import type { Finding } from '../../engine';
import { calculatedShardFix } from './calculated-shard';
import type { FixAction, FixContext, FixProvider } from './fix-model';
import type { Blocked } from './key-sites';
import { isBlocked } from './whole-key';
import { randomShardFix } from './write-shard';
import { backfillAction } from './backfill';

const nonNull = <T>(x: T | null): T[] => (x ? [x] : []);

/**
 * What stops both shard fixes on a hot key's write, in a few words with the place:
 * "random shard: the UpdateItem at reminders.js:20 finds one item by its key, which a
 * random shard would lose; calculated shard: the Query at ... cannot be replaced".
 * Null when either fix is offered (or the finding is not a hot write).
 */
export function shardFixBlockedReason(finding: Finding, ctx: FixContext): string | null {
  return blockedReason(randomShardFix(finding, ctx), calculatedShardFix(finding, ctx));
}

type Outcome = FixAction | Blocked | null;

export function blockedReason(random: Outcome, calculated: Outcome): string | null {
  if (!random || !calculated || !isBlocked(random) || !isBlocked(calculated)) return null;
  if (random.blocked === calculated.blocked) return random.blocked;
  return `random shard: ${random.blocked}; calculated shard: ${calculated.blocked}`;
}

/**
 * When no shard fix can keep the program's meaning, the light bulb says why instead
 * (an action with no edit, like the counter's advice): the finding stays, the user
 * learns what to change first.
 */
export const shardFixBlocked: FixProvider = (finding, ctx): FixAction[] =>
  blockedAction(finding, shardFixBlockedReason(finding, ctx));

export function blockedAction(finding: Finding, why: string | null): FixAction[] {
  return why
    ? [
        {
          title: `No shard fix: ${why}`,
          id: 'shard-fix-blocked',
          rule: finding.rule,
          safe: false,
          asks: [],
          changes: [],
        },
      ]
    : [];
}

/**
 * The random shard fix, the calculated one and their backfill scripts, or why neither fix
 * is offered, in that order: each of the two worked out once (they rewrite every access of
 * the key, and saying why both are blocked needs both).
 */
export const shardFixes: FixProvider = (finding, ctx, answers): FixAction[] => {
  const random = randomShardFix(finding, ctx, answers);
  const calculated = calculatedShardFix(finding, ctx, answers);
  const fixes = [random, calculated].filter((r): r is FixAction => !!r && !isBlocked(r));
  // The fixes first; then the backfill script of each, which only a table in use needs.
  const offered = [...fixes, ...fixes.flatMap((fix) => nonNull(backfillAction(finding, fix, ctx)))];
  // The reason is the one with the defaults, as `shardFixBlocked` gives it.
  const why = answers ? shardFixBlockedReason(finding, ctx) : blockedReason(random, calculated);
  return [...offered, ...blockedAction(finding, why)];
};
