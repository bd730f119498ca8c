import { languageForFile } from '../../../../engine';
import type { TextChange } from '../../fix-model';
import { hashShardExpression } from '../../hash-helper';
import type { Blocked } from '../../key-sites';
import type { KeyAttribute } from './attribute';
import type { OptionsKeyAttribute } from './options-attribute';

/**
 * The schema edit of a shard fix. Random: the attribute's default becomes a function
 * drawn per item, `default(() => \`FEED#storefront#${Math.floor(Math.random() * N)}\`)`.
 * Calculated: the attribute is linked to the key attribute it hashes,
 * `link<typeof prevSchema>(({ postedAt }) => \`FEED#storefront#${shardlensHash(String(postedAt)) % N}\`)`;
 * a link's input is typed by the schema it reads, so, as the library documents for linked
 * attributes, the attribute moves into an `.and((prevSchema) => ({ ... }))` after the
 * `item({...})` that declares the others. A v0 attribute's `default` pair is replaced (see
 * `optionsDefault`). `step`: the file's indentation step.
 */
export function schemaChanges(
  method: 'random' | 'hash',
  a: KeyAttribute | OptionsKeyAttribute,
  separator: string,
  count: string,
  hashed: string,
  step = '  ',
): TextChange[] | Blocked {
  if (a.version === 0) return [optionsDefault(method, a, separator, count, hashed)];
  const head = `${a.value}${separator}`;
  if (method === 'random')
    return [
      {
        file: a.file,
        span: a.defaultSpan,
        newText: `default(() => \`${head}\${Math.floor(Math.random() * ${count})}\`)`,
      },
    ];
  if (!a.lines) return { blocked: `the attribute ${a.name} shares its line with another` };
  const language = languageForFile(a.file) ?? 'typescript';
  const typed = language === 'typescript' || language === 'tsx';
  const link = `link${typed ? '<typeof prevSchema>' : ''}(({ ${hashed} }) => \`${head}\${${hashShardExpression(language, hashed, count)}}\`)`;
  // One step out of the attribute's line, in the file's step.
  const outer = a.indent.slice(step.length);
  return [
    { file: a.file, span: a.lines, newText: '' },
    {
      file: a.file,
      span: a.itemEnd,
      newText: `.and((prevSchema) => ({\n${a.indent}${a.name}: ${a.before}${link}${a.after},\n${outer}}))`,
    },
  ];
}

/**
 * A v0 attribute's new `default`. v0 calls a function default with the item's attributes
 * (the call's own and the other defaults) at every put, get, update and delete, before it
 * builds the key: `default: (data) => \`LEADERBOARD#weekly#${shardlensHash(String(data.playerId)) % N}\``
 * gives each call of one player the same shard. A random one is drawn per call, so only
 * where no call finds an item by its key.
 */
function optionsDefault(
  method: 'random' | 'hash',
  a: OptionsKeyAttribute,
  separator: string,
  count: string,
  hashed: string,
): TextChange {
  const head = `${a.value}${separator}`;
  if (method === 'random')
    return {
      file: a.file,
      span: a.defaultSpan,
      newText: `default: () => \`${head}\${Math.floor(Math.random() * ${count})}\``,
    };
  const language = languageForFile(a.file) ?? 'typescript';
  const typed = language === 'typescript' || language === 'tsx';
  const shard = hashShardExpression(language, `data.${hashed}`, count);
  return {
    file: a.file,
    span: a.defaultSpan,
    newText: `default: (data${typed ? `: { ${hashed}: unknown }` : ''}) => \`${head}\${${shard}}\``,
  };
}
