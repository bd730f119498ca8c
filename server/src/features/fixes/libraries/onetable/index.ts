import { blockedAction } from '../../blocked';
import type { FixAction, FixAnswers, FixContext, FixProvider, TextChange } from '../../fix-model';
import { definesHashHelper, hashHelperSource } from '../../hash-helper';
import { headerChanges } from '../../header';
import { type Blocked, where } from '../../key-sites';
import { importOf, suggestedCount, type CountPlan } from '../../shard-count';
import { suffixDescriptor } from '../../shard-fix';
import { isBlocked, mergeChanges } from '../../whole-key';
import { indentUnitOf } from '../../reader-conventions';
import { offeredShardFixes } from '../offer';
import { planModel, type ModelPlan } from './plan';
import { callChange, readerName, readerSource, sortKeyOf } from './reader';
import { shardFieldChange, templateChange, valueCallbackChange, type Method } from './schema-edit';
import { stringText } from './schema-syntax';
import { tablesOfSchema } from './tables';

/**
 * OneTable's shard fixes (docs/fixes.md, "Fixes in a library's style"): the model's key
 * template gains a shard that a `shard` field fills, random (`generate`) when nothing
 * addresses an item by its key, else computed from an attribute every access gives (the
 * table's `value` callback); every find of the key becomes a reader of every shard.
 */
export const oneTableFixes: FixProvider = (finding, ctx, answers): FixAction[] => {
  const d = suffixDescriptor(finding);
  if (!d) return [];
  const p = planModel(finding, d, ctx);
  if (isBlocked(p)) return blockedAction(finding, p.blocked);
  const point = p.points[0];
  const random: FixAction | Blocked = point
    ? {
        blocked: `the ${point.operation} at ${where(ctx, point.file, point.span)} finds one item by its key, which a random shard would lose`,
      }
    : build(p, { kind: 'random' }, ctx, answers);
  const attribute = hashAttribute(p, ctx, answers);
  const calculated = isBlocked(attribute)
    ? attribute
    : build(p, { kind: 'hash', attribute: attribute.chosen }, ctx, answers, attribute.options);
  return offeredShardFixes(finding, random, calculated);
};

const TEMPLATE_VARS = /\$\{([^}:]+)[^}]*\}/g;
const varsOf = (text: string | null) => [...(text ?? '').matchAll(TEMPLATE_VARS)].map((m) => m[1]);

/** The attributes a calculated shard may hash: the sort key's parts, then ids, given at every access and never constant. */
function hashAttribute(
  p: ModelPlan,
  ctx: FixContext,
  answers?: FixAnswers,
): { chosen: string; options: string[] } | Blocked {
  const lib = p.finding.access.library!;
  const sort = p.fields.pairs.find((x) => x.name === lib.sortAttribute);
  const sortVars = varsOf(sort?.props.get('value') ? stringText(sort.props.get('value')!) : null);
  const keyVars = new Set(varsOf(p.template.text));
  const names = [...sortVars, ...p.fields.pairs.map((x) => x.name).filter((n) => /id$/i.test(n))];
  const candidates = [...new Set(names)].filter((n) => !keyVars.has(n) && n !== lib.typeField);
  if (p.given.length === 0) return { blocked: 'no access of the key shows the attributes it gives' };
  const options = candidates.filter((n) => p.given.every((g) => g.names?.has(n) && !g.constants.has(n)));
  if (options.length === 0) {
    const miss = p.given.find((g) => !candidates.some((n) => g.names?.has(n)))?.access ?? p.given[0].access;
    return {
      blocked: `no attribute that identifies the item (a sort key part or an id) is given at every access of the key (${miss.operation} at ${where(ctx, miss.file, miss.span)})`,
    };
  }
  const chosen = answers?.hashAttribute && options.includes(answers.hashAttribute) ? answers.hashAttribute : options[0];
  return { chosen, options };
}

