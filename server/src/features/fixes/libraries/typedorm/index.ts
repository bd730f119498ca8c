import { blockedAction } from '../../blocked';
import type { FixAction, FixAnswers, FixContext, FixProvider, TextChange } from '../../fix-model';
import { definesHashHelper, hashHelperSource, hashShardExpression } from '../../hash-helper';
import { headerChanges } from '../../header';
import { type Blocked, where } from '../../key-sites';
import { importOf, suggestedCount, type CountPlan } from '../../shard-count';
import { suffixDescriptor } from '../../shard-fix';
import { isBlocked, mergeChanges } from '../../whole-key';
import { offeredShardFixes } from '../offer';
import { templateVars } from './entity-syntax';
import { planEntity, SHARD, type EntityPlan } from './plan';
import { callChange, READER_IMPORT, readerName, readerSource, sortKeyOf } from './reader';
import { attributeImport, shardFieldChange, templateChange, type Method } from './schema-edit';

/**
 * TypeDORM's shard fixes (docs/fixes.md, "Fixes in a library's style"): the `@Entity` key
 * template gains `{{shard}}` and the class a `shard` attribute whose `default` fills it on
 * each create, random when nothing addresses an item by its key, else computed from a sort
 * key attribute that every `findOne`, `exists`, `update` and `delete` of the key gives and
 * passes as `shard`; every `find` of the key becomes a reader of every shard.
 */
export const typeDormFixes: FixProvider = (finding, ctx, answers): FixAction[] => {
  const d = suffixDescriptor(finding);
  if (!d) return [];
  const p = planEntity(finding, d, ctx);
  if (isBlocked(p)) return blockedAction(finding, p.blocked);
  const point = p.points[0]?.access;
  const random: FixAction | Blocked = point
    ? {
        blocked: `the ${point.call.callee} at ${where(ctx, point.file, point.span)} finds one item by its key, which a random shard would lose`,
      }
    : build(p, { kind: 'random' }, ctx, answers);
  const attribute = hashAttribute(p, ctx, answers);
  const calculated = isBlocked(attribute)
    ? attribute
    : build(p, { kind: 'hash', attribute: attribute.chosen }, ctx, answers, attribute.options);
  return offeredShardFixes(finding, random, calculated);
};

/**
 * The attributes a calculated shard may hash: the sort key's own, which every create fills
 * (TypeDORM renders the key from them) and every point access gives in its key, and which no
 * update changes.
 */
function hashAttribute(
  p: EntityPlan,
  ctx: FixContext,
  answers?: FixAnswers,
): { chosen: string; options: string[] } | Blocked {
  const e = p.entity;
  const inPartition = new Set(templateVars(e.partition.text));
  const candidates = [...new Set(templateVars(e.sort))].filter((n) => !inPartition.has(n) && n !== SHARD);
  if (candidates.length === 0)
    return { blocked: `the sort key of ${e.className} holds no attribute of the item to compute a shard from` };
  const options = candidates.filter((n) => p.points.every((x) => x.given.has(n) && !x.body.has(n)));
  if (options.length === 0) {
    const miss = p.points.find((x) => !candidates.some((n) => x.given.has(n) && !x.body.has(n)))!.access;
    return {
      blocked: `the ${miss.call.callee} at ${where(ctx, miss.file, miss.span)} does not give ${candidates.join(' or ')} unchanged, which the shard is computed from`,
    };
  }
  const chosen = answers?.hashAttribute && options.includes(answers.hashAttribute) ? answers.hashAttribute : options[0];
  return { chosen, options };
}

