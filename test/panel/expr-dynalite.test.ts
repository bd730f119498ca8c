// The generator against a real DynamoDB implementation (dynalite): items over a shard
// set, every sort-key operator, reserved-word attribute names, string and number sort
// keys. The JSON query inputs, the generated TypeScript (bundled and run) and the
// generated Python (boto3) must each return exactly the items a plain filter expects.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as esbuild from 'esbuild';
import {
  buildQueries,
  pythonCode,
  typescriptCode,
  type ExprSpec,
  type SortCondition,
} from '../../server/src/features/expressions/index';
import { startDynalite, type Dynalite } from '../fixes/helpers-reader';
import { ticketsTable } from '../fixes/helpers-programs';

type Item = Record<string, string | number>;
interface Case {
  table: string;
  pk: string;
  sk: string;
  type: 'S' | 'N';
}

// Reserved words on both sides (status, timestamp, name, size, data) and plain names.
const CASES: Case[] = [
  { table: 'plain', pk: 'pk', sk: 'sk', type: 'S' },
  { table: 'logs', pk: 'status', sk: 'timestamp', type: 'S' },
  { table: 'sizes', pk: 'name', sk: 'size', type: 'N' },
  { table: 'blobs', pk: 'data', sk: 'status', type: 'S' },
];
const TEMPLATE = 'LOGS#2026-11-30#{shard}';
const SHARDS = [1, 2, 3, 4];
// ASCII only, so JavaScript's string order is DynamoDB's byte order.
const S_VALUES = ['a', 'ab', 'abc', 'b', 'ba', 'c', 'c#1'];
const N_VALUES = [-5, 0, 1.5, 7, 10, 42];

/** Each operator with operands inside the data's range. */
function conditions(c: Case): SortCondition[] {
  const base = { attribute: c.sk, type: c.type };
  if (c.type === 'N')
    return [
      { ...base, op: '=', value: '7' },
      { ...base, op: '<', value: '1.5' },
      { ...base, op: '<=', value: '1.5' },
      { ...base, op: '>', value: '7' },
      { ...base, op: '>=', value: '7' },
      { ...base, op: 'between', value: '0', value2: '10' },
    ];
  return [
    { ...base, op: '=', value: 'ab' },
    { ...base, op: '<', value: 'b' },
    { ...base, op: '<=', value: 'b' },
    { ...base, op: '>', value: 'b' },
    { ...base, op: '>=', value: 'b' },
    { ...base, op: 'between', value: 'ab', value2: 'ba' },
    { ...base, op: 'begins_with', value: 'ab' },
  ];
}

function holds(v: string | number, s: SortCondition): boolean {
  const conv = (x: string) => (s.type === 'N' ? Number(x) : x);
  const a = conv(s.value);
  switch (s.op) {
    case '=':
      return v === a;
    case '<':
      return v < a;
    case '<=':
      return v <= a;
    case '>':
      return v > a;
    case '>=':
      return v >= a;
    case 'between':
      return v >= a && v <= conv(s.value2 ?? '');
    case 'begins_with':
      return String(v).startsWith(s.value);
  }
}

/** Items of the template on shards 0..5 (0 and 5 are outside the set) and of a neighbour template. */
function itemsOf(c: Case): Item[] {
  const values = c.type === 'N' ? N_VALUES : S_VALUES;
  const out: Item[] = [];
  for (let shard = 0; shard <= 5; shard++)
    for (const v of values) {
      out.push({ [c.pk]: `LOGS#2026-11-30#${shard}`, [c.sk]: v, shard });
      out.push({ [c.pk]: `LOGS#2026-11-30#${shard}x`, [c.sk]: v, shard: -1 });
    }
  return out;
}

const sortKey = (c: Case) => (i: Item) => `${i[c.pk]}|${i[c.sk]}`;
const sorted = (c: Case, items: Item[]) => items.map(sortKey(c)).sort();

let db: Dynalite;
let doc: DynamoDBDocumentClient;
let work: string;