const typed = (file: string) => /\.(ts|tsx|mts|cts)$/.test(file);
const isCommonJs = (text: string) => /\brequire\(/.test(text) || !/^\s*(import|export)\b/m.test(text);

function build(
  p: ModelPlan,
  method: Method,
  ctx: FixContext,
  answers: FixAnswers | undefined,
  hashOptions: string[] = [],
): FixAction | Blocked {
  const schemaFile = p.fields.file;
  const schemaText = ctx.textOf(schemaFile) ?? '';
  const name = `${p.model.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}_SHARDS`;
  if (new RegExp(`\\b${name}\\b`).test(schemaText))
    return { blocked: `${name} is already a name in ${where(ctx, schemaFile, p.key.span)}` };
  const value = answers?.shardCount ?? suggestedCount(ctx);
  // A calculated shard is computed by the `value` callback of each Table the model is
  // written or read through: every Table built from the schema gets the same one.
  const tables = method.kind === 'hash' ? tablesOfSchema(p, ctx) : [];
  if (isBlocked(tables)) return tables;
  const needing = new Set([...tables.map((t) => t.file), ...p.finds.map((f) => f.access.file)]);
  needing.delete(schemaFile);
  if (needing.size && isCommonJs(schemaText))
    return {
      blocked: `the shard count cannot be imported from the CommonJS module ${where(ctx, schemaFile, p.key.span)}`,
    };
  const changes: TextChange[] = [templateChange(p), shardFieldChange(p, method, name, indentUnitOf(schemaText, false))];
  const blocks = new Map<string, string[]>();
  const add = (file: string, block: string) => blocks.set(file, [...(blocks.get(file) ?? []), block]);
  for (const table of tables) {
    if (method.kind !== 'hash') break;
    const others = tables.length > 1 ? ` (one of the ${tables.length} tables built from the schema)` : '';
    if (table.pairs.some((x) => x.name === 'value'))
      return { blocked: `the table at ${where(ctx, table.file, table.end)}${others} has a value callback of its own` };
    if (table.open)
      return {
        blocked: `the table's options at ${where(ctx, table.file, table.end)}${others} are not all written there`,
      };
    changes.push(
      valueCallbackChange(p, table, method.attribute, name, indentUnitOf(ctx.textOf(table.file) ?? '', false)),
    );
    const text = ctx.textOf(table.file) ?? '';
    const language = p.finding.access.language;
    if (!definesHashHelper(language, text) && !blocks.has(table.file))
      add(table.file, hashHelperSource(typed(table.file) ? 'typescript' : 'javascript'));
  }
  const lib = p.finding.access.library!;
  const sortKey = sortKeyOf(p, lib.sortAttribute ?? null, lib.typeField ?? '_type');
  if (sortKey === undefined && p.finds.length)
    return {
      blocked: `the sort key of ${p.model} cannot be rendered from the items a find returns, so the shards could not be merged in order`,
    };
  const readerIn = new Set<string>();
  for (const f of p.finds) {
    changes.push(callChange(f, p.model));
    const text = ctx.textOf(f.access.file) ?? '';
    if (readerIn.has(f.access.file) || new RegExp(`function\\s+${readerName(p.model)}\\b`).test(text)) continue;
    readerIn.add(f.access.file);
    const s = f.statement;
    const at = { startLine: s.endLine, startColumn: s.endColumn, endLine: s.endLine, endColumn: s.endColumn };
    changes.push({
      file: f.access.file,
      span: at,
      newText: `\n\n${readerSource(p.model, f.receiver, name, sortKey ?? null, typed(f.access.file))}`,
    });
  }
  for (const file of new Set([schemaFile, ...needing, ...blocks.keys()])) {
    const text = ctx.textOf(file) ?? '';
    const imports = ctx.analysisOf(file)?.imports ?? [];
    const home = file === schemaFile;
    const declare = home
      ? `/** Write shards of the ${p.model} key; readers must find every one. */\n${needing.size ? 'export ' : ''}const ${name} = ${value};`
      : null;
    const at = { ...p.finding.access, file };
    const imported = home ? null : importOf(at, imports, text, name, schemaFile);
    // The file's own quotes for a new import line.
    const importChange = typeof imported === 'string' && /from '/.test(text) ? imported.replace(/"/g, "'") : imported;
    const plan: CountPlan = { value, name, reused: false, declare, importChange };
    changes.push(...headerChanges(file, text, imports, plan, { blocks: blocks.get(file) ?? [] }));
  }
  const merged = mergeChanges(ctx, changes);
  if (isBlocked(merged)) return merged;
  const by = tables.length > 1 ? ` by each of the ${tables.length} tables built from it` : '';
  const what =
    method.kind === 'random' ? 'a random shard field' : `a shard field computed from ${method.attribute}${by}`;
  return {
    title: `Shard the ${p.model} key in its schema: ${what} (${value} shards), every find reading all of them`,
    id: method.kind === 'random' ? 'onetable-random-shard' : 'onetable-calculated-shard',
    rule: p.finding.rule,
    preferred: method.kind === 'random' || p.points.length > 0,
    safe: false,
    asks: [
      { kind: 'shard-count', suggested: suggestedCount(ctx) },
      ...(method.kind === 'hash' ? [{ kind: 'hash-attribute' as const, options: hashOptions }] : []),
    ],
    changes: merged,
    reveal: { file: schemaFile, span: p.template.span },
  };
}
