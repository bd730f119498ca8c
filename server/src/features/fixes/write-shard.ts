import type { Access, FixDescriptor, Finding } from '../../engine/model';
import type { FixAction, FixAnswers, FixContext, FixProvider, TextChange } from './fix-model';
import { headerChanges, hasRandomImport } from './header';
import { keyChange, randomShardTarget } from './key-edit';
import { planShardCount, suggestedCount, type CountPlan } from './shard-count';

export type ShardSuffix = Extract<FixDescriptor, { kind: 'add-shard-suffix' }>;

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
 * Fix 1: a random write-shard suffix. Spreads the writes of a hot key over N keys;
 * every reader of the key must then query all N (SL006 will point them out).
 */
export const randomWriteShard: FixProvider = (finding, ctx, answers?: FixAnswers): FixAction[] => {
  const d = suffixDescriptor(finding);
  if (!d) return [];
  const a = finding.access;
  const text = ctx.textOf(a.file);
  if (text === null) return [];
  const count = planShardCount(a, d.shardCount, ctx, answers);
  const place = randomShardTarget(ctx, a, d);
  if (!place) return [];
  const { target, at } = place;
  const key = keyChange(ctx, a.language, target, at, d.separator, randomShardExpression(a, count.name));
  if (!key) return [];
  const imports = ctx.analysisOf(a.file)?.imports ?? [];
  const needsRandom = a.language === 'python' && !hasRandomImport(text);
  const header = headerChanges(a.file, text, imports, count, { importLines: needsRandom ? ['import random'] : [] });
  const changes: TextChange[] = [...header, key];
  return [
    {
      title: `Add a random write-shard suffix (${count.value} shards${count.reused ? `, ${count.name}` : ''})`,
      id: 'add-random-shard',
      rule: finding.rule,
      preferred: true,
      safe: false,
      asks: countQuestion(count, ctx),
      changes,
    },
  ];
};
