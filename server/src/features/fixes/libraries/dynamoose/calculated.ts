import type { Node } from 'web-tree-sitter';
import {
  type Access,
  type Finding,
  languageForFile,
  type ShardSuffix,
  type SourceLanguage,
  spanOf,
  words,
} from '../../../../engine';
import type { FixAction, FixAnswers, FixContext, TextChange } from '../../fix-model';
import { definesHashHelper, hashHelperSource, hashShardExpression } from '../../hash-helper';
import { appendShard } from '../../key-edit';
import { placeName, type Blocked } from '../../key-sites';
import { importOf } from '../../shard-count';
import { countQuestion } from '../../shard-fix';
import { nodeAt, objectAttributes, withTree } from '../../syntax';
import { accessAt, isBlocked } from '../../whole-key';
import type { DynamoosePlan } from './plan';
import { shardEdit } from './random';

/**
 * The calculated shard, for a key whose items are also found one by one (get, update,
 * delete): the shard is the hash of the item's range key, which every access gives. A
 * dynamoose `default` function is called with no argument and cannot see the item, so
 * the key is computed by a function beside the model (`bannerSite(slot)`:
 * `storefront#${shardlensHash(String(slot)) % N}`) and given at each access: each create
 * gains `site: bannerSite(slot)`, each get, update and delete has its key value replaced
 * by it. The schema's constant `default` becomes `required: true`, so a write that still
 * leaves the key out is refused by dynamoose rather than stored on the unsharded key.
 * Queries become readers of every shard, as for the random shard.
 */
export function calculatedKeyFix(
  finding: Finding,
  d: ShardSuffix,
  plan: DynamoosePlan,
  ctx: FixContext,
  answers?: FixAnswers,
): FixAction | Blocked {
  const range = plan.schema.tableRange;
  if (plan.key.index !== null || !range)
    return { blocked: `no range key identifies the item at every access of ${plan.key.attribute}` };
  const v = plan.schema.defaultValue!;
  if (v.type === 'arrow_function') return { blocked: `the default of ${plan.key.attribute} is a function` };
  const fn = keyFunctionName(plan);
  const sites: Array<{ access: Access; edit: (call: string) => TextChange }> = [];
  for (const a of [...plan.writers, ...plan.points]) {
    const site = keySite(ctx, a, plan, range);
    if (isBlocked(site)) return site;
    sites.push({ access: a, edit: site });
  }
  const es = (file: string) => /^\s*(import|export)\b/m.test(ctx.textOf(file) ?? '');
  const modelExports = es(plan.schema.file);
  const users = [...new Set(sites.map((s) => s.access.file))];
  // An ES model module exports the key function; CommonJS files (`module.exports = Banner`) each keep a copy.
  const defining = modelExports ? [plan.schema.file] : users;
  const importChanges: TextChange[] = [];
  const importLines = new Map<string, string>();
  if (modelExports)
    for (const file of users.filter((f) => f !== plan.schema.file)) {
      const imports = ctx.analysisOf(file)?.imports ?? [];
      const change = importOf(sites[0].access, imports, ctx.textOf(file) ?? '', fn, plan.schema.file);
      if (!change) return { blocked: `${fn} cannot be imported into ${placeName(ctx)(file)}` };
      if (typeof change === 'string') importLines.set(file, change);
      else importChanges.push(change);
    }
  const edit = shardEdit(
    finding,
    d,
    plan,
    ctx,
    answers,
    () => ({ span: pairSpanOf(ctx, plan) ?? v.span, newText: 'required: true' }),
    {
      files: defining,
      perFile: (count, file) => {
        const line = importLines.get(file);
        if (!defining.includes(file)) return line ? { importLines: [line] } : {};
        const text = ctx.textOf(file) ?? '';
        const lang = languageForFile(file) ?? plan.schema.language;
        const helper = definesHashHelper(lang, text) ? [] : [hashHelperSource(lang)];
        const source = keyFunctionSource(plan, lang, fn, range, count, d.separator, modelExports);
        return { blocks: [...helper, source] };
      },
      changes: () => [...importChanges, ...sites.map((s) => s.edit(fn))],
    },
  );
  if (isBlocked(edit)) return edit;
  const n = sites.length;
  return {
    title: `Shard ${plan.model}.${plan.key.attribute} by hash(${range}) mod ${edit.count.value}, computed by ${fn}() at ${n} access${n === 1 ? '' : 'es'}`,
    id: 'add-calculated-shard',
    rule: finding.rule,
    safe: false,
    asks: countQuestion(edit.count, ctx),
    changes: edit.changes,
  };
}