before(async () => {
  db = await startDynalite();
  const client = new DynamoDBClient({
    endpoint: db.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  doc = DynamoDBDocumentClient.from(client);
  // Inside the repository (test-output/ is git-ignored) so the bundles find the SDK in node_modules.
  fs.mkdirSync(path.resolve(__dirname, '../../test-output'), { recursive: true });
  work = fs.mkdtempSync(path.resolve(__dirname, '../../test-output/expr-'));
  for (const c of CASES) {
    await client.send(
      new CreateTableCommand({
        TableName: c.table,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: c.pk, AttributeType: 'S' },
          { AttributeName: c.sk, AttributeType: c.type },
        ],
        KeySchema: [
          { AttributeName: c.pk, KeyType: 'HASH' },
          { AttributeName: c.sk, KeyType: 'RANGE' },
        ],
      }),
    );
    const items = itemsOf(c);
    for (let i = 0; i < items.length; i += 25)
      await doc.send(
        new BatchWriteCommand({
          RequestItems: { [c.table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
        }),
      );
  }
});

after(async () => {
  doc?.destroy();
  await db?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const specOf = (c: Case, sort: SortCondition | null): ExprSpec => ({
  pkAttribute: c.pk,
  template: TEMPLATE,
  shards: SHARDS,
  sort,
});

test('dynalite refuses a bare reserved word, so the aliases matter', async () => {
  await assert.rejects(
    doc.send(
      new QueryCommand({
        TableName: 'logs',
        KeyConditionExpression: 'status = :pk',
        ExpressionAttributeValues: { ':pk': 'LOGS#2026-11-30#1' },
      }),
    ),
    /reserved keyword/i,
  );
});

for (const c of CASES) {
  test(`JSON query inputs, table ${c.table} (${c.pk} / ${c.sk} ${c.type}): each shard, each operator`, async () => {
    for (const sort of [null, ...conditions(c)]) {
      const queries = buildQueries(specOf(c, sort));
      assert.deepEqual(
        queries.map((q) => q.shard),
        SHARDS,
      );
      let total = 0;
      for (const q of queries) {
        // The CLI prints JSON: go through it, as a user piping the output would.
        const input = JSON.parse(JSON.stringify(q)) as Record<string, unknown>;
        delete input.shard;
        const page = await doc.send(new QueryCommand({ TableName: c.table, ...input }));
        const want = itemsOf(c).filter((i) => i.shard === q.shard && (!sort || holds(i[c.sk], sort)));
        assert.deepEqual(
          sorted(c, (page.Items ?? []) as Item[]),
          sorted(c, want),
          `${sort?.op ?? 'pk only'} shard ${q.shard}`,
        );
        total += want.length;
      }
      assert.ok(total > 0, `${sort?.op}: the operands select something`);
    }
  });
}

/** What every shard holds under one condition, as the generated readers should return it. */
const expectedAll = (c: Case, sort: SortCondition | null) =>
  sorted(
    c,
    itemsOf(c).filter((i) => SHARDS.includes(Number(i.shard)) && (!sort || holds(i[c.sk], sort))),
  );

/** Bundles generated TypeScript (the SDK stays external) and loads it. */
async function loadTs(
  code: string,
): Promise<{ queryAllShards: (d: DynamoDBDocumentClient, t: string) => Promise<Item[]> }> {
  const file = path.join(work, `q-${Math.random().toString(36).slice(2)}.ts`);
  fs.writeFileSync(file, code);
  const out = file.replace(/\.ts$/, '.cjs');
  await esbuild.build({
    entryPoints: [file],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent',
    packages: 'external',
  });
  return createRequire(__filename)(out) as Awaited<ReturnType<typeof loadTs>>;
}

async function runPython(script: string): Promise<string> {
  return (await promisify(execFile)('python3', ['-c', script], { timeout: 60_000 })).stdout;
}

const pyTable = (table: string) =>
  `table = boto3.resource("dynamodb", endpoint_url=${JSON.stringify(db.endpoint)}, region_name="us-east-1", ` +
  `aws_access_key_id="x", aws_secret_access_key="x").Table(${JSON.stringify(table)})`;

test('a template with quotes, backticks, ${, braces, backslashes and non-ASCII round-trips through both languages', async () => {
  const template = 'K`${x}\\n"\'{a}{{b}}#\u00e9\u2028\u{1F600}#{shard}';
  const spec: ExprSpec = { pkAttribute: 'pk', template, shards: [7, 9], sort: null };
  const items = [7, 8, 9].map((s) => ({ pk: template.replace('{shard}', String(s)), sk: 'v' }));
  await doc.send(new BatchWriteCommand({ RequestItems: { plain: items.map((Item) => ({ PutRequest: { Item } })) } }));
  const want = [items[0].pk, items[2].pk].sort();
  const ts = await (await loadTs(typescriptCode(spec))).queryAllShards(doc, 'plain');
  assert.deepEqual(ts.map((i) => i.pk).sort(), want);
  const py = await runPython(
    [
      'import json, boto3',
      pyTable('plain'),
      pythonCode(spec),
      'print(json.dumps(sorted(i["pk"] for i in query_all_shards(table))))',
    ].join('\n'),
  );
  assert.deepEqual(JSON.parse(py), want);
});

test('the generated TypeScript, bundled and run against dynalite, reads every shard', async () => {
  for (const c of CASES) {
    for (const sort of [null, ...conditions(c)]) {
      const mod = await loadTs(typescriptCode(specOf(c, sort)));
      const got = await mod.queryAllShards(doc, c.table);
      assert.deepEqual(sorted(c, got), expectedAll(c, sort), `${c.table} ${sort?.op ?? 'pk only'}`);
    }
  }
});

test('the generated Python (boto3), run against dynalite, reads every shard', async () => {
  for (const c of CASES) {
    const sorts = [null, ...conditions(c)];
    // One interpreter per table: each generated function renamed q0, q1, ...
    const defs = sorts.map((s, i) => pythonCode(specOf(c, s)).replace('def query_all_shards(', `def q${i}(`));
    const script = [
      'import json, boto3',
      pyTable(c.table),
      ...defs,
      `pk, sk = ${JSON.stringify(c.pk)}, ${JSON.stringify(c.sk)}`,
      `print(json.dumps([[str(i[pk]) + "|" + str(i[sk]) for i in q(table)] for q in [${sorts.map((_, i) => `q${i}`).join(', ')}]]))`,
    ].join('\n');
    const got = JSON.parse(await runPython(script)) as string[][];
    sorts.forEach((s, i) => {
      // Python prints Decimal('1.5') as 1.5 and Decimal('7') as 7, as JavaScript does.
      assert.deepEqual(got[i].sort(), expectedAll(c, s), `${c.table} ${s?.op ?? 'pk only'}`);
    });
  }
});

test('a key that is an index partition key is queried through its index (IndexName) in JSON, TypeScript and Python', async () => {
  // Tickets keyed by id, with a global secondary index on a sharded status ("OPEN#<shard>").
  await doc.send(new CreateTableCommand(ticketsTable('id')));
  const tickets = Array.from({ length: 36 }, (_, i) => ({
    id: `T${i}`,
    status: i % 9 === 8 ? `CLOSED#${i % 6}` : `OPEN#${i % 6}`,
    openedAt: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}`,
  }));
  for (let i = 0; i < tickets.length; i += 25)
    await doc.send(
      new BatchWriteCommand({
        RequestItems: { tickets: tickets.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  const spec: ExprSpec = {
    pkAttribute: 'status',
    template: 'OPEN#{shard}',
    shards: SHARDS,
    sort: null,
    index: 'status-index',
  };
  const want = tickets
    .filter((t) => SHARDS.some((s) => t.status === `OPEN#${s}`))
    .map((t) => t.id)
    .sort();
  assert.ok(want.length > 10 && want.length < tickets.length, 'the shard set selects some tickets, not all');

  const ids = (items: Record<string, unknown>[] | undefined) => (items ?? []).map((i) => String(i.id)).sort();
  const json: string[] = [];
  for (const q of buildQueries(spec)) {
    const input = JSON.parse(JSON.stringify(q)) as Record<string, unknown>;
    delete input.shard;
    assert.equal(input.IndexName, 'status-index');
    json.push(...ids((await doc.send(new QueryCommand({ TableName: 'tickets', ...input }))).Items));
    // Without the index the same condition is on an attribute the table is not keyed by.
    delete input.IndexName;
    await assert.rejects(doc.send(new QueryCommand({ TableName: 'tickets', ...input })), /key schema/i);
  }
  assert.deepEqual(json.sort(), want);
  const ts = await (await loadTs(typescriptCode(spec))).queryAllShards(doc, 'tickets');
  assert.deepEqual(ids(ts), want);
  const py = await runPython(
    [
      'import json, boto3',
      pyTable('tickets'),
      pythonCode(spec),
      'print(json.dumps(sorted(i["id"] for i in query_all_shards(table))))',
    ].join('\n'),
  );
  assert.deepEqual(JSON.parse(py), want);
});

test('an index name DynamoDB would refuse is a clear error, not a query', () => {
  assert.throws(
    () => buildQueries({ pkAttribute: 'status', template: 'OPEN#{shard}', shards: [0], sort: null, index: 'a b' }),
    /"a b" is not an index name/,
  );
});
