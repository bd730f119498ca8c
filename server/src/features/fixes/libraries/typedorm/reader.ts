import type { TextChange } from '../../fix-model';
import type { Find } from './plan';

/**
 * The reader a find of the key becomes: the entity manager's own `find` once per shard,
 * every page of each (TypeDORM's `cursor`), the shards read in parallel and their items
 * merged in the order one find returns them: by the sort key, rendered from the `@Entity`
 * template as TypeDORM stores it, descending for `orderBy: QUERY_ORDER.DESC`, the first
 * `limit` of them. It returns `{ items }` as a find does; the call keeps its attributes and
 * options, and names the manager it read from (`entityManager.find(Score, ...)` →
 * `findScoreShards(entityManager, ...)`).
 */
export const readerName = (entity: string) => `find${entity}Shards`;

export function callChange(f: Find, entity: string): TextChange {
  return { file: f.access.file, span: f.head, newText: `${readerName(entity)}(${f.receiver}, ` };
}

/** `` `PLAYER#${item.playerId}` ``: an item's sort key as TypeDORM renders its template (`toString()` of each value). */
export function sortKeyOf(template: string | null): string | null {
  if (template === null) return null;
  const body = template.replace(/[`\\]/g, '\\$&').replace(/\$\{/g, '\\${');
  return `\`${body.replace(/\{\{(.+?)\}\}/g, (_, name: string) => `\${item.${name.trim()}}`)}\``;
}

/** The type-only import a typed reader needs. */
export const READER_IMPORT = "import type { EntityManager, EntityManagerFindOptions } from '@typedorm/core';";

export function readerSource(entity: string, count: string, sortKey: string | null, typed: boolean): string {
  const t = (s: string) => (typed ? s : '');
  const lines = [
    '/**',
    ` * find of ${entity} on every write shard of the key (${count}), every page of each, merged in the`,
    ` * order one find returns them${sortKey ? ' (by the sort key; descending for QUERY_ORDER.DESC; the first `limit`)' : ''}.`,
    ' */',
    `async function ${readerName(entity)}(`,
    `  manager${t(': EntityManager')},`,
    `  attributes${t(`: Partial<${entity}>`)},`,
    `  options${t(`: EntityManagerFindOptions<${entity}, Partial<${entity}>>`)} = {},`,
    `)${t(`: Promise<{ items: ${entity}[] }>`)} {`,
    `  const shards${t(`: Promise<${entity}[]>[]`)} = [];`,
    `  for (let shard = 0; shard < ${count}; shard++) {`,
    '    shards.push(',
    '      (async () => {',
    `        const items${t(`: ${entity}[]`)} = [];`,
    `        let cursor${t(`: EntityManagerFindOptions<${entity}, Partial<${entity}>>['cursor']`)};`,
    '        do {',
    `          const page = await manager.find(${entity}, { ...attributes, shard: String(shard) }, { ...options, cursor });`,
    '          items.push(...page.items);',
    '          cursor = page.cursor;',
    '        } while (cursor && !(options.limit !== undefined && items.length >= options.limit));',
    '        return items;',
    '      })(),',
    '    );',
    '  }',
    '  const merged = (await Promise.all(shards)).flat();',
  ];
  if (sortKey)
    lines.push(
      `  const sortKey = (item${t(`: ${entity}`)}) => ${sortKey};`,
      "  const order = String(options.orderBy) === 'DESC' ? -1 : 1;",
      '  merged.sort((a, b) => (sortKey(a) < sortKey(b) ? -order : sortKey(a) > sortKey(b) ? order : 0));',
    );
  lines.push('  return { items: options.limit === undefined ? merged : merged.slice(0, options.limit) };', '}');
  return lines.join('\n');
}