/** `bannerSite` for Banner.site. */
function keyFunctionName(plan: DynamoosePlan): string {
  const ws = [...words(plan.model), ...words(plan.key.attribute)].map((w) => w.toLowerCase());
  return ws.map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w)).join('');
}

function keyFunctionSource(
  plan: DynamoosePlan,
  lang: SourceLanguage,
  fn: string,
  range: string,
  count: string,
  sep: string,
  exported: boolean,
): string {
  const typed = lang === 'typescript' || lang === 'tsx';
  const value = appendShard(lang, plan.schema.defaultValue!.text, sep, hashShardExpression(lang, range, count));
  return [
    `/** The ${plan.key.attribute} of one ${plan.model}: the write shard its ${range} hashes to. Every access computes it so. */`,
    `${exported ? 'export ' : ''}function ${fn}(${range}${typed ? ': unknown' : ''})${typed ? ': string' : ''} {`,
    `  return ${value};`,
    '}',
  ].join('\n');
}

/** The `default: 'x'` pair of the key attribute. */
function pairSpanOf(ctx: FixContext, plan: DynamoosePlan) {
  const text = ctx.textOf(plan.schema.file) ?? '';
  return withTree(plan.schema.file, text, (tree) => {
    const p = nodeAt(tree, plan.schema.defaultValue!.span)?.parent;
    return p?.type === 'pair' ? spanOf(p) : null;
  });
}

/**
 * Where one access gets the computed key: a create's item gains the key attribute, a get,
 * update or delete has its key value replaced; the range key's value is read from the
 * same object (a name or property read, so computing it again gives the same value).
 */
function keySite(
  ctx: FixContext,
  a: Access,
  plan: DynamoosePlan,
  range: string,
): ((fn: string) => TextChange) | Blocked {
  const text = ctx.textOf(a.file);
  const none: Blocked = {
    blocked: `no ${range} that identifies the item is written at the ${accessAt(ctx, a)}`,
  };
  if (text === null || !a.partitionKey) return none;
  const r = withTree(a.file, text, (tree, language) => {
    const given = a.operation !== 'PutItem';
    const object = given ? containerOf(nodeAt(tree, a.partitionKey!.span)) : itemOf(nodeAt(tree, a.span));
    if (!object) return none;
    const value = objectAttributes(object, language).find((x) => x.name === range);
    if (!value) return none;
    if (given) {
      const span = a.partitionKey!.span;
      return (f: string) => ({ file: a.file, span, newText: `${f}(${value.expression})` });
    }
    const open = spanOf(object);
    const at = {
      startLine: open.startLine,
      startColumn: open.startColumn + 1,
      endLine: open.startLine,
      endColumn: open.startColumn + 1,
    };
    return (f: string) => ({ file: a.file, span: at, newText: ` ${plan.key.attribute}: ${f}(${value.expression}),` });
  });
  return r ?? none;
}

/** The object a key value is a property of. */
function containerOf(n: Node | null): Node | null {
  let p = n;
  while (p && p.type !== 'pair') p = p.parent;
  return p?.parent?.type === 'object' ? p.parent : null;
}

/** The item a create is given: `M.create({...})`, or `new M({...})` saved. */
function itemOf(call: Node | null): Node | null {
  if (call?.type !== 'call_expression') return null;
  const fn = call.childForFieldName('function');
  const method = fn?.childForFieldName('property')?.text;
  const target = method === 'save' ? fn?.childForFieldName('object') : call;
  const first = target?.childForFieldName('arguments')?.namedChildren[0];
  return first?.type === 'object' ? first : null;
}
