import type { Node } from 'web-tree-sitter';
import type { Access } from '../../../../engine';
import type { FixContext, TextChange } from '../../fix-model';
import type { Blocked } from '../../key-sites';
import { nodeAt, objectAttributes, withTree } from '../../syntax';
import { accessAt } from '../../whole-key';
import { hashShardExpression } from '../../hash-helper';
import type { EntityPlan } from './plan';
import { SHARD_ATTRIBUTE } from './schema-edit';
import { appendEntry } from './text-edit';
import { applyChanges, offsetAt } from '../../apply';
import { MERGE_NAME } from './merge-helper';
import { PAGE_READER_NAME } from './page-helper';
import { indentUnitOf, trailingCommaOf } from '../../reader-conventions';
import { projectLineWidth } from '../../line-width';

/** The attributes a get, update or delete gives as plain reads (`{ board: 'global', player }`), by name. */
export function givenAttributes(ctx: FixContext, a: Access): Map<string, string> {
  const span = a.library?.edit?.argument;
  const text = ctx.textOf(a.file);
  const out = new Map<string, string>();
  if (!span || text === null) return out;
  withTree(a.file, text, (tree, language) => {
    const obj = nodeAt(tree, span);
    if (obj?.type !== 'object') return;
    for (const attr of objectAttributes(obj, language)) out.set(attr.name, attr.expression);
  });
  return out;
}

/** `shard: String(shardlensHash(String(player)) % SCORE_SHARDS)` added to the call's composite attributes. */
export function pointChange(ctx: FixContext, a: Access, attribute: string, count: string): TextChange | Blocked {
  const span = a.library?.edit?.argument;
  const text = ctx.textOf(a.file);
  const expression = givenAttributes(ctx, a).get(attribute);
  if (!span || text === null || !expression)
    return { blocked: `the ${accessAt(ctx, a)} does not give ${attribute} as a plain value` };
  const shard = `${SHARD_ATTRIBUTE}: String(${hashShardExpression(a.language, expression, count)})`;
  return appendEntry(a.file, text, span, shard) ?? { blocked: `the ${accessAt(ctx, a)} cannot be edited` };
}

/** `.go(...)` options a read of every shard keeps as they are; any other changes what one query returned. */
const KEPT_OPTIONS = new Set(['pages', 'order', 'consistent']);

/**
 * A query of the pattern as the read of every shard: the same chain once per shard, the
 * shard among its composite attributes and every page read, the shards' items merged in
 * the order the one query returned them (ElectroDB's stored sort key, computed by its own
 * `createConversions`):
 * `Promise.all(Array.from({ length: N }, (_, shard) => E.query.p({ ..., shard: String(shard) }).go({ pages: 'all' })))
 * .then((shards) => mergeShardPages(shards, (item) => createConversions(E).byAccessPattern.p.fromComposite.toKeys(item).sk))`.
 */
export function queryChange(ctx: FixContext, plan: EntityPlan, q: Access, count: string): TextChange | Blocked {
  const edit = q.library?.edit;
  const text = ctx.textOf(q.file);
  const cannot = (why: string) => ({ blocked: `the ${accessAt(ctx, q)} cannot be read from every shard: ${why}` });
  if (!edit?.argument || !edit.end || text === null)
    return cannot('its composite attributes are not an object it writes');
  if (edit.end.method !== 'go')
    return cannot(`it builds the request with .${edit.end.method}() rather than sending it`);
  const shape = withTree(q.file, text, (tree) => readShape(nodeAt(tree, edit.argument!), nodeAt(tree, edit.end!.args)));
  if (!shape || 'why' in shape) return cannot(shape?.why ?? 'its file cannot be read');
  // The call's text rebuilt around its composite object and its `.go(...)` arguments, which come after it.
  const at = (line: number, column: number) => offsetAt(text, line, column);
  const base = at(q.span.startLine, q.span.startColumn);
  const [a0, a1] = [
    at(edit.argument.startLine, edit.argument.startColumn),
    at(edit.argument.endLine, edit.argument.endColumn),
  ];
  const [g0, g1] = [
    at(edit.end.args.startLine, edit.end.args.startColumn),
    at(edit.end.args.endLine, edit.end.args.endColumn),
  ];
  const end = at(q.span.endLine, q.span.endColumn);
  const argument = withEntry(text.slice(a0, a1), `${SHARD_ATTRIBUTE}: String(shard)`);
  if (argument === null || a1 > g0) return cannot('its composite attributes are not an object it writes');
  const paged = shape.paged;
  const options = paged
    ? `{ ${[...paged.kept, ...(paged.limit === null ? [] : ['limit: shardLimit']), 'cursor: shardCursor'].join(', ')} }`
    : shape.options;
  const perShard = text.slice(base, a0) + argument + text.slice(a1, g0) + `(${options})` + text.slice(g1, end);
  const skField = plan.sites.skField;
  const conversions = `createConversions(${shape.entity}).byAccessPattern.${plan.pattern}.fromComposite`;
  const sortKey = skField ? `(item) => ${conversions}.toKeys(item).${skField}` : '() => 0';
  const order = shape.order === 'desc' ? `, 'desc'` : '';
  // One step deeper than the call's line, in the file's own step (two spaces, four, a tab).
  const step = indentUnitOf(text, false);
  const [i1, i2] = [q.call.indent + step, q.call.indent + step + step];
  // An arrow's body goes to a line of its own, a step deeper, when its line would pass the
  // file's width (as prettier breaks it); a per-shard call written over lines is kept so.
  const width = projectLineWidth(q.file, text);
  const comma = trailingCommaOf(text);
  const fits = (line: string) => !line.includes('\n') && line.length <= width;
  if (paged) {
    // One page at a time: each shard from its own cursor, the cursor handed back holds them all (./page-helper).
    const pageOf = paged.limit === null ? `(shard, shardCursor) =>` : `(shard, shardCursor, shardLimit) =>`;
    // Past the width even on a line of its own: the options object one entry a line, as prettier
    // hugs a call's last object argument.
    const entries = [...paged.kept, ...(paged.limit === null ? [] : ['limit: shardLimit']), 'cursor: shardCursor'];
    const i3 = i2 + step;
    const perShardOver =
      text.slice(base, a0) +
      argument +
      text.slice(a1, g0) +
      `({\n${entries.map((e, i) => `${i3}${e}${i === entries.length - 1 ? comma : ','}`).join('\n')}\n${i2}})` +
      text.slice(g1, end);
    const page = fits(`${i1}${pageOf} ${perShard},`)
      ? `${pageOf} ${perShard}`
      : fits(`${i2}${perShard},`)
        ? `${pageOf}\n${i2}${perShard}`
        : `${pageOf}\n${i2}${perShardOver}`;
    const args = [
      count,
      page,
      sortKey,
      `(item) => ${conversions}.toCursor(item)`,
      paged.limit ?? 'Infinity',
      paged.cursor,
      ...(order ? [order.slice(2)] : []),
    ];
    const lines = args.map((x, i) => `${i1}${x}${i === args.length - 1 ? comma : ','}`).join('\n');
    return { file: q.file, span: q.span, newText: `${PAGE_READER_NAME}(\n${lines}\n${q.call.indent})` };
  }
  const perShardCall = `Array.from({ length: ${count} }, (_, shard) => ${perShard})${comma}`;
  const shards = fits(i1 + perShardCall)
    ? i1 + perShardCall
    : `${i1}Array.from({ length: ${count} }, (_, shard) =>\n${i2}${perShard}${comma}\n${i1})${comma}`;
  const merge = `${MERGE_NAME}(shards, ${sortKey}${order})`;
  // Still too long a step deeper: one argument a line.
  const mergeArgs = ['shards', sortKey, ...(order ? [order.slice(2)] : [])];
  const mergeLines = fits(`${i1}${merge}${comma}`)
    ? merge
    : `${MERGE_NAME}(\n${mergeArgs
        .map((a) => `${i2}${a},`)
        .join('\n')
        .replace(/,$/, comma)}\n${i1})`;
  const then = fits(`${q.call.indent}).then((shards) => ${merge});`)
    ? `.then((shards) => ${merge})`
    : `.then((shards) =>\n${i1}${mergeLines}${comma}\n${q.call.indent})`;
  const newText = `Promise.all(\n${shards}\n${q.call.indent})${then}`;
  return { file: q.file, span: q.span, newText };
}

