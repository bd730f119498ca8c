import type { Node } from 'web-tree-sitter';
import type { Access, SourceLanguage } from '../../../../engine';
import type { FixContext, TextChange } from '../../fix-model';
import { indentUnitOf } from '../../reader-conventions';
import type { Blocked } from '../../key-sites';
import { propertyOf, queryChange, valueOf } from './reader';
import { lineOf } from '../../apply';

/**
 * A dynamodb-toolbox v0 query of a key that is now sharded, `Announcement.query('ANNOUNCEMENTS',
 * { reverse: true, limit })`, rewritten where it stands into the entity's own query run
 * once per shard, every page, merged:
 *
 *   await mergeShardPages(
 *     Array.from({ length: ANNOUNCEMENT_PK_SHARDS }, (_, shard) =>
 *       Announcement.query(`ANNOUNCEMENTS#${shard}`, { reverse: true, limit }),
 *     ),
 *     (item) => item.postedAt,
 *     { descending: true, limit },
 *   )
 *
 * v0 returns one page and a `next()` that queries the page after it (it writes the page's
 * `LastEvaluatedKey` into the options object as `startKey`, so each shard gets an options
 * object of its own). The helper follows `next()` to the last page, except under a
 * `limit`, where each shard's first page holds its top `limit` items and the merge keeps
 * the top `limit` of them all, as the one query's page did.
 */
export const PAGES_HELPER = 'mergeShardPages';

/** Options that make the query something else than one read of items: a page after a key, no request, the raw response, a count. */
const UNSHARDABLE = ['startKey', 'execute', 'parse', 'select'];

export function shardedV0Query(
  ctx: FixContext,
  q: Access,
  stored: string,
  separator: string,
  count: string,
): TextChange | Blocked {
  return queryChange(ctx, q, 'is not found', ({ call, at, sort, text }) =>
    rewrite(call, at, q, stored + separator, count, sort, text),
  );
}

function rewrite(
  call: Node,
  at: string,
  q: Access,
  head: string,
  count: string,
  sort: string,
  text: string,
): string | Blocked {
  const fn = call.childForFieldName('function')!;
  const args = (call.childForFieldName('arguments')?.namedChildren ?? []).filter(
    (a): a is Node => !!a && a.type !== 'comment',
  );
  const options = args[1];
  if (options && options.type !== 'object')
    return { blocked: `the Query at ${at} takes its options from a variable, whose limit and order are not known` };
  const odd = options ? UNSHARDABLE.find((o) => propertyOf(options, o)) : undefined;
  if (odd) return { blocked: `the Query at ${at} reads with ${odd}, which a query of every shard cannot keep` };
  const limit = options ? valueOf(options, 'limit') : null;
  const reverse = options ? valueOf(options, 'reverse') : null;
  const indent = /^\s*/.exec(lineOf(text, q.span.startLine))![0];
  // Steps of the file's own indentation (two spaces, four, a tab).
  const step = indentUnitOf(text, false);
  const i = (n: number) => `\n${indent}${step.repeat(n)}`;
  const rest = args.slice(1).map((a) => a.text);
  const order = [
    ...(reverse && reverse !== 'false' ? [reverse === 'true' ? 'descending: true' : `descending: ${reverse}`] : []),
    ...(limit ? [limit === 'limit' ? 'limit' : `limit: ${limit}`] : []),
  ];
  return [
    `${PAGES_HELPER}(`,
    `${i(1)}Array.from({ length: ${count} }, (_, shard) =>`,
    `${i(2)}${fn.text}(${[`\`${head}\${shard}\``, ...rest].join(', ')}),`,
    `${i(1)}),`,
    `${i(1)}(item) => item.${sort},`,
    ...(order.length ? [`${i(1)}{ ${order.join(', ')} },`] : []),
    `\n${indent})`,
  ].join('');
}

/** Whether the file already has the pages helper (a second fix in it reuses the first one's). */
export const definesPagesHelper = (text: string) => new RegExp(`\\bfunction\\s+${PAGES_HELPER}\\b`).test(text);

/** The helper the rewritten v0 queries call, typed in TypeScript. */
export function pagesHelperSource(language: SourceLanguage): string {
  const ts = language === 'typescript' || language === 'tsx';
  const t = (s: string) => (ts ? s : '');
  return [
    '/**',
    " * The items of every shard's query, each followed through `next()` to its last page (only",
    ' * its first page under a `limit`), merged in sort-key order (reversed when `descending`),',
    ' * at most `limit` of them.',
    ' */',
    `async function ${PAGES_HELPER}${t('<Item>')}(`,
    `  queries${t(': Promise<ShardPage<Item>>[]')},`,
    `  sortKey${t(': (item: Item) => string | number')},`,
    `  order${t(': { descending?: boolean; limit?: number }')} = {},`,
    `)${t(': Promise<{ Items: Item[]; Count: number }>')} {`,
    '  const shards = await Promise.all(',
    '    queries.map(async (query) => {',
    `      const items${t(': Item[]')} = [];`,
    `      let page${t(': ShardPage<Item> | undefined')} = await query;`,
    '      while (page) {',
    '        items.push(...(page.Items ?? []));',
    '        page = order.limit === undefined && page.next ? await page.next() : undefined;',
    '      }',
    '      return items;',
    '    }),',
    '  );',
    '  const items = shards.flat();',
    '  const sign = order.descending ? -1 : 1;',
    '  items.sort((a, b) => (sortKey(a) < sortKey(b) ? -sign : sortKey(a) > sortKey(b) ? sign : 0));',
    '  const Items = order.limit === undefined ? items : items.slice(0, order.limit);',
    '  return { Items, Count: Items.length };',
    '}',
    ...(ts
      ? [
          '',
          '/** One page of a query, and the query of the page after it. */',
          'interface ShardPage<Item> {',
          '  Items?: Item[];',
          '  next?: () => Promise<ShardPage<Item>>;',
          '}',
        ]
      : []),
  ].join('\n');
}
