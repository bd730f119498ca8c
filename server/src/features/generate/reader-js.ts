import { needsAlias } from './reserved-words';
import { freshAlias, type Operand, type Param, type ReaderSpec } from './reader-spec';
import { wrapWords } from './wrap-words';
import { fitLines, type Line } from './fit-lines';

/**
 * The scatter-gather reader in TypeScript or JavaScript, for the four JS SDK styles
 * and SDK v3's aggregated clients (`await client.query({...})`).
 * One shape for all: a `for` loop over the writers' shard numbers starts one async
 * reader per shard (so every shard is read in parallel, and the engine sees the loop
 * and its count constant), each follows `LastEvaluatedKey` until its shard is done
 * (or, for a top-N read, has N items), then `Promise.all` and a k-way merge by the
 * sort key that keeps the single-key Query's order. It returns
 * `{ Items, Count }`, the part of a Query response callers read, so it can replace
 * the single-key read in place. Its type also names an absent `LastEvaluatedKey`: a
 * caller that pages (`start = page.LastEvaluatedKey` until it is empty) still compiles,
 * and its loop ends after one call, which has read every page of every shard.
 */

const v2 = (s: ReaderSpec) => s.style === 'aws-sdk-v2' || s.style === 'aws-sdk-v2-document-client';

/** A string literal in the file's quote style. */
export function jsString(text: string, quote: "'" | '"'): string {
  const body = JSON.stringify(text).slice(1, -1);
  return quote === '"' ? `"${body}"` : `'${body.replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** The shard's key: a template literal with constants by name and the shard number. */
function keyTemplate(s: ReaderSpec): string {
  const esc = (t: string) => t.replace(/[`\\]/g, '\\$&').replace(/\$\{/g, '\\${');
  const before = s.partition.before.map((p) => ('name' in p ? `\${${p.name}}` : esc(p.literal))).join('');
  return `\`${before}\${shard}${esc(s.partition.after)}\``;
}

function operandText(o: Operand, s: ReaderSpec): string {
  if ('param' in o) return o.param;
  return typeof o.literal === 'number' ? String(o.literal) : jsString(o.literal, s.quote);
}

/** `KeyConditionExpression`, the aliases it needs and its values (`:pk`, `:sk`, `:sk2`). */
export function keyCondition(s: ReaderSpec): {
  expression: string;
  /** Alias, attribute name, and the code expression naming it when there is one. */
  names: Array<[string, string, string | undefined]>;
  values: Array<[string, Operand | 'pk']>;
} {
  const names: Array<[string, string, string | undefined]> = [];
  const taken = s.options?.aliases;
  const ref = (attr: string, wanted: string) => {
    const code = s.attributeCode?.[attr];
    if (!code && !needsAlias(attr)) return attr;
    const alias = freshAlias(wanted, taken);
    names.push([alias, attr, code]);
    return alias;
  };
  const pk = ref(s.partition.attribute, '#pk');
  const pkValue = freshAlias(':pk', taken);
  const values: Array<[string, Operand | 'pk']> = [[pkValue, 'pk']];
  let expression = `${pk} = ${pkValue}`;
  const sort = s.sort;
  if (sort) {
    const sk = ref(sort.attribute, '#sk');
    const ops = sort.operands.map((o, i) => {
      const name = freshAlias(i === 0 ? ':sk' : `:sk${i + 1}`, taken);
      values.push([name, o]);
      return name;
    });
    if (sort.operator === 'BETWEEN') expression += ` AND ${sk} BETWEEN ${ops[0]} AND ${ops[1]}`;
    else if (sort.operator === 'begins_with') expression += ` AND begins_with(${sk}, ${ops[0]})`;
    else expression += ` AND ${sk} ${sort.operator} ${ops[0]}`;
  }
  return { expression, names, values };
}

