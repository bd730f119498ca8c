import type { FixAction, FixProvider } from '../../fix-model';
import type { Blocked } from '../../key-sites';
import { isBlocked } from '../../whole-key';
import { planDynamooseKey, shardDescriptor } from './plan';
import { calculatedKeyFix } from './calculated';
import { randomDefaultFix } from './random';

/**
 * dynamoose's fixes (docs/fixes.md, "Fixes in a library's style"): a hot key whose
 * schema `default` gives every item one partition is sharded in the schema, and every
 * query of it becomes a reader of every shard, or the light bulb says what blocks it.
 */
export const dynamooseFixes: FixProvider = (finding, ctx, answers): FixAction[] => {
  const d = shardDescriptor(finding);
  if (!d || !finding.access.partitionKey) return [];
  const plan = planDynamooseKey(finding, ctx);
  const outcomes: Array<FixAction | Blocked> = isBlocked(plan)
    ? [plan]
    : [randomDefaultFix(finding, d, plan, ctx, answers), calculatedKeyFix(finding, d, plan, ctx, answers)];
  const offered = outcomes.filter((o): o is FixAction => !isBlocked(o));
  if (offered.length) return offered;
  const [random, calculated] = outcomes.map((o) => (o as Blocked).blocked);
  const why =
    calculated === undefined || calculated === random
      ? random
      : `random shard: ${random}; calculated shard: ${calculated}`;
  return [
    { title: `No shard fix: ${why}`, id: 'shard-fix-blocked', rule: finding.rule, safe: false, asks: [], changes: [] },
  ];
};
