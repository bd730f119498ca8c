import { keyCondition } from './reader-js';
import { freshAlias, type Operand, type ReaderSpec } from './reader-spec';
import { wrapWords } from './wrap-words';
import { fitPythonLines } from './fit-lines-python';

/**
 * The scatter-gather reader in Python, for boto3's `Table` resource and its client.
 * A nested function reads one shard page by page (`while` on `LastEvaluatedKey`), a
 * `ThreadPoolExecutor` with a bounded number of workers maps it over the writers'
 * shard numbers, and the shards are `heapq.merge`d by the sort key (each shard's list
 * is already in sort-key order), so the result keeps the single-key Query's order; a
 * top-N read is cut at N, a key with no known sort key is concatenated.
 * It returns `{"Items": ..., "Count": ...}` like a Query response.
 */

/** Threads per reader: enough to overlap the round trips, not one per shard of a thousand-shard key. */
export const MAX_WORKERS = 8;

function pyString(text: string): string {
  return JSON.stringify(text);
}

/** The shard key as an f-string, constants by name. */
function keyFString(s: ReaderSpec): string {
  const esc = (t: string) => JSON.stringify(t).slice(1, -1).replace(/[{}]/g, '$&$&');
  const before = s.partition.before.map((p) => ('name' in p ? `{${p.name}}` : esc(p.literal))).join('');
  return `f"${before}{shard}${esc(s.partition.after)}"`;
}

function operandText(o: Operand): string {
  if ('param' in o) return o.param;
  return typeof o.literal === 'number' ? String(o.literal) : pyString(o.literal);
}

const CONDITION_METHODS: Record<string, string> = {
  '=': 'eq',
  '<': 'lt',
  '<=': 'lte',
  '>': 'gt',
  '>=': 'gte',
  BETWEEN: 'between',
  begins_with: 'begins_with',
};

function limitText(s: ReaderSpec): string {
  const l = s.top!.limit;
  return typeof l === 'number' ? String(l) : l.param;
}

/** The request's keyword arguments as dict entries. */
function requestEntries(s: ReaderSpec): string[] {
  const o = s.options?.param;
  const out: string[] = o ? [`**${o},`] : [];
  if (s.style === 'boto3-resource') {
    const name = (attr: string) => s.attributeCode?.[attr] ?? pyString(attr);
    let cond = `Key(${name(s.partition.attribute)}).eq(${keyFString(s)})`;
    if (s.sort) {
      const args = s.sort.operands.map(operandText).join(', ');
      cond += ` & Key(${name(s.sort.attribute)}).${CONDITION_METHODS[s.sort.operator]}(${args})`;
    }
    out.push(`"KeyConditionExpression": ${cond},`);
  } else {
    const { expression, names, values } = keyCondition(s);
    out.push(`"TableName": ${s.table},`);
    out.push(`"KeyConditionExpression": ${pyString(expression)},`);
    // With the read's options, the names are merged before the shards are read (`names`).
    if (names.length && !o)
      out.push(
        `"ExpressionAttributeNames": {${names.map(([a, n, code]) => `${pyString(a)}: ${code ?? pyString(n)}`).join(', ')}},`,
      );
    const value = (v: Operand | 'pk') =>
      v === 'pk' ? `{"S": ${keyFString(s)}}` : `serializer.serialize(${operandText(v)})`;
    const own = values.map(([k, v]) => `${pyString(k)}: ${value(v)}`).join(', ');
    out.push(`"ExpressionAttributeValues": {${o ? `**${o}.get("ExpressionAttributeValues", {}), ` : ''}${own}},`);
  }
  if (s.index)
    out.splice(
      out.findIndex((e) => !e.startsWith('**') && !e.startsWith('"TableName"')),
      0,
      `"IndexName": ${pyString(s.index)},`,
    );
  if (!(s.top ?? s.order ?? { forward: true }).forward) out.push('"ScanIndexForward": False,');
  if (s.top) out.push(`"Limit": ${limitText(s)},`);
  if (s.consistent) out.push('"ConsistentRead": True,');
  return out;
}

