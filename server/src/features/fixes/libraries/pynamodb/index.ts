import type { Finding } from '../../../../engine';
import { blockedAction, blockedReason } from '../../blocked';
import type { FixAction, FixAnswers, FixContext, FixProvider, TextChange } from '../../fix-model';
import { definesHashHelper, hashHelperSource } from '../../hash-helper';
import { hasRandomImport, headerChanges } from '../../header';
import type { Blocked } from '../../key-sites';
import { countQuestion, suffixDescriptor } from '../../shard-fix';
import { planShardCount, type CountPlan } from '../../shard-count';
import { accessAt, isBlocked, mergeChanges } from '../../whole-key';
import { projectLineWidth } from '../../line-width';
import { builderName, builderSource, defaultChange, definesBuilder, keyChanges, type ShardKind } from './keys';
import { planModelKey, type ModelKeyPlan } from './plan';
import { importBeside, usesTypeHints } from './python';
import { readerChanges, type ReaderFile } from './reader';

/**
 * PynamoDB's fixes of a hot key, in PynamoDB's own style (docs/fixes.md, "PynamoDB"): the key
 * attribute's `default=` draws the shard, or a key builder beside the model adds it to the
 * value the calls give; every query of the key becomes a reader of every shard. One edit
 * rewrites every access of the key in the workspace, or the fix is not offered and says why.
 */
export const pynamodbFixes: FixProvider = (finding, ctx, answers): FixAction[] => {
  if (!suffixDescriptor(finding)) return [];
  const plan = planModelKey(finding, ctx);
  if (isBlocked(plan)) return blockedAction(finding, plan.blocked);
  const outcomes = (['random', 'hash'] as const).map((kind) => shardFix(kind, finding, plan, ctx, answers));
  const offered = outcomes.filter((o): o is FixAction => !isBlocked(o));
  return offered.length ? offered : blockedAction(finding, blockedReason(outcomes[0], outcomes[1]));
};

/** What stops one kind of shard before any edit is worked out. */
function refusal(kind: ShardKind, plan: ModelKeyPlan, ctx: FixContext): string | null {
  if (kind === 'random')
    return plan.points.length
      ? `the ${accessAt(ctx, plan.points[0])} finds one item by its key, which a random shard would lose`
      : null;
  if (plan.schema)
    return `PynamoDB calls a default= with no argument, so the default of ${plan.model}.${plan.hash} cannot compute a shard from the item`;
  if (plan.given.some((a) => a.index))
    return `an index key is written by updates that find the item by the table's key: a random shard serves it`;
  if (!plan.range) return `${plan.model} has no range key to identify an item at every access`;
  return null;
}

function shardFix(
  kind: ShardKind,
  finding: Finding,
  plan: ModelKeyPlan,
  ctx: FixContext,
  answers: FixAnswers | undefined,
): FixAction | Blocked {
  const why = refusal(kind, plan, ctx);
  if (why) return { blocked: why };
  const d = suffixDescriptor(finding)!;
  const home = { ...finding.access, file: plan.modelFile, language: 'python' as const };
  const count = planShardCount(home, d.shardCount, ctx, answers);
  if (count.importChange) return { blocked: `the key's shard count ${count.name} is declared in another module` };
  const keys = keyChanges(ctx, plan, kind);
  if (isBlocked(keys)) return keys;
  const changes: TextChange[] = [...keys];
  if (plan.schema) {
    const def = defaultChange(ctx, plan.schema, count.name, d.separator);
    if (isBlocked(def)) return def;
    changes.push(def);
  }
  const typed = (file: string) => usesTypeHints(ctx.textOf(file) ?? '');
  const reads = readerChanges(ctx, plan, count.name, d.separator, typed);
  if (isBlocked(reads)) return reads;
  changes.push(...reads.replaced, ...reads.readers.map((r) => r.insert));
  const headers = headerEdits(kind, plan, count, reads.readers, d.separator, ctx);
  if (isBlocked(headers)) return headers;
  const merged = mergeChanges(ctx, [...headers, ...changes]);
  if (isBlocked(merged)) return merged;
  return {
    title: titleOf(kind, plan, count),
    id: kind === 'random' ? 'add-random-shard' : 'add-hash-shard',
    rule: finding.rule,
    preferred: kind === 'random',
    safe: false,
    asks: [
      ...(kind === 'hash' ? [{ kind: 'hash-attribute' as const, options: [plan.range!] }] : []),
      ...countQuestion(count, ctx),
    ],
    changes: merged,
  };
}