/** The request's properties, one per line. */
function requestLines(s: ReaderSpec): string[] {
  const q = s.quote;
  const { expression, names, values } = keyCondition(s);
  const value = (v: Operand | 'pk') => {
    const text = v === 'pk' ? keyTemplate(s) : operandText(v, s);
    if (s.style !== 'aws-sdk-v2') return text;
    // SDK v2 low-level: the shard key is a string; other values as the converter types them.
    return v === 'pk' ? `{ S: ${text} }` : `${s.converter}.input(${text})`;
  };
  const own = values.map(([k, v]) => `${jsString(k, q)}: ${value(v)}`).join(', ');
  const valueMap = s.style === 'aws-sdk-v3' ? `marshall({ ${own} })` : `{ ${own} }`;
  const o = s.options?.param;
  const out = o ? [`...${o},`] : [];
  out.push(`TableName: ${s.table},`);
  if (s.index) out.push(`IndexName: ${jsString(s.index, q)},`);
  out.push(`KeyConditionExpression: ${jsString(expression, q)},`);
  if (o) {
    // The read's names and values with the reader's own (built once, before the shards are read).
    if (mergedBy(s)) out.push('ProjectionExpression: projection,');
    out.push('ExpressionAttributeNames: Object.keys(names).length > 0 ? names : undefined,');
    const spread = `...${o}.ExpressionAttributeValues`;
    out.push(
      `ExpressionAttributeValues: ${s.style === 'aws-sdk-v3' ? `{ ${spread}, ...${valueMap} }` : `{ ${spread}, ${own} }`},`,
    );
  } else {
    if (names.length)
      out.push(
        `ExpressionAttributeNames: { ${names.map(([a, n, code]) => `${jsString(a, q)}: ${code ?? jsString(n, q)}`).join(', ')} },`,
      );
    out.push(`ExpressionAttributeValues: ${valueMap},`);
  }
  if (!(s.top ?? s.order ?? { forward: true }).forward) out.push('ScanIndexForward: false,');
  if (s.top) out.push(`Limit: ${limitText(s)},`);
  if (s.consistent) out.push('ConsistentRead: true,');
  out.push('ExclusiveStartKey: startKey,');
  return out;
}

function limitText(s: ReaderSpec): string {
  const l = s.top!.limit;
  return typeof l === 'number' ? String(l) : l.param;
}

/** The call that reads one page, in the style's form. */
function pageCall(s: ReaderSpec, d: number): Line[] {
  const props = requestLines(s).map((t): Line => [d + 2, t]);
  if (s.call === 'method')
    return [[d, `const page = await ${s.client}.query({`], ...props.map(([x, t]): Line => [x - 1, t]), [d, '});']];
  if (v2(s))
    return [
      [d, `const page = await ${s.client}.query({`],
      ...props.map(([x, t]): Line => [x - 1, t]),
      [d, '}).promise();'],
    ];
  return [
    [d, `const page = await ${s.client}.send(`],
    [d + 1, `new ${s.namespace ? `${s.namespace}.` : ''}QueryCommand({`],
    ...props,
    [d + 1, '}),'],
    [d, ');'],
  ];
}

/** How a merged item's sort key is read: low-level items hold typed values. */
function sortKeyOf(s: ReaderSpec, attr: string): string {
  const a = s.attributeCode?.[attr] ?? jsString(attr, s.quote);
  // SDK v3: the attribute alone (unmarshalling the whole item throws on a decimal past 2^53
  // anywhere in it, which the caller may never convert); a Number compares as a number,
  // exactly (a BigInt) past 2^53.
  if (s.style === 'aws-sdk-v3') return `unmarshall({ key: item[${a}] }).key`;
  if (s.style === 'aws-sdk-v2') return `${s.converter}.output(item[${a}])`;
  return `item[${a}]`;
}

/**
 * `async function name(params): Promise<...> {` on one line when it fits the project's width,
 * else as prettier breaks it: a parameter a line, then the result type's fields a line.
 */
function signature(s: ReaderSpec, params: string[], Item: string): Line[] {
  const fields = ['Items: ' + Item + '[]', 'Count: number', 'LastEvaluatedKey?: ' + Item];
  const one = `async function ${s.name}(${params.join(', ')})${s.typed ? `: Promise<{ ${fields.join('; ')} }>` : ''} {`;
  if (one.length <= (s.width ?? 80) || (!params.length && !s.typed)) return [[0, one]];
  // Without parameters, prettier breaks the result type alone: `async function name(): Promise<{`.
  const head: Line[] = params.length
    ? [[0, `async function ${s.name}(`], ...params.map((p): Line => [1, `${p},`]), [0, ')']]
    : [[0, `async function ${s.name}()`]];
  if (!s.typed) return [...head.slice(0, -1), [0, ') {']];
  const [depth, last] = head.pop()!;
  return [...head, [depth, `${last}: Promise<{`], ...fields.map((f): Line => [1, `${f};`]), [0, '}> {']];
}

