/**
 * Ready-to-paste readers of every shard: TypeScript for the AWS SDK v3 DocumentClient
 * (lib-dynamodb) and Python for a boto3 Table. Each takes the client or table as an
 * argument (the application already has one, and tests pass one aimed at dynalite),
 * queries the shards in parallel (TS) or in turn (Python), follows LastEvaluatedKey and
 * returns every item. Strings from the template and the sort-key values are escaped for
 * the target language's literals, so any text round-trips unchanged.
 */
import { expressionOf, SHARD_TOKEN, type ExprSpec, type PlainValue } from './key-condition';

/** `[lo, hi]` when the shards are consecutive, else null. */
function contiguous(shards: number[]): [number, number] | null {
  const lo = shards[0];
  const hi = shards[shards.length - 1];
  return hi - lo + 1 === shards.length ? [lo, hi] : null;
}

/** A JS or Python double-quoted string literal (JSON's escapes are valid in both). */
const quoted = (s: string): string => JSON.stringify(s);

function literal(v: PlainValue): string {
  return typeof v === 'number' ? String(v) : quoted(v);
}

/** boto3 refuses Python floats: a number that is not whole goes in as a Decimal. */
function pyLiteral(v: PlainValue): string {
  return typeof v === 'number' && !Number.isInteger(v) ? `Decimal(${quoted(String(v))})` : literal(v);
}

/** A JS template literal of the key with `${shard}` for the shard part. */
function tsKey(template: string): string {
  const parts = template.split(SHARD_TOKEN).map((p) => p.replace(/[\\`]/g, (c) => '\\' + c).replace(/\$\{/g, '\\${'));
  return '`' + parts.join('${shard}') + '`';
}

/** A Python f-string of the key with `{shard}` for the shard part. */
function pyKey(template: string): string {
  const parts = template
    .split(SHARD_TOKEN)
    .map((p) => quoted(p).slice(1, -1).replace(/\{/g, '{{').replace(/\}/g, '}}'));
  return 'f"' + parts.join('{shard}') + '"';
}

function tsObject(entries: Array<[string, string]>, indent: string): string {
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${indent}  ${quoted(k)}: ${v},`).join('\n')}\n${indent}}`;
}

function pyDict(entries: Array<[string, string]>, indent: string): string {
  return `{\n${entries.map(([k, v]) => `${indent}    ${quoted(k)}: ${v},`).join('\n')}\n${indent}}`;
}

/** A comment line naming what the code reads (the template is data: keep it on one line). */
function what(spec: ExprSpec): string {
  const key = `every shard of ${spec.template.replace(/[\r\n\u2028\u2029]/g, ' ')}`;
  return spec.index ? `${key} on index ${spec.index}` : key;
}

export function typescriptCode(spec: ExprSpec): string {
  const { expression, names, sortValues } = expressionOf(spec);
  const range = contiguous(spec.shards);
  const shards = range
    ? `Array.from({ length: ${range[1] - range[0] + 1} }, (_, i) => ${range[0] === 0 ? 'i' : `${range[0]} + i`})`
    : `[${spec.shards.join(', ')}]`;
  const values: Array<[string, string]> = [[':pk', tsKey(spec.template)]];
  for (const [k, v] of Object.entries(sortValues)) values.push([k, literal(v)]);
  const nameEntries = Object.entries(names).map(([k, v]): [string, string] => [k, quoted(v)]);
  const i = '          ';
  return [
    `import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';`,
    ``,
    `// Reads ${what(spec)}: one Query per shard, in parallel, each followed to its last page.`,
    `export async function queryAllShards(client: DynamoDBDocumentClient, tableName: string) {`,
    `  const shards = ${shards};`,
    `  const pages = await Promise.all(`,
    `    shards.map(async (shard) => {`,
    `      const items: Record<string, unknown>[] = [];`,
    `      let startKey: Record<string, unknown> | undefined;`,
    `      do {`,
    `        const page = await client.send(`,
    `          new QueryCommand({`,
    `            TableName: tableName,`,
    ...(spec.index ? [`            IndexName: ${quoted(spec.index)},`] : []),
    `            KeyConditionExpression: ${quoted(expression)},`,
    ...(nameEntries.length ? [`            ExpressionAttributeNames: ${tsObject(nameEntries, i + '  ')},`] : []),
    `            ExpressionAttributeValues: ${tsObject(values, i + '  ')},`,
    `            ExclusiveStartKey: startKey,`,
    `          }),`,
    `        );`,
    `        items.push(...(page.Items ?? []));`,
    `        startKey = page.LastEvaluatedKey;`,
    `      } while (startKey);`,
    `      return items;`,
    `    }),`,
    `  );`,
    `  return pages.flat();`,
    `}`,
    ``,
  ].join('\n');
}

export function pythonCode(spec: ExprSpec): string {
  const { expression, names, sortValues } = expressionOf(spec);
  const range = contiguous(spec.shards);
  const shards = range ? `range(${range[0]}, ${range[1] + 1})` : `[${spec.shards.join(', ')}]`;
  const values: Array<[string, string]> = [[':pk', pyKey(spec.template)]];
  for (const [k, v] of Object.entries(sortValues)) values.push([k, pyLiteral(v)]);
  const nameEntries = Object.entries(names).map(([k, v]): [string, string] => [k, quoted(v)]);
  const decimal = values.some(([, v]) => v.startsWith('Decimal('));
  const i = '        ';
  return [
    ...(decimal ? ['from decimal import Decimal', '', ''] : []),
    `def query_all_shards(table):`,
    `    """Reads ${what(spec).replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"')}: one query per shard, each followed to its last page."""`,
    `    items = []`,
    `    for shard in ${shards}:`,
    `        kwargs = {`,
    ...(spec.index ? [`            "IndexName": ${quoted(spec.index)},`] : []),
    `            "KeyConditionExpression": ${quoted(expression)},`,
    ...(nameEntries.length ? [`            "ExpressionAttributeNames": ${pyDict(nameEntries, i + '    ')},`] : []),
    `            "ExpressionAttributeValues": ${pyDict(values, i + '    ')},`,
    `        }`,
    `        while True:`,
    `            page = table.query(**kwargs)`,
    `            items.extend(page.get("Items", []))`,
    `            if "LastEvaluatedKey" not in page:`,
    `                break`,
    `            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]`,
    `    return items`,
    ``,
  ].join('\n');
}