interface QueryShape {
  /** The entity's expression (`Score`, `auth.entities.session`). */
  entity: string;
  /** The `.go(...)` options with every page read. */
  options: string;
  order: 'asc' | 'desc';
  /** A read of one page at a time (`.go({ limit, cursor })`): the two as written (no limit: null), and the options kept. */
  paged?: { limit: string | null; cursor: string; kept: string[] };
}

function readShape(argument: Node | null, args: Node | null): QueryShape | { why: string } | null {
  if (argument?.type !== 'object' || args?.type !== 'arguments') return null;
  // `E.query.byBoard({ ... })`: the call's function is `<entity>.query.byBoard`.
  const fn = argument.parent?.parent?.childForFieldName('function');
  const entity = fn?.childForFieldName('object')?.childForFieldName('object')?.text;
  if (!entity) return null;
  const given = args.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
  if (given.length === 0) return { entity, options: `{ pages: 'all' }`, order: 'asc' };
  const opts = given[0];
  if (given.length > 1 || opts.type !== 'object') return { why: 'its options are not an object it writes' };
  let order: 'asc' | 'desc' = 'asc';
  const kept: string[] = [];
  const page: { limit?: string; cursor?: string; pages?: string } = {};
  for (const c of opts.namedChildren) {
    if (!c || c.type === 'comment') continue;
    const shorthand = c.type === 'shorthand_property_identifier';
    const name = shorthand
      ? c.text
      : c.type === 'pair'
        ? c.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '')
        : undefined;
    const value = shorthand ? c.text : c.childForFieldName('value')?.text;
    if ((name === 'limit' || name === 'cursor') && value) {
      page[name] = value;
      continue;
    }
    if (name === 'pages') page.pages = c.text;
    if (!name || !KEPT_OPTIONS.has(name)) return { why: `its option ${name ?? c.text} changes which items it returns` };
    if (name === 'order') {
      if (value !== "'desc'" && value !== "'asc'" && value !== '"desc"' && value !== '"asc"')
        return { why: 'its order is chosen at run time' };
      order = value.includes('desc') ? 'desc' : 'asc';
    }
    if (name !== 'pages') kept.push(c.text);
  }
  if (page.pages !== undefined && (page.limit !== undefined || page.cursor !== undefined))
    return { why: `its ${page.pages} with a cursor or a limit is not one page the read of every shard can repeat` };
  const options = `{ ${[...kept, "pages: 'all'"].join(', ')} }`;
  if (page.limit === undefined && page.cursor === undefined) return { entity, options, order };
  // A cursor with no limit reads one DynamoDB page: each shard's page, as far as all are known.
  return { entity, options, order, paged: { limit: page.limit ?? null, cursor: page.cursor ?? 'null', kept } };
}

/** An object literal's text with `entry` added as its last entry. */
function withEntry(object: string, entry: string): string | null {
  const lines = object.split('\n');
  const whole = { startLine: 0, startColumn: 0, endLine: lines.length - 1, endColumn: lines[lines.length - 1].length };
  const change = appendEntry('', object, whole, entry);
  return change ? applyChanges(object, [change]) : null;
}
