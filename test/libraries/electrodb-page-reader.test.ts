/**
 * The paged reader the ElectroDB shard fix writes (`readShardPage`, features/fixes/libraries/
 * electrodb/page-helper.ts), as generated, run on shards whose pages come back short: a shard
 * may return fewer items than the limit and still have more (ElectroDB drops other entities'
 * items from a page; DynamoDB stops a page at 1 MB). No page may then take an item that one of
 * that shard's next items comes before. The run against dynalite (electrodb-fixes.test.ts)
 * only ever sees full pages.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pageHelperSource } from '../../server/src/features/fixes/libraries/electrodb/page-helper';
import { ROOT } from './helpers';

type Item = { key: number };
type Reader = (
  shards: number,
  page: (shard: number, cursor: string | null, limit: number) => Promise<{ data: Item[]; cursor: string | null }>,
  sortKey: (item: Item) => number,
  cursorAfter: (item: Item) => string,
  limit: number,
  cursor: string | null | undefined,
  order?: 'asc' | 'desc',
) => Promise<{ data: Item[]; cursor: string | null }>;

/** The generated helper, in TypeScript and in JavaScript, loaded as modules. */
async function readers(): Promise<Record<string, Reader>> {
  const dir = fs.mkdtempSync(path.join(ROOT, 'test-output', 'page-reader-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const out: Record<string, Reader> = {};
  for (const [language, ext] of [
    ['typescript', 'ts'],
    ['javascript', 'mjs'],
  ] as const) {
    const file = path.join(dir, `page-reader.${ext}`);
    fs.writeFileSync(file, `${pageHelperSource(language)}\nexport { readShardPage };\n`);
    out[language] = (await import(pathToFileURL(file).href)).readShardPage;
  }
  return out;
}

/**
 * Shards holding `keys`, shard i answering at most `short[i]` items a call (fewer than asked:
 * a short page) with a cursor while it has more; a shard in `stalls` answers its first call
 * with no item at all and a cursor.
 */
function shardsOf(keys: number[][], short: number[], stalls: number[] = []) {
  const calls = keys.map(() => 0);
  return (shard: number, cursor: string | null, limit: number) => {
    calls[shard]++;
    const after = cursor === null ? -Infinity : Number(cursor);
    const rest = keys[shard].filter((k) => k > after);
    if (stalls.includes(shard) && calls[shard] === 1) return Promise.resolve({ data: [], cursor: String(after) });
    const data = rest.slice(0, Math.min(limit, short[shard])).map((key) => ({ key }));
    const more = rest.length > data.length;
    return Promise.resolve({ data, cursor: more ? String(data[data.length - 1].key) : null });
  };
}

async function allPages(read: Reader, page: ReturnType<typeof shardsOf>, shards: number, limit: number) {
  const pages: number[][] = [];
  let cursor: string | null = null;
  do {
    const r = await read(
      shards,
      page,
      (i) => i.key,
      (i) => String(i.key),
      limit,
      cursor,
    );
    pages.push(r.data.map((i) => i.key));
    cursor = r.cursor;
  } while (cursor && pages.length < 100);
  return pages;
}

test('short pages: every page in order, none past a shard that has more, every item once', async () => {
  for (const [language, read] of Object.entries(await readers())) {
    // Shard 0 answers one item a call, shard 1 full pages: shard 0's next item comes before
    // most of what shard 1 answered.
    const keys = [
      [1, 3, 5, 7, 9, 11],
      [2, 4, 6, 8, 10, 12, 13, 14],
    ];
    const pages = await allPages(read, shardsOf(keys, [1, 4]), 2, 4);
    assert.deepEqual(
      pages.flat(),
      [...keys[0], ...keys[1]].sort((a, b) => a - b),
      language,
    );
    assert.ok(
      pages.every((p) => p.length <= 4),
      language,
    );
    // A shard that answers nothing but has more: that page is empty, and the next ones go on.
    const stalled = await allPages(read, shardsOf(keys, [4, 4], [1]), 2, 4);
    assert.deepEqual(stalled[0], [], language);
    assert.deepEqual(
      stalled.flat(),
      [...keys[0], ...keys[1]].sort((a, b) => a - b),
      language,
    );
  }
});

test('a cursor from before the fix (one shard’s) is refused with an error, not read as the start', async () => {
  const { typescript: read } = await readers();
  const one = Buffer.from(JSON.stringify({ pk: '$social#feed_home', sk: 'x' })).toString('base64url');
  await assert.rejects(
    read(
      2,
      shardsOf([[1], [2]], 5),
      (i) => i.key,
      (i) => String(i.key),
      4,
      one,
    ),
    /Not a cursor of 2 shards/,
  );
});
