import type { Node } from 'web-tree-sitter';
import type { Access, SourceLanguage } from '../../../../engine';
import type { FixContext, TextChange } from '../../fix-model';
import { indentUnitOf } from '../../reader-conventions';
import { where, type Blocked } from '../../key-sites';
import { withTree } from '../../syntax';
import { resultUseBlock } from './result-use';
import { lineOf } from '../../apply';

/**
 * A dynamodb-toolbox Query of a key that is now sharded, rewritten where it stands into
 * the same query run once per shard, every page, merged:
 *
 *   await mergeShardQueries(
 *     Array.from({ length: ACTIVITY_HOME_SHARDS }, (_, shard) =>
 *       AppTable.build(QueryCommand)
 *         .entities(ActivityEntity)
 *         .query({ partition: `ACTIVITY#home#${shard}`, range: { gte: since } })
 *         .options({ reverse: true, maxPages: Infinity })
 *         .send(),
 *     ),
 *     (item) => item.at,
 *     { descending: true },
 *   )
 *
 * It stays in place, not in a function of its own, because its chain reads the
 * function's own variables (`since`, a `limit`). Every shard's query keeps the
 * original's range and options; `maxPages: Infinity` makes the library follow
 * `LastEvaluatedKey` to the end, except for a `limit` read, where each shard's first page
 * holds its top `limit` items and the merge keeps the top `limit` of them all. The items
 * are merged by the attribute holding the sort key, in the query's order.
 */

export const MERGE_HELPER = 'mergeShardQueries';

interface Chain {
  root: Node;
  steps: Array<{ name: string; args: Node[] }>;
}

/** The change replacing one Query of the key by its query of every shard, or what blocks it. */
export function shardedQuery(
  ctx: FixContext,
  q: Access,
  stored: string,
  separator: string,
  count: string,
): TextChange | Blocked {
  return queryChange(ctx, q, 'is not a chain ending in send() with its options written out', ({ call, sort, text }) => {
    const chain = chainAt(call);
    return chain ? rewrite(chain, q, stored, separator, count, sort, text) : null;
  });
}

/** What a query's rewrite reads: its call, where it is (for a reason), the attribute holding the sort key, the file's text. */
export interface QueryAt {
  call: Node;
  at: string;
  sort: string;
  text: string;
}

/**
 * The change replacing the Query `q` by the text `rewrite` makes of it (v1/v2 or v0), or
 * why not: no attribute to merge by, a call not read (`unread`), a result read for more
 * than the merged reader returns (./result-use.ts), or the rewrite's own reason.
 */
export function queryChange(
  ctx: FixContext,
  q: Access,
  unread: string,
  rewrite: (query: QueryAt) => string | Blocked | null,
): TextChange | Blocked {
  const text = ctx.textOf(q.file);
  const at = where(ctx, q.file, q.span);
  const sort = q.library?.sortAttribute;
  if (!sort) return { blocked: `the items of the Query at ${at} carry their sort key in no attribute of the entity` };
  const made = text
    ? withTree(q.file, text, (tree): string | Blocked | null => {
        const call = callAt(tree.rootNode, q.span);
        if (!call) return null;
        return resultUseBlock(call, at) ?? rewrite({ call, at, sort, text });
      })
    : null;
  if (!made) return { blocked: `the Query at ${at} ${unread}` };
  return typeof made === 'string' ? { file: q.file, span: q.span, newText: made } : made;
}

/** The call expression spanning `s` exactly (a multi-line span's smallest cover can be the block around it). */
function callAt(root: Node, s: Access['span']): Node | null {
  let n: Node | null = root.namedDescendantForPosition({ row: s.startLine, column: s.startColumn });
  while (
    n &&
    !(n.type === 'call_expression' && n.endPosition.row === s.endLine && n.endPosition.column === s.endColumn)
  )
    n = n.parent;
  return n;
}

function chainAt(n: Node | null): Chain | null {
  const steps: Chain['steps'] = [];
  let c: Node | null = n;
  while (c?.type === 'call_expression') {
    const f = c.childForFieldName('function');
    if (f?.type !== 'member_expression') return null;
    const args = (c.childForFieldName('arguments')?.namedChildren ?? []).filter(
      (a): a is Node => !!a && a.type !== 'comment',
    );
    steps.unshift({ name: f.childForFieldName('property')!.text, args });
    c = f.childForFieldName('object');
  }
  if (!c || steps.at(-1)?.name !== 'send' || !steps.some((s) => s.name === 'query')) return null;
  return { root: c, steps };
}

