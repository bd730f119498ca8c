import type { Finding } from '../../engine/model';
import { calculatedShardFix } from './calculated-shard';
import type { FixAction, FixContext, FixProvider } from './fix-model';
import { isBlocked } from './whole-key';
import { randomShardFix } from './write-shard';

/**
 * What stops both shard fixes on a hot key's write, in a few words with the place:
 * "random shard: the UpdateItem at reminders.js:20 finds one item by its key, which a
 * random shard would lose; calculated shard: the Query at ... cannot be replaced".
 * Null when either fix is offered (or the finding is not a hot write).
 */
export function shardFixBlockedReason(finding: Finding, ctx: FixContext): string | null {
  const random = randomShardFix(finding, ctx);
  const calculated = calculatedShardFix(finding, ctx);
  if (!random || !calculated || !isBlocked(random) || !isBlocked(calculated)) return null;
  if (random.blocked === calculated.blocked) return random.blocked;
  return `random shard: ${random.blocked}; calculated shard: ${calculated.blocked}`;
}

/**
 * When no shard fix can keep the program's meaning, the light bulb says why instead
 * (an action with no edit, like the counter's advice): the finding stays, the user
 * learns what to change first.
 */
export const shardFixBlocked: FixProvider = (finding, ctx): FixAction[] => {
  const why = shardFixBlockedReason(finding, ctx);
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
};