const typed = (file: string) => /\.(ts|tsx|mts|cts)$/.test(file);
/** A key value the call may evaluate once more for its shard: a name, a member, a literal. */
const PLAIN = /^[\w$.'"`#\- ]+$/;

function build(
  p: EntityPlan,
  method: Method,
  ctx: FixContext,
  answers: FixAnswers | undefined,
  hashOptions: string[] = [],
): FixAction | Blocked {
  const e = p.entity;
  const at = where(ctx, e.file, e.partition.span);
  if (!typed(e.file)) return { blocked: `${e.className} is not declared in TypeScript, where its decorators are read` };
  const entityText = ctx.textOf(e.file) ?? '';
  const name = `${e.className.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}_SHARDS`;
  if (new RegExp(`\\b${name}\\b`).test(entityText)) return { blocked: `${name} is already a name in ${at}` };
  const attribute = attributeImport(e);
  if (!attribute) return { blocked: `${at} does not import from @typedorm/common, where Attribute comes from` };
  const value = answers?.shardCount ?? suggestedCount(ctx);
  const language = p.finding.access.language;
  const hashOf = (expression: string) => hashShardExpression(language, expression, name);
  const changes: TextChange[] = [
    templateChange(e, p.d.separator),
    shardFieldChange(e, method, name, hashOf),
    ...attribute,
  ];
  const header = new Map<string, { blocks: string[]; importLines: string[] }>([
    [e.file, { blocks: [], importLines: [] }],
  ]);
  const add = (file: string, what: 'blocks' | 'importLines', line: string) => {
    const h = header.get(file) ?? { blocks: [], importLines: [] };
    if (!h[what].includes(line)) h[what].push(line);
    header.set(file, h);
  };
  if (method.kind === 'hash') {
    if (!definesHashHelper(language, entityText)) add(e.file, 'blocks', hashHelperSource(language));
    for (const x of p.points) {
      const given = x.given.get(method.attribute)!;
      const where_ = where(ctx, x.access.file, x.access.span);
      if (!PLAIN.test(given))
        return {
          blocked: `the ${x.access.call.callee} at ${where_} gives ${method.attribute} as an expression the shard would run again`,
        };
      changes.push({
        file: x.access.file,
        span: { ...x.after, startLine: x.after.endLine, startColumn: x.after.endColumn },
        newText: `, shard: String(${hashOf(given)})`,
      });
      if (!definesHashHelper(language, ctx.textOf(x.access.file) ?? ''))
        add(x.access.file, 'blocks', hashHelperSource(language));
    }
  }
  const sortKey = sortKeyOf(e.sort);
  const readerIn = new Set<string>();
  for (const f of p.finds) {
    changes.push(callChange(f, e.className));
    const file = f.access.file;
    add(file, 'blocks', '');
    const text = ctx.textOf(file) ?? '';
    if (readerIn.has(file) || new RegExp(`function\\s+${readerName(e.className)}\\b`).test(text)) continue;
    readerIn.add(file);
    if (typed(file) && !text.includes(READER_IMPORT)) add(file, 'importLines', READER_IMPORT);
    const s = f.statement;
    changes.push({
      file,
      span: { startLine: s.endLine, startColumn: s.endColumn, endLine: s.endLine, endColumn: s.endColumn },
      newText: `\n\n${readerSource(f.entity, name, sortKey, typed(file))}`,
    });
  }
  const exported = [...header.keys()].some((f) => f !== e.file);
  for (const [file, extra] of header) {
    const text = ctx.textOf(file) ?? '';
    const imports = ctx.analysisOf(file)?.imports ?? [];
    const home = file === e.file;
    const declare = home
      ? `/** Write shards of the ${e.className} key; readers must find every one. */\n${exported ? 'export ' : ''}const ${name} = ${value};`
      : null;
    const imported = home ? null : importOf({ ...p.finding.access, file }, imports, text, name, e.file);
    const importChange = typeof imported === 'string' && /from '/.test(text) ? imported.replace(/"/g, "'") : imported;
    const plan: CountPlan = { value, name, reused: false, declare, importChange };
    changes.push(
      ...headerChanges(file, text, imports, plan, {
        blocks: extra.blocks.filter(Boolean),
        importLines: extra.importLines,
      }),
    );
  }
  const merged = mergeChanges(ctx, changes);
  if (isBlocked(merged)) return merged;
  const what =
    method.kind === 'random' ? 'a random shard attribute' : `a shard attribute computed from ${method.attribute}`;
  return {
    title: `Shard the ${e.className} key in its @Entity: ${what} (${value} shards), every find reading all of them`,
    id: method.kind === 'random' ? 'typedorm-random-shard' : 'typedorm-calculated-shard',
    rule: p.finding.rule,
    preferred: method.kind === 'random' || p.points.length > 0,
    safe: false,
    asks: [
      { kind: 'shard-count', suggested: suggestedCount(ctx) },
      ...(method.kind === 'hash' ? [{ kind: 'hash-attribute' as const, options: hashOptions }] : []),
    ],
    changes: merged,
    reveal: { file: e.file, span: e.partition.span },
  };
}