export function jsReader(s: ReaderSpec): string {
  const T = (t: string) => (s.typed ? t : '');
  const Item = 'Record<string, any>';
  const params = [
    ...(s.clientParam ? [`${s.clientParam.name}${s.clientParam.type ? T(`: ${s.clientParam.type}`) : ''}`] : []),
    ...s.params.map((p) => `${p.name}${T(`: ${PARAM_TYPES[p.kind]}`)}`),
  ];
  const counted = !!s.options && !s.top;
  const loop =
    s.shards.kind === 'range'
      ? `for (let shard = ${s.shards.start}; shard ${s.shards.start === 1 ? '<=' : '<'} ${s.shards.start > 1 ? `${s.shards.start} + ` : ''}${s.shards.count}; shard++) {`
      : `for (const shard of [${s.shards.values.join(', ')}]) {`;
  const what = s.top
    ? `the ${typeof s.top.limit === 'number' ? s.top.limit : s.top.limit.param} items with the ${s.top.forward ? 'lowest' : 'highest'} ${s.top.attribute}`
    : 'every item';
  const L: Line[] = [
    [0, '/**'],
    ...wrapWords(
      `Reads ${what} of ${s.keyId} across all its shards: one reader per shard, all in parallel, each following LastEvaluatedKey, then merged. Generated by ShardLens (scatter-gather reader).`,
      s.width ?? 80,
      ' * ',
    ).map((t): Line => [0, t]),
    [0, ' */'],
    ...signature(s, params, Item),
    ...optionLines(s),
    ...(counted ? ([[1, 'let count = 0;']] as Line[]) : []),
    [1, `const shards${T(`: Promise<${Item}[]>[]`)} = [];`],
    [1, loop],
    [2, 'shards.push('],
    [3, '(async () => {'],
    [4, `const items${T(`: ${Item}[]`)} = [];`],
    [4, `let startKey${T(`: ${Item} | undefined`)};`],
    [4, 'do {'],
    ...pageCall(s, 5),
    [5, 'items.push(...(page.Items ?? []));'],
    ...(counted ? ([[5, 'count += page.Count ?? 0;']] as Line[]) : []),
    [
      5,
      s.top
        ? `startKey = items.length < ${limitText(s)} ? page.LastEvaluatedKey : undefined;`
        : 'startKey = page.LastEvaluatedKey;',
    ],
    [4, '} while (startKey);'],
    [4, s.top ? `return items.slice(0, ${limitText(s)});` : 'return items;'],
    [3, '})(),'],
    [2, ');'],
    [1, '}'],
    [1, 'const perShard = await Promise.all(shards);'],
    ...merge(s),
    ...(s.options && mergedBy(s)
      ? ([[1, `if (added) for (const item of Items) delete item[${attributeText(s, mergedBy(s)!)}];`]] as Line[])
      : []),
    [1, `return { Items, Count: ${counted ? 'count' : 'Items.length'} };`],
    [0, '}'],
  ];
  return fitLines(L, s.indentUnit, s.width ?? 80)
    .map(([d, t]) => s.indentUnit.repeat(d) + t)
    .join('\n');
}

const PARAM_TYPES: Record<Param['kind'], string> = {
  operand: 'string | number',
  table: 'string',
  limit: 'number',
  count: 'number',
  options:
    "{ FilterExpression?: string; ProjectionExpression?: string; Select?: 'ALL_ATTRIBUTES' | 'ALL_PROJECTED_ATTRIBUTES' | 'SPECIFIC_ATTRIBUTES' | 'COUNT'; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, any> }",
};

/** The attribute the shards are merged by, when there is one. */
const mergedBy = (s: ReaderSpec) => (s.top ?? s.order)?.attribute ?? null;

function attributeText(s: ReaderSpec, attr: string): string {
  return s.attributeCode?.[attr] ?? jsString(attr, s.quote);
}