/** The attribute the shards are merged by, when there is one. */
const mergedBy = (s: ReaderSpec) => (s.top ?? s.order)?.attribute ?? null;

const attributeText = (s: ReaderSpec, attr: string) => s.attributeCode?.[attr] ?? pyString(attr);

const sortAlias = (s: ReaderSpec) => freshAlias('#merge', s.options?.aliases);

/**
 * Before the shards are read: the read's aliases with the reader's own, and, when the
 * shards are merged by an attribute the read's projection leaves out, that attribute
 * asked for too (removed from the items after the merge, so callers get what they got).
 */
function optionLines(s: ReaderSpec): Array<[number, string]> {
  const o = s.options?.param;
  if (!o) return [];
  const own =
    s.style === 'boto3-client'
      ? keyCondition(s).names.map(([a, n, code]) => `, ${pyString(a)}: ${code ?? pyString(n)}`)
      : [];
  const L: Array<[number, string]> = [[1, `names = {**${o}.get("ExpressionAttributeNames", {})${own.join('')}}`]];
  const by = mergedBy(s);
  if (!by) return L;
  const attr = attributeText(s, by);
  return [
    ...L,
    ...wrapWords(
      `The shards are merged by ${by}: a projection without it asks for it too, and it is removed after.`,
      (s.width ?? 88) - s.indentUnit.replace(/\t/g, '  ').length,
      '# ',
    ).map((t): [number, string] => [1, t]),
    [1, `projection = ${o}.get("ProjectionExpression")`],
    [
      1,
      `add_sort = projection is not None and ${attr} not in [names.get(p.strip(), p.strip()) for p in projection.split(",")]`,
    ],
    [1, 'if add_sort:'],
    [2, `names[${pyString(sortAlias(s))}] = ${attr}`],
  ];
}