function rewrite(
  chain: Chain,
  q: Access,
  stored: string,
  separator: string,
  count: string,
  sort: string,
  text: string,
): string | null {
  const query = chain.steps.find((s) => s.name === 'query')!.args[0];
  const options = chain.steps.find((s) => s.name === 'options')?.args[0];
  if (query?.type !== 'object' || (options && options.type !== 'object')) return null;
  const partition = `partition: \`${stored}${separator}\${shard}\``;
  const queryText = withPair(query, 'partition', partition);
  if (queryText === null) return null;
  const limit = options ? valueOf(options, 'limit') : null;
  const reverse = options ? valueOf(options, 'reverse') : null;
  // A limit read wants each shard's first page only (the library's default of one page).
  const optionsText = limit
    ? options!.text
    : options
      ? (withPair(options, 'maxPages', 'maxPages: Infinity', true) ?? options.text)
      : '{ maxPages: Infinity }';
  const indent = /^\s*/.exec(lineOf(text, q.span.startLine))![0];
  // Steps of the file's own indentation (two spaces, four, a tab).
  const step = indentUnitOf(text, false);
  const i = (n: number) => `\n${indent}${step.repeat(n)}`;
  const steps = chain.steps
    .filter((s) => s.name !== 'send' && s.name !== 'options')
    .map((s) => `.${s.name}(${s.name === 'query' ? queryText : s.args.map((a) => a.text).join(', ')})`);
  steps.push(`.options(${optionsText})`, '.send()');
  const order = [
    ...(reverse && reverse !== 'false' ? [reverse === 'true' ? 'descending: true' : `descending: ${reverse}`] : []),
    ...(limit ? [limit === 'limit' ? 'limit' : `limit: ${limit}`] : []),
  ];
  return [
    `${MERGE_HELPER}(`,
    `${i(1)}Array.from({ length: ${count} }, (_, shard) =>`,
    `${i(2)}${chain.root.text}${steps[0]}`,
    ...steps.slice(1).map((s) => `${i(3)}${s}`),
    `,${i(1)}),`,
    `${i(1)}(item) => item.${sort},`,
    ...(order.length ? [`${i(1)}{ ${order.join(', ')} },`] : []),
    `\n${indent})`,
  ].join('');
}

/** The object's text with the pair `name` (or its shorthand) replaced by `pair`; added at the end when `add`. */
function withPair(o: Node, name: string, pair: string, add = false): string | null {
  const p = propertyOf(o, name);
  if (p) {
    const from = p.startIndex - o.startIndex;
    return o.text.slice(0, from) + pair + o.text.slice(p.endIndex - o.startIndex);
  }
  if (!add) return null;
  const inner = o.text.slice(1, -1).trim().replace(/,$/, '');
  return inner ? `{ ${inner}, ${pair} }` : `{ ${pair} }`;
}

export function propertyOf(o: Node, name: string): Node | null {
  for (const c of o.namedChildren) {
    if (!c) continue;
    if (c.type === 'shorthand_property_identifier' && c.text === name) return c;
    if (c.type === 'pair' && c.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '') === name) return c;
  }
  return null;
}

/** The expression a property is given (`limit` for a shorthand), or null. */
export function valueOf(o: Node, name: string): string | null {
  const p = propertyOf(o, name);
  if (!p) return null;
  return p.type === 'pair' ? (p.childForFieldName('value')?.text ?? null) : p.text;
}

/** Whether the file already has the merge helper (a second fix in it reuses the first one's). */
export const definesMergeHelper = (text: string) => new RegExp(`\\bfunction\\s+${MERGE_HELPER}\\b`).test(text);

/** The helper the rewritten queries call, typed in TypeScript. */
export function mergeHelperSource(language: SourceLanguage): string {
  const ts = language === 'typescript' || language === 'tsx';
  const t = (s: string) => (ts ? s : '');
  return [
    "/** The items of every shard's query, merged in sort-key order (reversed when `descending`), at most `limit` of them. */",
    `async function ${MERGE_HELPER}${t('<Item>')}(`,
    `  queries${t(': Promise<{ Items?: Item[] }>[]')},`,
    `  sortKey${t(': (item: Item) => string | number')},`,
    `  order${t(': { descending?: boolean; limit?: number }')} = {},`,
    `)${t(': Promise<{ Items: Item[]; Count: number }>')} {`,
    '  const items = (await Promise.all(queries)).flatMap((page) => page.Items ?? []);',
    '  const sign = order.descending ? -1 : 1;',
    '  items.sort((a, b) => (sortKey(a) < sortKey(b) ? -sign : sortKey(a) > sortKey(b) ? sign : 0));',
    '  const Items = order.limit === undefined ? items : items.slice(0, order.limit);',
    '  return { Items, Count: Items.length };',
    '}',
  ].join('\n');
}
