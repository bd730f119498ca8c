import type { Access, Finding, ShardSuffix } from '../../../../engine';
import type { FixAction, FixAnswers, FixContext, TextChange } from '../../fix-model';
import { appendShard } from '../../key-edit';
import type { Blocked } from '../../key-sites';
import { countQuestion } from '../../shard-fix';
import { planShardCount } from '../../shard-count';
import { accessAt, countChanges, isBlocked, mergeChanges } from '../../whole-key';
import type { DynamoosePlan } from './plan';
import { readerEdit } from './reader';

/**
 * The random shard in dynamoose's own way: the key attribute's `default` becomes a
 * function, which dynamoose calls for every item written without the key
 * (`default: () => \`GLOBAL#${Math.floor(Math.random() * N)}\``), so each create lands on
 * one of N partitions. Only for write-once items: a get, update or delete of the key
 * would go to no shard in particular. Every query of the key becomes a reader of every
 * shard (./reader.ts). dynamoose passes a `default` function no argument, so a shard
 * calculated from the item cannot be a default (./calculated.ts).
 */
export function randomDefaultFix(
  finding: Finding,
  d: ShardSuffix,
  plan: DynamoosePlan,
  ctx: FixContext,
  answers?: FixAnswers,
): FixAction | Blocked {
  if (plan.points.length)
    return {
      blocked: `the ${accessAt(ctx, plan.points[0])} finds one item by its key, which a random shard would lose`,
    };
  const shard = (count: string) => `Math.floor(Math.random() * ${count})`;
  const edit = shardEdit(finding, d, plan, ctx, answers, (count) => {
    const v = plan.schema.defaultValue!;
    const lang = plan.schema.language;
    if (v.type === 'arrow_function')
      return v.body ? { span: v.body.span, newText: appendShard(lang, v.body.text, d.separator, shard(count)) } : null;
    return { span: v.span, newText: `() => ${appendShard(lang, v.text, d.separator, shard(count))}` };
  });
  if (isBlocked(edit)) return edit;
  const reads = plan.queries.length;
  return {
    title: `Shard ${plan.model}.${plan.key.attribute} with a random default (${edit.count.value} shards${reads ? `, ${reads} read${reads > 1 ? 's' : ''} of every shard` : ''})`,
    id: 'add-random-shard',
    rule: finding.rule,
    preferred: true,
    safe: false,
    asks: countQuestion(edit.count, ctx),
    changes: edit.changes,
  };
}

/** What a shard of the schema edits besides the schema and the queries (the calculated shard's key function). */
export interface MoreEdits {
  /** The files that name the count, the first declaring it; by default the model's and the readers'. */
  files?: string[];
  /** What a file of the count gets after it (the key function and the hash helper) and the imports it needs. */
  perFile?: (count: string, file: string) => { importLines?: string[]; blocks?: string[] };
  changes?: (count: string) => TextChange[] | Blocked;
}

/**
 * The edit a shard of the schema makes, whatever the shard: the count constant declared
 * in the model's module and imported where readers need it, the schema's own edit, and
 * every query replaced by a reader of every shard; `more` adds what else the fix edits.
 */
export function shardEdit(
  finding: Finding,
  d: ShardSuffix,
  plan: DynamoosePlan,
  ctx: FixContext,
  answers: FixAnswers | undefined,
  schemaChange: (count: string) => Omit<TextChange, 'file'> | null,
  more: MoreEdits = {},
) {
  const files = [...new Set([...(more.files ?? [plan.schema.file]), ...plan.queries.map((q) => q.file)])];
  const site = ctx.accessesOf(plan.key).find((a) => a.library?.schema);
  const home: Access = { ...(site ?? finding.access), file: files[0] };
  const name = planShardCount(home, d.shardCount, ctx, answers).name;
  const counted = countChanges(home, d, files, ctx, answers, (file) => more.perFile?.(name, file) ?? {});
  if (isBlocked(counted)) return counted;
  const { count } = counted;
  const own = schemaChange(count.name);
  if (!own) return { blocked: `the default of ${plan.key.attribute} cannot be edited` };
  const changes: TextChange[] = [...counted.changes, { file: plan.schema.file, ...own }];
  const extra = more.changes?.(count.name) ?? [];
  if (isBlocked(extra)) return extra;
  changes.push(...extra);
  const taken = new Set<string>();
  for (const q of plan.queries) {
    const r = readerEdit(ctx, q, plan.schema, plan.model, count.name, d.separator, taken);
    if (isBlocked(r)) return r;
    changes.push(r.call, r.reader);
  }
  const merged = mergeChanges(ctx, changes);
  if (isBlocked(merged)) return merged;
  return { count, changes: merged };
}
