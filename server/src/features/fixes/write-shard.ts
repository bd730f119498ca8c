import { type Access, type Finding, languageForFile, type ShardSuffix } from '../../engine';
import {
  memoized,
  type FixAction,
  type FixAnswers,
  type FixContext,
  type FixProvider,
  type TextChange,
} from './fix-model';
import { numberKeyReason } from './counter-names';
import { hasRandomImport } from './header';
import { keyChange, randomShardTarget } from './key-edit';
import { where, type Blocked } from './key-sites';
import { planShardCount, suggestedCount, type CountPlan } from './shard-count';
import { accessAt, countChanges, isBlocked, mergeChanges, planKey, queryChanges } from './whole-key';

/** The finding's add-shard-suffix descriptor, when it is on a write whose key can be edited. */
export function suffixDescriptor(f: Finding): ShardSuffix | null {
  const d = f.fixes.find((x): x is ShardSuffix => x.kind === 'add-shard-suffix');
  // A read cannot pick a random shard: it must read them all (the reader fixes do that).
  return d && f.access.kind === 'write' && f.access.partitionKey ? d : null;
}

/** `Math.floor(Math.random() * N)` / `random.randrange(N)`: a uniform shard in 0..N-1. */
export function randomShardExpression(a: Access, count: string): string {
  return a.language === 'python' ? `random.randrange(${count})` : `Math.floor(Math.random() * ${count})`;
}

export function countQuestion(plan: CountPlan, ctx: FixContext): FixAction['asks'] {
  // A reused constant is the key's count already: changing it is a change to every writer and reader.
  return plan.reused ? [] : [{ kind: 'shard-count', suggested: suggestedCount(ctx) }];
}

/**
 * Fix 1: a random write-shard suffix, for write-once items read only by Queries. It
 * rewrites every access of the key in one edit: each put gets the suffix, each Query
 * becomes a call to a scatter-gather reader of every shard. A key that anything
 * addresses item by item (get, update, delete, batch get, transaction) gets no random
 * suffix: that access would go to a random shard, miss its item and create a new one.
 */
export const randomWriteShard: FixProvider = (finding, ctx, answers?: FixAnswers): FixAction[] => {
  const r = randomShardFix(finding, ctx, answers);
  return r && !isBlocked(r) ? [r] : [];
};

/** The random fix, or what blocks it (null when the finding is not a hot key's write). */
export function randomShardFix(finding: Finding, ctx: FixContext, answers?: FixAnswers): FixAction | Blocked | null {
  const d = suffixDescriptor(finding);
  if (!d) return null;
  // With the defaults, shared by the light bulb and the hover's reason why it has no shard fix.
  if (!answers)
    return memoized(ctx, finding.access, shardFixMemo('random', finding, d), () => randomFix(finding, d, ctx));
  return randomFix(finding, d, ctx, answers);
}

/** What a finding's default shard fix is kept under in `ctx.memo`, beside its access. */
export const shardFixMemo = (kind: string, finding: Finding, d: ShardSuffix) =>
  `${kind}:${finding.rule}:${JSON.stringify(d)}`;

function randomFix(
  finding: Finding,
  d: ShardSuffix,
  ctx: FixContext,
  answers?: FixAnswers,
): FixAction | Blocked | null {
  // A suffix on a Number key makes it a string, which the table refuses on every write.
  const numberKey = numberKeyReason(finding.access, ctx, 'the key');
  if (numberKey) return { blocked: numberKey };
  const plan = planKey(finding, ctx);
  if (isBlocked(plan)) return plan;
  if (plan.points.length > 0)
    return {
      blocked: `the ${accessAt(ctx, plan.points[0].access)} finds one item by its key, which a random shard would lose`,
    };
  const a = finding.access;
  const own = plan.writers.find((w) => w.access === a) ?? plan.writers[0];
  if (!own) return null;
  const home = { ...a, file: own.target.file };
  const files = [...new Set([...plan.writers.map((w) => w.target.file), ...plan.queries.map((q) => q.file)])];
  const count0 = planShardCount(home, d.shardCount, ctx, answers);
  const keys: TextChange[] = [];
  for (const w of plan.writers) {
    const place = w.mapper
      ? { target: w.target, at: w.at }
      : randomShardTarget(ctx, w.access, { ...d, at: w.at ?? d.at });
    if (!place) return { blocked: `the key at ${where(ctx, w.access.file, w.target.span)} is a parameter's default` };
    const { target, at } = place;
    const language = languageForFile(target.file) ?? w.access.language;
    const shard = randomShardExpression({ ...w.access, language }, count0.name);
    const key = keyChange(ctx, language, target, at && at.file === target.file ? at : null, d.separator, shard);
    if (!key) return { blocked: `the key at ${where(ctx, target.file, target.span)} cannot be edited` };
    keys.push(key);
  }
  const counted = countChanges(home, d, files, ctx, answers, (file) => {
    const text = ctx.textOf(file) ?? '';
    const writes = plan.writers.some((w) => w.target.file === file);
    return { importLines: file.endsWith('.py') && writes && !hasRandomImport(text) ? ['import random'] : [] };
  });
  if (isBlocked(counted)) return counted;
  const reads = queryChanges(plan, d, counted.count, 'random', ctx);
  if (isBlocked(reads)) return reads;
  const changes = mergeChanges(ctx, [...reads, ...counted.changes, ...keys]);
  if (isBlocked(changes)) return changes;
  const count = counted.count;
  const also = plan.queries.length
    ? `, ${plan.queries.length} read${plan.queries.length > 1 ? 's' : ''} of every shard`
    : '';
  return {
    title: `Add a random write-shard suffix (${count.value} shards${count.reused ? `, ${count.name}` : ''}${also})`,
    id: 'add-random-shard',
    rule: finding.rule,
    preferred: true,
    safe: false,
    asks: countQuestion(count, ctx),
    changes,
  };
}