/**
 * Before the shards are read: the read's aliases with the reader's own, and, when the
 * shards are merged by an attribute the read's projection leaves out, that attribute
 * asked for too (removed from the items after the merge, so callers get what they got).
 */
function optionLines(s: ReaderSpec): Line[] {
  const o = s.options?.param;
  if (!o) return [];
  const T = (t: string) => (s.typed ? t : '');
  const q = s.quote;
  const own = keyCondition(s).names.map(([a, n, code]) => `, ${jsString(a, q)}: ${code ?? jsString(n, q)}`);
  const L: Line[] = [
    [1, `const names${T(': Record<string, string>')} = { ...${o}.ExpressionAttributeNames${own.join('')} };`],
  ];
  const by = mergedBy(s);
  if (!by) return L;
  const alias = freshAlias('#merge', s.options!.aliases);
  const attr = attributeText(s, by);
  return [
    ...L,
    ...wrapWords(
      `The shards are merged by ${by}: a projection without it asks for it too, and it is removed after.`,
      (s.width ?? 80) - s.indentUnit.replace(/\t/g, '  ').length,
      '// ',
    ).map((t): Line => [1, t]),
    [1, `const asked = ${o}.ProjectionExpression;`],
    [1, `const projected = asked?.split(${jsString(',', q)}).map((p) => names[p.trim()] ?? p.trim());`],
    [1, `const added = projected !== undefined && !projected.includes(${attr});`],
    [1, `if (added) names[${jsString(alias, q)}] = ${attr};`],
    [1, `const projection = added ? \`\${asked}, ${alias}\` : asked;`],
  ];
}

/**
 * The shards' lists merged: each is in sort-key order already (a Query returns its key's
 * items so), so a k-way merge that repeatedly takes the best head keeps that order for
 * the whole key — all items, or the first N for a top-N read. Without a known sort key
 * the lists are joined.
 */
function merge(s: ReaderSpec): Line[] {
  const T = (t: string) => (s.typed ? t : '');
  const by = s.top ?? s.order;
  // Untyped, `([]).concat(...)` is a never[] to a // @ts-check file; flat() types it (Node 11+).
  if (!by)
    return [
      [
        1,
        s.typed ? 'const Items = ([] as Record<string, any>[]).concat(...perShard);' : 'const Items = perShard.flat();',
      ],
    ];
  const cmp = by.forward ? '<' : '>';
  return [
    [1, `const sortKey = (item${T(': Record<string, any>')}) => ${sortKeyOf(s, by.attribute)};`],
    [1, 'const heads = perShard.map(() => 0);'],
    // The sort key of shard s's next item.
    [1, `const head = (s${T(': number')}) => sortKey(perShard[s][heads[s]]);`],
    [1, `const Items${T(': Record<string, any>[]')} = [];`],
    [1, s.top ? `while (Items.length < ${limitText(s)}) {` : 'for (;;) {'],
    [2, 'let next = -1;'],
    [2, 'for (let s = 0; s < perShard.length; s++) {'],
    [3, 'if (heads[s] >= perShard[s].length) continue;'],
    [3, `if (next < 0 || head(s) ${cmp} head(next)) next = s;`],
    [2, '}'],
    [2, 'if (next < 0) break;'],
    [2, 'Items.push(perShard[next][heads[next]++]);'],
    [1, '}'],
  ];
}

/** The names a JS reader needs from each module, by style. */
export function jsImports(s: ReaderSpec): Array<{ module: string; name: string }> {
  // Through the file's namespace of the package the command needs no import.
  const send = s.call === 'send' && !s.namespace;
  if (s.style === 'lib-dynamodb') return send ? [{ module: '@aws-sdk/lib-dynamodb', name: 'QueryCommand' }] : [];
  if (s.style === 'aws-sdk-v3')
    return [
      ...(send ? [{ module: '@aws-sdk/client-dynamodb', name: 'QueryCommand' }] : []),
      { module: '@aws-sdk/util-dynamodb', name: 'marshall' },
      ...(s.top || s.order ? [{ module: '@aws-sdk/util-dynamodb', name: 'unmarshall' }] : []),
    ];
  return [];
}
