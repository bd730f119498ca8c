import { type Access, type Finding, languageForFile, type ShardSuffix } from '../../engine';
import { type FixAction, type FixAnswers, type FixContext, type FixProvider, type TextChange } from './fix-model';
import { hasRandomImport } from './header';
import { keyChanges, randomShardTarget } from './key-edit';
import { where, type Blocked } from './key-sites';
import { countQuestion, shardFix, wholeKeyEdit, wholeKeyPlan } from './shard-fix';
import { planShardCount } from './shard-count';
import { accessAt, isBlocked } from './whole-key';

/** `Math.floor(Math.random() * N)` / `random.randrange(N)`: a uniform shard in 0..N-1. */
export function randomShardExpression(a: Access, count: string): string {
  return a.language === 'python' ? `random.randrange(${count})` : `Math.floor(Math.random() * ${count})`;
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
  return shardFix('random', finding, ctx, answers, randomFix);
}

function randomFix(
  finding: Finding,
  d: ShardSuffix,
  ctx: FixContext,
  answers?: FixAnswers,
): FixAction | Blocked | null {
  const plan = wholeKeyPlan(finding, ctx);
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
  const taken = new Set<string>();
  for (const w of plan.writers) {
    const place = w.mapper
      ? { target: w.target, at: w.at }
      : randomShardTarget(ctx, w.access, { ...d, at: w.at ?? d.at });
    if (!place) return { blocked: `the key at ${where(ctx, w.access.file, w.target.span)} is a parameter's default` };
    const { target, at } = place;
    const language = languageForFile(target.file) ?? w.access.language;
    const shard = randomShardExpression({ ...w.access, language }, count0.name);
    const key = keyChanges(ctx, language, target, at && at.file === target.file ? at : null, d.separator, shard, taken);
    if (!key) return { blocked: `the key at ${where(ctx, target.file, target.span)} cannot be edited` };
    keys.push(...key);
  }
  const edit = wholeKeyEdit({ plan, d, home, files, keys }, 'random', ctx, answers, (file) => {
    const text = ctx.textOf(file) ?? '';
    const writes = plan.writers.some((w) => w.target.file === file);
    return { importLines: file.endsWith('.py') && writes && !hasRandomImport(text) ? ['import random'] : [] };
  });
  if (isBlocked(edit)) return edit;
  const { changes, count } = edit;
  const also = plan.queries.length
    ? `, ${plan.queries.length} read${plan.queries.length > 1 ? 's' : ''} of every shard`
    : '';
  return {
    title: `Add a random write-shard suffix (${count.value} shards${count.reused ? `, ${count.name}` : ''}${also})`,
    id: 'add-random-shard',
    rule: finding.rule,
    preferred: true,
    safe: false,
    shard: { method: 'random', count: count.value, countName: count.name, hashAttribute: null },
    asks: countQuestion(count, ctx),
    changes,
  };
}