export function pythonReader(s: ReaderSpec): string {
  const client = s.style === 'boto3-client';
  const counted = !!s.options && !s.top;
  const params = [...(s.clientParam ? [s.clientParam.name] : []), ...s.params.map((p) => p.name)];
  const iterable =
    s.shards.kind === 'list'
      ? `[${s.shards.values.join(', ')}]`
      : s.shards.start === 0
        ? `range(${s.shards.count})`
        : /^\d+$/.test(s.shards.count)
          ? `range(${s.shards.start}, ${Number(s.shards.count) + s.shards.start})`
          : `range(${s.shards.start}, ${s.shards.count} + ${s.shards.start})`;
  const workers =
    s.shards.kind === 'list'
      ? String(Math.min(s.shards.values.length, MAX_WORKERS))
      : `min(${s.shards.count}, ${MAX_WORKERS})`;
  const what = s.top
    ? `the ${limitText(s)} items with the ${s.top.forward ? 'lowest' : 'highest'} ${s.top.attribute}`
    : 'every item';
  const method = client ? `${s.client}.query` : `${s.client}.query`;
  const L: Array<[number, string]> = [
    [0, `def ${s.name}(${params.join(', ')}):`],
    // A docstring within the project's width (black's 88 when none is known), one step in.
    ...wrapWords(
      `"""Reads ${what} of ${s.keyId} across all its shards: one reader per shard on a bounded thread pool, each following LastEvaluatedKey, then merged. Generated by ShardLens (scatter-gather reader)."""`,
      (s.width ?? 88) - s.indentUnit.replace(/\t/g, '  ').length,
      '',
    ).map((t): [number, string] => [1, t]),
    ...(client ? ([[1, 'serializer = TypeSerializer()']] as Array<[number, string]>) : []),
    ...optionLines(s),
    [0, ''],
    [1, 'def read_shard(shard):'],
    [2, 'items = []'],
    ...(counted ? ([[2, 'count = 0']] as Array<[number, string]>) : []),
    [2, 'kwargs = {'],
    ...requestEntries(s).map((t): [number, string] => [3, t]),
    [2, '}'],
    ...(s.options
      ? ([
          [2, 'if names:'],
          [3, 'kwargs["ExpressionAttributeNames"] = names'],
          ...(mergedBy(s)
            ? [
                [2, 'if add_sort:'],
                [3, `kwargs["ProjectionExpression"] = projection + ", ${sortAlias(s)}"`],
              ]
            : []),
        ] as Array<[number, string]>)
      : []),
    [2, 'while True:'],
    [3, `page = ${method}(**kwargs)`],
    [3, 'items.extend(page.get("Items", []))'],
    ...(counted ? ([[3, 'count += page["Count"]']] as Array<[number, string]>) : []),
    [
      3,
      s.top
        ? `if len(items) >= ${limitText(s)} or "LastEvaluatedKey" not in page:`
        : 'if "LastEvaluatedKey" not in page:',
    ],
    [4, s.top ? `return items[:${limitText(s)}]` : counted ? 'return items, count' : 'return items'],
    [3, 'kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]'],
    [0, ''],
    [1, `with concurrent.futures.ThreadPoolExecutor(max_workers=${workers}) as pool:`],
    [2, `per_shard = list(pool.map(read_shard, ${iterable}))`],
    ...(counted
      ? ([
          [1, 'counts = [count for _, count in per_shard]'],
          [1, 'per_shard = [items for items, _ in per_shard]'],
        ] as Array<[number, string]>)
      : []),
    ...merge(s, client),
    ...(s.options && mergedBy(s)
      ? ([
          [1, 'if add_sort:'],
          [2, 'for item in merged:'],
          [3, `del item[${attributeText(s, mergedBy(s)!)}]`],
        ] as Array<[number, string]>)
      : []),
    [1, `return {"Items": merged, "Count": ${counted ? 'sum(counts)' : 'len(merged)'}}`],
  ];
  return fitPythonLines(L, s.indentUnit, s.width ?? 88)
    .map(([d, t]) => (t ? s.indentUnit.repeat(d) + t : ''))
    .join('\n');
}

/** The shards' sorted lists merged in sort-key order (`heapq.merge`), cut at N for a top-N read. */
function merge(s: ReaderSpec, client: boolean): Array<[number, string]> {
  const by = s.top ?? s.order;
  if (!by) return [[1, 'merged = [item for items in per_shard for item in items]']];
  const attr = s.attributeCode?.[by.attribute] ?? pyString(by.attribute);
  const key = client ? `lambda item: deserializer.deserialize(item[${attr}])` : `lambda item: item[${attr}]`;
  const reverse = by.forward ? '' : ', reverse=True';
  return [
    ...(client ? ([[1, 'deserializer = TypeDeserializer()']] as Array<[number, string]>) : []),
    [1, `ordered = heapq.merge(*per_shard, key=${key}${reverse})`],
    [1, s.top ? `merged = list(itertools.islice(ordered, ${limitText(s)}))` : 'merged = list(ordered)'],
  ];
}

/** What a Python reader imports: `import m` as {module}, `from m import n` as {module, name}. */
export function pythonImports(s: ReaderSpec): Array<{ module: string; name?: string }> {
  const out: Array<{ module: string; name?: string }> = [{ module: 'concurrent.futures' }];
  if (s.top || s.order) out.push({ module: 'heapq' });
  if (s.top) out.push({ module: 'itertools' });
  if (s.style === 'boto3-resource') out.push({ module: 'boto3.dynamodb.conditions', name: 'Key' });
  else {
    out.push({ module: 'boto3.dynamodb.types', name: 'TypeSerializer' });
    if (s.top || s.order) out.push({ module: 'boto3.dynamodb.types', name: 'TypeDeserializer' });
  }
  return out;
}
