import { type Finding, languageForFile, type ShardSuffix } from '../../../../engine';
import { blockedAction, blockedReason } from '../../blocked';
import type { FixAction, FixAnswers, FixContext, FixProvider, TextChange } from '../../fix-model';
import { indentUnitOf } from '../../reader-conventions';
import { definesHashHelper, hashHelperSource } from '../../hash-helper';
import type { Blocked } from '../../key-sites';
import { countQuestion, suffixDescriptor } from '../../shard-fix';
import { accessAt, countChanges, isBlocked, mergeChanges } from '../../whole-key';
import { planToolboxKey, type ToolboxPlan } from './plan';
import { definesMergeHelper, mergeHelperSource, shardedQuery } from './reader';
import { schemaChanges } from './schema-edit';
import { definesPagesHelper, pagesHelperSource, shardedV0Query } from './v0-reader';

/**
 * The shard fixes of a dynamodb-toolbox entity whose key attribute's `default` is one
 * constant (v1/v2 `feed: string().key().savedAs('PK').default('FEED#storefront')`, v0
 * `pk: { partitionKey: true, default: 'ANNOUNCEMENTS' }`), written through the library:
 * the default becomes a function that draws a shard per item (random), or one computed
 * from a key attribute every key input gives (calculated, FNV-1a as the SDK fix: a v1
 * `link`, a v0 default function of the item). The calls' key inputs stay what they were;
 * every put, get, update and delete then computes the sharded key itself, and every
 * query of the key becomes the same query run once per shard (./reader.ts, ./v0-reader.ts).
 * See docs/fixes.md, "Fixes in a library's style".
 */
export const toolboxFixes: FixProvider = (finding, ctx, answers): FixAction[] => {
  const d = suffixDescriptor(finding);
  if (!d || finding.access.language === 'python') return [];
  const random = build('random', finding, d, ctx, answers);
  const calculated = build('hash', finding, d, ctx, answers);
  const offered = [random, calculated].filter((r): r is FixAction => !isBlocked(r));
  return [...offered, ...blockedAction(finding, blockedReason(random, calculated))];
};

function build(
  method: 'random' | 'hash',
  finding: Finding,
  d: ShardSuffix,
  ctx: FixContext,
  answers?: FixAnswers,
): FixAction | Blocked {
  const plan = planToolboxKey(finding, ctx);
  if (isBlocked(plan)) return plan;
  const { attribute, schema } = plan;
  if (method === 'random' && plan.points.length > 0)
    return {
      blocked: `the ${accessAt(ctx, plan.points[0])} finds one item by its key, which a random shard would lose`,
    };
  const hashed = answers?.hashAttribute ?? attribute.givenKeys[0];
  if (method === 'hash' && (!hashed || !attribute.givenKeys.includes(hashed)))
    return { blocked: `no other key attribute of ${plan.entity} is given by every access to compute a shard from` };
  const files = [...new Set([attribute.file, ...plan.queries.map((q) => q.file)])];
  const counted = countChanges(schema, d, files, ctx, answers, (file) => ({
    blocks: blocksFor(file, method, plan, ctx),
  }));
  if (isBlocked(counted)) return counted;
  const { count } = counted;
  const step = indentUnitOf(ctx.textOf(attribute.file) ?? '', false);
  const schemaEdit = schemaChanges(method, attribute, d.separator, count.name, hashed ?? '', step);
  if (isBlocked(schemaEdit)) return schemaEdit;
  const changes: TextChange[] = [...schemaEdit, ...counted.changes];
  const query = attribute.version === 0 ? shardedV0Query : shardedQuery;
  for (const q of plan.queries) {
    const c = query(ctx, q, plan.stored, d.separator, count.name);
    if (isBlocked(c)) return c;
    changes.push(c);
  }
  const merged = mergeChanges(ctx, changes);
  if (isBlocked(merged)) return merged;
  const reads = plan.queries.length
    ? `, ${plan.queries.length} quer${plan.queries.length > 1 ? 'ies' : 'y'} of every shard`
    : '';
  const shards = `${count.value} shards${count.reused ? `, ${count.name}` : ''}`;
  return {
    title:
      method === 'random'
        ? `Add a random write-shard suffix to ${plan.entity}.${attribute.name}'s default (${shards}${reads})`
        : `Add a calculated shard suffix to ${plan.entity}.${attribute.name}: ${attribute.version === 0 ? 'its default computed from' : 'linked to'} a hash of ${hashed} (${shards}${reads})`,
    id: method === 'random' ? 'add-random-shard' : 'add-calculated-shard',
    rule: finding.rule,
    preferred: method === 'random' || plan.points.length > 0,
    safe: false,
    asks: [
      ...countQuestion(count, ctx),
      ...(method === 'hash' && attribute.givenKeys.length > 1
        ? [{ kind: 'hash-attribute' as const, options: attribute.givenKeys }]
        : []),
    ],
    changes: merged,
  };
}

/** What a file of the fix needs besides the count: the hash helper beside the schema, the merge helper beside a query. */
function blocksFor(file: string, method: 'random' | 'hash', plan: ToolboxPlan, ctx: FixContext): string[] {
  const text = ctx.textOf(file) ?? '';
  const language = languageForFile(file) ?? 'typescript';
  const out: string[] = [];
  if (method === 'hash' && file === plan.attribute.file && !definesHashHelper(language, text))
    out.push(hashHelperSource(language));
  if (!plan.queries.some((q) => q.file === file)) return out;
  if (plan.attribute.version === 0) {
    if (!definesPagesHelper(text)) out.push(pagesHelperSource(language));
  } else if (!definesMergeHelper(text)) out.push(mergeHelperSource(language));
  return out;
}
