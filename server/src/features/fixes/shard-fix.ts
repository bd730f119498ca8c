import { type Access, type Finding, logicalKeyOf, type ShardSuffix } from '../../engine';
import { numberKeyReason } from './counter-names';
import { memoized, type FixAction, type FixAnswers, type FixContext, type TextChange } from './fix-model';
import type { Blocked } from './key-sites';
import { suggestedCount, type CountPlan } from './shard-count';
import { unreadRequestOf, unreadRequestReason } from './unread-requests';
import { countChanges, isBlocked, mergeChanges, planKey, queryChanges, type KeyPlan } from './whole-key';

/**
 * What the random and the calculated shard fix share: the finding they start from, the
 * key planned as a whole (every writer, point access and Query of it) and refused for a
 * Number key, and, once each writer's key is edited, the rest of the one edit: the count
 * constant declared or imported where it is used, every Query replaced by its reader,
 * and all changes merged. The two differ only in the shard expression and where it may go.
 */

/** The finding's add-shard-suffix descriptor, when it is on a write whose key can be edited. */
export function suffixDescriptor(f: Finding): ShardSuffix | null {
  const d = f.fixes.find((x): x is ShardSuffix => x.kind === 'add-shard-suffix');
  // A read cannot pick a random shard: it must read them all (the reader fixes do that).
  return d && f.access.kind === 'write' && f.access.partitionKey ? d : null;
}

type Build = (finding: Finding, d: ShardSuffix, ctx: FixContext, answers?: FixAnswers) => FixAction | Blocked | null;

/**
 * A shard fix of a finding, or what blocks it (null when the finding is not a hot key's
 * write). With the defaults it is kept in `ctx.memo` beside its access: the light bulb and
 * the hover's reason why there is no shard fix ask for the same one.
 */
export function shardFix(
  kind: 'random' | 'hash',
  finding: Finding,
  ctx: FixContext,
  answers: FixAnswers | undefined,
  build: Build,
): FixAction | Blocked | null {
  const d = suffixDescriptor(finding);
  if (!d) return null;
  const checked = () => unlessUnreadRequest(finding, ctx, build(finding, d, ctx, answers));
  if (!answers) return memoized(ctx, finding.access, shardFixMemo(kind, finding, d), checked);
  return checked();
}

/**
 * A fix that could be built is still refused while a request of the table whose key could not
 * be read may be of this key (`unread-requests.ts`). Checked last: a reason found in the key's
 * own accesses says more than a "may be" about another request.
 */
function unlessUnreadRequest(
  finding: Finding,
  ctx: FixContext,
  fix: FixAction | Blocked | null,
): FixAction | Blocked | null {
  const key = fix && !('blocked' in fix) ? logicalKeyOf(finding.access) : null;
  const unread = key && unreadRequestOf(key, ctx);
  return unread ? { blocked: unreadRequestReason(unread, ctx) } : fix;
}

/** What a finding's default shard fix is kept under in `ctx.memo`, beside its access. */
export const shardFixMemo = (kind: string, finding: Finding, d: ShardSuffix) =>
  `${kind}:${finding.rule}:${JSON.stringify(d)}`;

/** Every access of the finding's key, unless its key is a Number (a suffix makes it a string the table refuses). */
export function wholeKeyPlan(finding: Finding, ctx: FixContext): KeyPlan | Blocked {
  const numberKey = numberKeyReason(finding.access, ctx, 'the key');
  if (numberKey) return { blocked: numberKey };
  return planKey(finding, ctx);
}

/**
 * The edit around the writers' key changes (`keys`): the count constant in every file of
 * the fix (`perFile` adds what a file needs besides: `import random`, the hash helper), the
 * key's Queries replaced by readers of every shard, all merged into one edit.
 */
export function wholeKeyEdit(
  fix: { plan: KeyPlan; d: ShardSuffix; home: Access; files: string[]; keys: TextChange[] },
  method: 'random' | 'hash',
  ctx: FixContext,
  answers: FixAnswers | undefined,
  perFile: (file: string) => { importLines?: string[]; blocks?: string[] },
): { changes: TextChange[]; count: CountPlan } | Blocked {
  const counted = countChanges(fix.home, fix.d, fix.files, ctx, answers, perFile);
  if (isBlocked(counted)) return counted;
  const reads = queryChanges(fix.plan, fix.d, counted.count, method, ctx);
  if (isBlocked(reads)) return reads;
  const changes = mergeChanges(ctx, [...reads, ...counted.changes, ...fix.keys]);
  if (isBlocked(changes)) return changes;
  return { changes, count: counted.count };
}

export function countQuestion(plan: CountPlan, ctx: FixContext): FixAction['asks'] {
  // A reused constant is the key's count already: changing it is a change to every writer and reader.
  return plan.reused ? [] : [{ kind: 'shard-count', suggested: suggestedCount(ctx) }];
}