function titleOf(kind: ShardKind, plan: ModelKeyPlan, count: CountPlan): string {
  const reads = plan.queries.length
    ? `, ${plan.queries.length} quer${plan.queries.length > 1 ? 'ies' : 'y'} of every shard`
    : '';
  const n = `${count.value} shards${count.reused ? `, ${count.name}` : ''}${reads}`;
  const attr = `${plan.model}.${plan.hash}`;
  if (kind === 'hash')
    return `Shard ${attr} by hash(${plan.range}) mod ${count.value} in ${builderName(plan)}() (${n})`;
  return plan.schema && !plan.given.length
    ? `Give ${attr} a random write-shard default (${n})`
    : `Shard ${attr} with a random write shard in ${builderName(plan)}() (${n})`;
}

/**
 * What each file needs at its top: in the model's module the count, the hash helper and the
 * key builder (and `import random`); elsewhere the builder and the count imported beside the
 * model, and the readers' `heapq`, `itertools` and `typing.Iterator`.
 */
function headerEdits(
  kind: ShardKind,
  plan: ModelKeyPlan,
  count: CountPlan,
  readers: ReaderFile[],
  sep: string,
  ctx: FixContext,
): TextChange[] | Blocked {
  const files = new Set([plan.modelFile, ...plan.given.map((a) => a.file), ...readers.map((r) => r.file)]);
  const out: TextChange[] = [];
  for (const file of files) {
    const text = ctx.textOf(file) ?? '';
    const imports = ctx.analysisOf(file)?.imports ?? [];
    const importLines: string[] = [];
    const blocks: string[] = [];
    const reader = readers.find((r) => r.file === file);
    const home = file === plan.modelFile;
    if (home) {
      const shards = plan.given.length > 0 || plan.schema !== null;
      if (kind === 'random' && shards && !hasRandomImport(text)) importLines.push('import random');
      if (kind === 'hash' && !definesHashHelper('python', text)) blocks.push(hashHelperSource('python'));
      if (plan.given.length && !definesBuilder(plan, text))
        blocks.push(
          builderSource(plan, kind, { count: count.name, sep }, usesTypeHints(text), projectLineWidth(file, text)),
        );
    } else {
      const names = [
        ...(plan.given.some((a) => a.file === file) ? [builderName(plan)] : []),
        ...(reader ? [count.name] : []),
      ];
      const added = importBeside(file, text, imports, plan.model, names);
      if (!added)
        return { blocked: `${file} does not import ${plan.model} by name, so the fix cannot import beside it` };
      if (added.edit) out.push(added.edit);
      if (added.line) importLines.push(added.line);
    }
    if (reader) {
      for (const line of reader.imports) if (!new RegExp(`^${line}\\b`, 'm').test(text)) importLines.push(line);
      if (reader.typingIterator) {
        const typing = importBeside(file, text, imports, typingName(imports), ['Iterator']);
        if (typing?.edit) out.push(typing.edit);
        else if (typing?.line || !typing) importLines.push(typing?.line ?? 'from typing import Iterator');
      }
    }
    const plain: CountPlan = home ? { ...count, importChange: null } : { ...count, declare: null, importChange: null };
    out.push(...headerChanges(file, text, imports, plain, { importLines, blocks }));
  }
  return out;
}

/** A name the file imports from `typing` (`List`), to add `Iterator` beside it. */
const typingName = (imports: { module: string; names: string[] }[]) =>
  imports.find((i) => i.module === 'typing')?.names[0] ?? '\0';

export type { ModelKeyPlan };
