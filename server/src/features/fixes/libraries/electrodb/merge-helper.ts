import type { SourceLanguage } from '../../../../engine';

/**
 * The merge of a read of every shard: each shard's ElectroDB result holds its items in
 * the order of the stored sort key; the one query the read replaces returned the key's
 * items in that order, so the shards' items are ordered by the same stored key (which
 * `createConversions` renders as ElectroDB writes it: labels, casing, numbers as text).
 * Strings compare as JavaScript compares them, which is DynamoDB's UTF-8 byte order
 * except between characters above U+FFFF and U+E000–U+FFFF. The result has ElectroDB's
 * shape, with no cursor: every page was read.
 */
export const MERGE_NAME = 'mergeShardPages';

export function mergeHelperSource(language: SourceLanguage): string {
  const typed = language === 'typescript' || language === 'tsx';
  const signature = typed
    ? [
        `function ${MERGE_NAME}<T>(`,
        '  shards: Array<{ data: T[] }>,',
        '  sortKey: (item: T) => string | number,',
        "  order: 'asc' | 'desc' = 'asc',",
        '): { data: T[]; cursor: null } {',
      ]
    : [
        '/**',
        " * Every shard's items in the order one query of the key returned them: by the stored sort key.",
        ' *',
        ' * @template T',
        ' * @param {Array<{ data: T[] }>} shards',
        ' * @param {(item: T) => string | number} sortKey',
        " * @param {'asc' | 'desc'} [order]",
        ' * @returns {{ data: T[]; cursor: null }}',
        ' */',
        `function ${MERGE_NAME}(shards, sortKey, order = 'asc') {`,
      ];
  return [
    ...(typed
      ? ["/** Every shard's items in the order one query of the key returned them: by the stored sort key. */"]
      : []),
    ...signature,
    '  const keyed = shards.flatMap((page) => page.data.map((item) => ({ key: sortKey(item), item })));',
    "  const sign = order === 'desc' ? -1 : 1;",
    '  keyed.sort((a, b) => (a.key < b.key ? -sign : a.key > b.key ? sign : 0));',
    '  return { data: keyed.map((k) => k.item), cursor: null };',
    '}',
  ].join('\n');
}

export function definesMergeHelper(text: string): boolean {
  return new RegExp(`\\bfunction\\s+${MERGE_NAME}\\s*[<(]`).test(text);
}
