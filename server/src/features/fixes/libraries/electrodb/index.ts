import { languageForFile, words, type Finding, type ShardSuffix } from '../../../../engine';
import type { FixAction, FixAnswers, FixContext, FixProvider, FixQuestion, TextChange } from '../../fix-model';
import { definesHashHelper, hashHelperSource } from '../../hash-helper';
import type { Blocked } from '../../key-sites';
import { suggestedCount } from '../../shard-count';
import { accessAt, isBlocked } from '../../whole-key';
import { givenAttributes, pointChange, queryChange } from './call-edit';
import { FileEdits, useConversions, useCount } from './files';
import { definesMergeHelper, mergeHelperSource } from './merge-helper';
import { definesPageHelper, PAGE_READER_NAME, pageHelperSource } from './page-helper';
import { entityPlan, type EntityPlan } from './plan';
import { schemaChanges, type ShardKind } from './schema-edit';

/**
 * The shard fixes of a hot key read from an ElectroDB schema, in ElectroDB's own terms
 * (docs/fixes.md, "Fixes in a library's style"): the entity gains a `shard` attribute
 * that ElectroDB fills on every write (a random `default`, or a `set` hashing an
 * attribute that identifies the item), the access pattern's partition key gains it as a
 * composite attribute, every get, update and delete of the pattern gives the same shard,
 * and every query of it becomes a query per shard, every page, merged (or, for a query
 * read a page at a time, one page of every shard with one cursor for all: ./page-helper).
 * One edit, every file; or an action with no edit saying what stops it.
 */
export const electrodbFixes: FixProvider = (finding, ctx, answers): FixAction[] => {
  const d = finding.fixes.find((f): f is ShardSuffix => f.kind === 'add-shard-suffix');
  if (!d) return [];
  const plan = entityPlan(finding, ctx);
  if (!plan) return [];
  const outcomes = isBlocked(plan)
    ? [plan]
    : [randomFix(finding, d, plan, ctx, answers), hashFix(finding, d, plan, ctx, answers)];
  const offered = outcomes.filter((o): o is FixAction => !isBlocked(o));
  if (offered.length) return offered;
  const reasons = [...new Set(outcomes.map((o) => (o as Blocked).blocked))];
  const why = reasons.length === 1 ? reasons[0] : `random shard: ${reasons[0]}; calculated shard: ${reasons[1]}`;
  return [
    { title: `No shard fix: ${why}`, id: 'shard-fix-blocked', rule: finding.rule, safe: false, asks: [], changes: [] },
  ];
};

/** One of the two shard fixes of a finding, or why it cannot be written. */
type ShardOffer = (
  finding: Finding,
  d: ShardSuffix,
  plan: EntityPlan,
  ctx: FixContext,
  answers?: FixAnswers,
) => FixAction | Blocked;

const randomFix: ShardOffer = (finding, d, plan, ctx, answers) => {
  const point = plan.points[0];
  if (point)
    return { blocked: `the ${accessAt(ctx, point)} finds one item by its key, which a random shard would lose` };
  return shardFix(finding, d, plan, { kind: 'random' }, ctx, answers, []);
};

const hashFix: ShardOffer = (finding, d, plan, ctx, answers) => {
  // The sort key's composite attributes identify an item under its partition; a point
  // access gives them all, and the put stores them, so each can compute the same shard.
  // An id first (`matchId` rather than `playedAt`): it spreads one writer's burst too.
  const candidates = plan.sites.sk
    .filter((a) => !plan.sites.pk.includes(a))
    .sort((x, y) => Number(/id$/i.test(y)) - Number(/id$/i.test(x)));
  const given = plan.points.map((p) => givenAttributes(ctx, p));
  const options = candidates.filter((c) => given.every((g) => g.has(c)));
  if (options.length === 0) {
    const lacking = plan.points.find((_, i) => !candidates.some((c) => given[i].has(c)));
    return {
      blocked: `no attribute that identifies the item (a sort-key composite attribute of ${plan.entity}.${plan.pattern}) is at every access of the key${lacking ? ` (${accessAt(ctx, lacking)})` : ''}`,
    };
  }
  const attribute = options.find((o) => o === answers?.hashAttribute) ?? options[0];
  return shardFix(finding, d, plan, { kind: 'hash', attribute }, ctx, answers, [{ kind: 'hash-attribute', options }]);
};

function shardFix(
  finding: Finding,
  d: ShardSuffix,
  plan: EntityPlan,
  shard: ShardKind,
  ctx: FixContext,
  answers: FixAnswers | undefined,
  asks: FixQuestion[],
): FixAction | Blocked {
  const value = answers?.shardCount ?? d.shardCount?.value ?? suggestedCount(ctx);
  const name = `${words(plan.entity).join('_').toUpperCase()}_SHARDS`;
  const count = { name, value, label: `${plan.entity}.${plan.pattern}` };
  const schemaFile = plan.edit.schemaFile;
  if (new RegExp(`\\b${name}\\b`).test(ctx.textOf(schemaFile) ?? ''))
    return { blocked: `${name} is already a name in ${plan.entity}'s module` };
  const edits = new FileEdits(ctx);
  const schema = schemaChanges(ctx, plan, shard, name);
  if (isBlocked(schema)) return schema;
  edits.add(...schema);
  useCount(edits, ctx, { ...finding.access, file: schemaFile, language: finding.access.language }, schemaFile, count);
  const hashIn = (file: string) => {
    const language = languageForFile(file) ?? finding.access.language;
    if (!definesHashHelper(language, ctx.textOf(file) ?? '')) edits.addTail(file, hashHelperSource(language));
  };
  if (shard.kind === 'hash') {
    hashIn(schemaFile);
    for (const p of plan.points) {
      const change = pointChange(ctx, p, shard.attribute, name);
      if (isBlocked(change)) return change;
      edits.add(change);
      useCount(edits, ctx, p, schemaFile, count);
      hashIn(p.file);
    }
  }
  for (const q of plan.queries) {
    const change = queryChange(ctx, plan, q, name);
    if (isBlocked(change)) return change;
    edits.add(change);
    useCount(edits, ctx, q, schemaFile, count);
    if (plan.sites.skField || change.newText.startsWith(PAGE_READER_NAME)) useConversions(edits, ctx, q.file);
    const helper = change.newText.startsWith(PAGE_READER_NAME)
      ? !definesPageHelper(ctx.textOf(q.file) ?? '') && pageHelperSource(q.language)
      : !definesMergeHelper(ctx.textOf(q.file) ?? '') && mergeHelperSource(q.language);
    if (helper) edits.addTail(q.file, helper);
  }
  const changes: TextChange[] = edits.all();
  const how =
    shard.kind === 'random'
      ? 'a random shard attribute'
      : `a calculated shard attribute, hash(${shard.attribute}) mod ${value},`;
  const reads = plan.queries.length
    ? ` and read every shard at ${plan.queries.length} quer${plan.queries.length > 1 ? 'ies' : 'y'}`
    : '';
  return {
    title: `Add ${how} to ${plan.entity}.${plan.pattern} (${value} shards)${reads}`,
    id: shard.kind === 'random' ? 'add-random-shard' : 'add-hash-shard',
    rule: finding.rule,
    safe: false,
    asks: [...asks, { kind: 'shard-count', suggested: value }],
    changes,
  };
}
