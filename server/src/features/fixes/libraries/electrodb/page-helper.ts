import { SHARD_PAGE_READER, type SourceLanguage } from '../../../../engine';

/**
 * A page of a sharded key, for a query that read one page at a time (`.go({ limit, cursor })`):
 * each shard is queried from its own cursor for up to `limit` items, the items merged in the
 * order the one query returned them (the stored sort key, as `mergeShardPages` orders a read
 * of every page), and the first `limit` taken. The cursor handed back holds each shard's
 * ElectroDB cursor after the last of its items the page took (computed from that item by
 * `createConversions`), `null` for a shard not started and `false` for one read to its end,
 * as base64url JSON; `null` once every shard is read, as ElectroDB's own. A query with a
 * cursor and no limit (one DynamoDB page a call) passes `Infinity`: each shard's page, as far
 * as every shard's order is known.
 *
 * Pages come in order: a shard that has more items than it returned sets a bound (its last
 * item's key), and no item past the nearest bound is taken, since that shard's next items
 * may come before it; a shard that returned nothing but has more (ElectroDB's filter on the
 * entity dropped a page) makes the page empty and moves only that shard's cursor on. A
 * cursor from before the fix (one shard's ElectroDB cursor) is refused with an error.
 */
export const PAGE_READER_NAME = SHARD_PAGE_READER;

const BODY = [
  '  const at = cursor',
  "    ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))",
  '    : Array.from({ length: shards }, () => null);',
  '  if (!Array.isArray(at) || at.length !== shards)',
  '    throw new Error(`Not a cursor of ${shards} shards: ${cursor}`);',
  '  const pages = await Promise.all(',
  '    at.map((c, shard) => (c === false ? { data: [], cursor: null } : page(shard, c, limit))),',
  '  );',
  "  const sign = order === 'desc' ? -1 : 1;",
  '  const compare = (a, b) => (a < b ? -sign : a > b ? sign : 0);',
  '  // The nearest key some shard has more items after: what comes past it is not known yet.',
  '  let bound = null;',
  '  let blocked = false;',
  '  for (let shard = 0; shard < shards; shard++) {',
  '    const p = pages[shard];',
  '    if (at[shard] === false || !p.cursor) continue;',
  '    if (p.data.length === 0) blocked = true;',
  '    else {',
  '      const key = sortKey(p.data[p.data.length - 1]);',
  '      if (bound === null || compare(key, bound.key) < 0) bound = { key };',
  '    }',
  '  }',
  '  const keyed = pages.flatMap((p, shard) => p.data.map((item, i) => ({ key: sortKey(item), item, shard, i })));',
  '  keyed.sort((a, b) => compare(a.key, b.key) || a.shard - b.shard || a.i - b.i);',
  '  const taken = blocked',
  '    ? []',
  '    : keyed.filter((k) => bound === null || compare(k.key, bound.key) <= 0).slice(0, limit);',
  '  const next = at.map((c, shard) => {',
  '    if (c === false) return false;',
  '    const mine = taken.filter((k) => k.shard === shard);',
  '    if (mine.length === pages[shard].data.length) return pages[shard].cursor ?? false;',
  '    return mine.length ? cursorAfter(mine[mine.length - 1].item) : c;',
  '  });',
  '  const done = next.every((c) => c === false);',
  '  return {',
  '    data: taken.map((k) => k.item),',
  "    cursor: done ? null : Buffer.from(JSON.stringify(next)).toString('base64url'),",
  '  };',
  '}',
];

/** The TypeScript body's types: what each untyped line of BODY becomes. */
const TYPED: Record<string, string> = {
  '  const at = cursor': '  const at: Array<string | null | false> = cursor',
  '    at.map((c, shard) => (c === false ? { data: [], cursor: null } : page(shard, c, limit))),':
    '    at.map((c, shard) => (c === false ? { data: [] as T[], cursor: null } : page(shard, c, limit))),',
  '  const compare = (a, b) => (a < b ? -sign : a > b ? sign : 0);':
    '  const compare = (a: string | number, b: string | number) => (a < b ? -sign : a > b ? sign : 0);',
  '  let bound = null;': '  let bound: { key: string | number } | null = null;',
};

/** The JavaScript body's JSDoc types, on the line before each untyped line of BODY (checkJs). */
const JSDOC: Record<string, string> = {
  '  const at = cursor': '  /** @type {Array<string | null | false>} */',
  '  const compare = (a, b) => (a < b ? -sign : a > b ? sign : 0);':
    '  /** @type {(a: string | number, b: string | number) => number} */',
  '  let bound = null;': '  /** @type {{ key: string | number } | null} */',
};

const DOC =
  "One page of every shard's items in the order one query of the key returned them, and the cursor of the next page.";

export function pageHelperSource(language: SourceLanguage): string {
  const typed = language === 'typescript' || language === 'tsx';
  const head = typed
    ? [
        `/** ${DOC} */`,
        `async function ${PAGE_READER_NAME}<T>(`,
        '  shards: number,',
        '  page: (shard: number, cursor: string | null, limit: number) => Promise<{ data: T[]; cursor: string | null }>,',
        '  sortKey: (item: T) => string | number,',
        '  cursorAfter: (item: T) => string,',
        '  limit: number,',
        '  cursor: string | null | undefined,',
        "  order: 'asc' | 'desc' = 'asc',",
        '): Promise<{ data: T[]; cursor: string | null }> {',
      ]
    : [
        '/**',
        ` * ${DOC}`,
        ' *',
        ' * @template T',
        ' * @param {number} shards',
        ' * @param {(shard: number, cursor: string | null, limit: number) => Promise<{ data: T[]; cursor: string | null }>} page',
        ' * @param {(item: T) => string | number} sortKey',
        ' * @param {(item: T) => string} cursorAfter',
        ' * @param {number} limit',
        ' * @param {string | null | undefined} cursor',
        " * @param {'asc' | 'desc'} [order]",
        ' * @returns {Promise<{ data: T[]; cursor: string | null }>}',
        ' */',
        `async function ${PAGE_READER_NAME}(shards, page, sortKey, cursorAfter, limit, cursor, order = 'asc') {`,
      ];
  const body = BODY.flatMap((line) => (typed ? [TYPED[line] ?? line] : JSDOC[line] ? [JSDOC[line], line] : [line]));
  return [...head, ...body].join('\n');
}

export function definesPageHelper(text: string): boolean {
  return new RegExp(`\\bfunction\\s+${PAGE_READER_NAME}\\s*[<(]`).test(text);
}
