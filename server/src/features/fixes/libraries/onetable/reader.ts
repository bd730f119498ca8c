import type { TextChange } from '../../fix-model';
import type { Find, ModelPlan } from './plan';
import { stringText } from './schema-syntax';

/**
 * The reader a find of the key becomes: the model's own `find` once per shard, every page
 * of each (OneTable's `next` cursor), the shards read in parallel and their items merged in
 * the order one find returns them: by the sort key, as the schema's template writes it,
 * descending for `reverse`, the first `limit` of them when the find asks for a limit. The
 * call keeps its arguments; only its callee changes (`Score.find(...)` → `findScoreShards(...)`).
 */
export const readerName = (model: string) => `find${model}Shards`;

export function callChange(f: Find, model: string): TextChange {
  return { file: f.access.file, span: f.callee, newText: readerName(model) };
}

/**
 * The JavaScript that renders an item's sort key as the table stores it (`` `player#${item.playerId}` ``),
 * or null when the model has no sort key; `undefined` when it cannot be rendered from the item.
 */
export function sortKeyOf(p: ModelPlan, sortField: string | null, typeField: string): string | null | undefined {
  if (!sortField) return null;
  const field = p.fields.pairs.find(
    (x) => x.name === sortField || stringText(x.props.get('map') ?? { text: '', type: '' }) === sortField,
  );
  if (!field) return undefined;
  const template = field.props.get('value');
  if (!template) return field.props.get('hidden')?.text === 'true' ? undefined : `item.${field.name}`;
  const text = stringText(template);
  if (text === null) return undefined;
  let ok = true;
  const body = text.replace(/`/g, '\\`').replace(/\$\{(.*?)\}/g, (_, v: string) => {
    const [name, len, pad] = v.split(':');
    if (name === typeField) return p.model;
    const ref = p.fields.pairs.find((x) => x.name === name);
    const type = ref?.props.get('type')?.text ?? '';
    // A hidden or templated field is not in the items a find returns; a Date is stored in a form of its own.
    if (!ref || ref.props.has('value') || ref.props.get('hidden')?.text === 'true' || /date/i.test(type)) ok = false;
    const read = `item.${name}`;
    return len ? `\${String(${read}).padStart(${Number(len)}, ${JSON.stringify(pad || '0')})}` : `\${${read}}`;
  });
  return ok ? `\`${body}\`` : undefined;
}

export function readerSource(
  model: string,
  receiver: string,
  count: string,
  sortKey: string | null,
  typed: boolean,
): string {
  const name = readerName(model);
  const find = `typeof ${receiver}.find`;
  const sig = typed
    ? `properties: Parameters<${find}>[0], params: Parameters<${find}>[1] = {}`
    : 'properties, params = {}';
  const nextDecl = typed ? 'let next: object | undefined;' : 'let next;';
  const lines = [
    '/**',
    ` * ${receiver}.find on every write shard of the key (${count}), every page of each, merged in`,
    ` * the order one find returns them${sortKey ? ' (by the sort key; descending for `reverse`; the first `limit`)' : ''}.`,
    ' */',
    `async function ${name}(${sig}) {`,
    ...(typed ? [`  type Item = Awaited<ReturnType<${find}>>[number];`] : []),
    typed ? '  const shards: Promise<Item[]>[] = [];' : '  const shards = [];',
    `  for (let shard = 0; shard < ${count}; shard++) {`,
    '    shards.push(',
    '      (async () => {',
    typed ? '        const items: Item[] = [];' : '        const items = [];',
    `        ${nextDecl}`,
    '        do {',
    `          const page = await ${receiver}.find({ ...properties, shard: String(shard) }, { ...params, next });`,
    '          items.push(...page);',
    '          next = page.next;',
    '        } while (next && !(params.limit !== undefined && items.length >= params.limit));',
    '        return items;',
    '      })(),',
    '    );',
    '  }',
    '  const merged = (await Promise.all(shards)).flat();',
  ];
  if (sortKey) {
    const item = typed ? '(item: Item)' : '(item)';
    lines.push(
      `  const sortKey = ${item} => ${sortKey};`,
      '  const order = params.reverse ? -1 : 1;',
      '  merged.sort((a, b) => (sortKey(a) < sortKey(b) ? -order : sortKey(a) > sortKey(b) ? order : 0));',
    );
  }
  lines.push('  return params.limit === undefined ? merged : merged.slice(0, params.limit);', '}');
  return lines.join('\n');
}
