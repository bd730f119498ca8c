import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import { ensureBuilt, ROOT, runCli } from '../../fuzz/cli-runner';
import { generatedModule, GENERATED } from '../../server/src/cli/rule-docs-gen';
import { RULE_INFO } from '../../server/src/engine/rules';

/**
 * What other tools consume: the SARIF must pass Microsoft's SARIF Multitool with GitHub's
 * rules (code scanning rejects rule descriptors without fullDescription and help), and the
 * JSON of `check` and `keys` must match the schemas in docs/schemas/, on the examples and
 * on a fixture where every field of the schema is present.
 */
ensureBuilt();

const MULTITOOL = path.join(ROOT, 'node_modules', '@microsoft', 'sarif-multitool-linux', 'Sarif.Multitool');
const SARIF_SCHEMA = path.join(ROOT, 'node_modules', '@microsoft', 'sarif-multitool-linux', 'sarif-2.1.0.json');

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** A workspace that fills the fields the examples leave null: a shard count reached by a reader fix, a skipped file. */
function fixtureDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-outputs-'));
  fs.writeFileSync(
    path.join(dir, 'board.ts'),
    [
      "import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';",
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
      "import { randomInt } from 'node:crypto';",
      'const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
      'const BOARD_SHARDS = 10;',
      'export async function save(id: string): Promise<void> {',
      "  await ddb.send(new PutCommand({ TableName: 'scores', Item: { PK: `BOARD#${randomInt(BOARD_SHARDS)}`, SK: id } }));",
      '}',
      'export async function top(): Promise<unknown> {',
      "  return ddb.send(new QueryCommand({ TableName: 'scores', KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': 'BOARD' } }));",
      '}',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'blob.py'), 'x\0y');
  // A read-hot key: a settings item only read, offered the cache fix (`keyUse`, `cache-read`).
  fs.writeFileSync(
    path.join(dir, 'settings.ts'),
    "import { ddb } from './client';\nimport { GetCommand } from '@aws-sdk/lib-dynamodb';\n" +
      "export const settings = () => ddb.send(new GetCommand({ TableName: 'settings', Key: { pk: 'global-config' } }));\n",
  );
  // A call through a wrapper in another module (`through`) and one read by its shape (`guessed`).
  fs.writeFileSync(
    path.join(dir, 'store.ts'),
    "import { ddb } from './client';\nimport { PutCommand } from '@aws-sdk/lib-dynamodb';\n" +
      "export const put = (pk: string, sk: string) => ddb.send(new PutCommand({ TableName: 'feed', Item: { pk, sk } }));\n",
  );
  fs.writeFileSync(
    path.join(dir, 'feed.ts'),
    "import { put } from './store';\nexport const post = (id: string) => put('FEED', id);\n",
  );
  fs.writeFileSync(
    path.join(dir, 'flags.ts'),
    "import { db } from '@acme/dynamodb-helpers';\nexport const flags = () => db.getItem({ pk: 'FLAGS' });\n",
  );
  return dir;
}

/** Every path of `value` that holds something other than null (array items as `[]`, fix kinds as `<kind>`). */
function presentPaths(value: unknown, at = '', out = new Set<string>()): Set<string> {
  if (value === null || value === undefined) return out;
  out.add(at);
  if (Array.isArray(value)) for (const v of value) presentPaths(v, `${at}[]`, out);
  else if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.kind === 'string') out.add(`${at}<${o.kind}>`);
    for (const [k, v] of Object.entries(o)) presentPaths(v, `${at}.${k}`, out);
  }
  return out;
}

test('SARIF Multitool (SARIF and GitHub rules) finds 0 errors, on the examples and with skipped-file notifications', () => {
  // npm may install the binary without its execute bit when install scripts are off.
  fs.chmodSync(MULTITOOL, 0o755);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-sarif-'));
  const inputs = [
    runCli(['check', 'examples', '--format', 'sarif']).stdout,
    runCli(['check', '.', '--format', 'sarif'], { cwd: fixtureDir() }).stdout,
  ];
  for (const [i, sarif] of inputs.entries()) {
    const file = path.join(dir, `in${i}.sarif`);
    const out = path.join(dir, `out${i}.sarif`);
    fs.writeFileSync(file, sarif);
    const r = spawnSync(MULTITOOL, ['validate', '--rule-kind', 'Gh;Sarif', '--output', out, file], {
      encoding: 'utf8',
      env: { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1' },
      timeout: 120_000,
    });
    assert.equal(r.status, 0, `${r.error ?? ''}${r.stdout}${r.stderr}`);
    const results = (readJson(out).runs[0].results ?? []) as Array<{ level?: string; message: { text: string } }>;
    const errors = results.filter((x) => (x.level ?? 'warning') === 'error').map((x) => x.message.text);
    assert.deepEqual(errors, [], r.stdout);
    assert.doesNotMatch(r.stdout, /error (GH|SARIF)\d+/);
  }
});

test('SARIF matches the SARIF 2.1.0 JSON schema, and every rule has fullDescription and help from its docs page', () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const validate = ajv.compile(readJson(SARIF_SCHEMA));
  const sarif = JSON.parse(runCli(['check', 'examples', '--format', 'sarif']).stdout) as {
    runs: Array<{ tool: { driver: { rules: unknown[] } } }>;
  };
  assert.ok(validate(sarif), ajv.errorsText(validate.errors));
  const rules = sarif.runs[0].tool.driver.rules as Array<Record<string, { text: string; markdown: string }>>;
  assert.equal(rules.length, RULE_INFO.length);
  for (const [i, rule] of rules.entries()) {
    const page = fs.readFileSync(path.join(ROOT, 'docs', 'rules', `${RULE_INFO[i].code}.md`), 'utf8');
    const catches = page.split('## What it catches')[1].split('\n## ')[0].trim();
    assert.equal(rule.fullDescription.markdown, catches);
    assert.ok(rule.fullDescription.text.length > 100 && !rule.fullDescription.text.includes('**'));
    assert.match(
      rule.help.markdown,
      /^## What it catches\n[\s\S]*\n## How to fix\n[\s\S]*\[Full documentation\]\(https:/,
    );
    assert.ok(rule.help.text.includes('How to fix:'));
  }
});

test('the rule docs bundled into the CLI are the pages in docs/rules (regenerate with rule-docs-gen.ts)', () => {
  // Compared line by line (one line per rule) with a short message: a diff of the whole
  // module, tens of kilobytes, once kept the test runner's reporting busy for good.
  const bundled = fs.readFileSync(GENERATED, 'utf8').split('\n');
  const pages = generatedModule().split('\n');
  const at = pages.findIndex((line, i) => bundled[i] !== line);
  const stale = at === -1 && bundled.length !== pages.length ? pages.length : at;
  assert.ok(
    stale === -1,
    `docs/rules changed (${(pages[stale] ?? bundled[stale] ?? '').slice(0, 60)}…): ` +
      'run `node --import tsx server/src/cli/rule-docs-gen.ts`',
  );
});

test('check --format json matches docs/schemas/check.schema.json, with every field of the schema present', () => {
  const ajv = new Ajv({ allErrors: true, strict: true });
  const schema = readJson(path.join(ROOT, 'docs', 'schemas', 'check.schema.json'));
  const validate = ajv.compile(schema);
  const outputs = [
    JSON.parse(runCli(['check', 'examples', '--format', 'json']).stdout),
    JSON.parse(runCli(['check', '.', '--format', 'json'], { cwd: fixtureDir() }).stdout),
    // Templates and Serverless services: functions, tables, environment-named tables resolved.
    JSON.parse(
      runCli(['check', '.', '--format', 'json'], { cwd: path.join(ROOT, 'test', 'fixtures', 'infra') }).stdout,
    ),
  ];
  const seen = new Set<string>();
  for (const o of outputs) {
    assert.ok(validate(o), ajv.errorsText(validate.errors));
    presentPaths(o, '', seen);
  }
  for (const p of [
    '.skipped[].reason',
    '.coverage.keysTooDeep',
    '.findings[].related[].message',
    '.findings[].fixes[].shards.count.declaration.line',
    '.findings[].fixes[].shardCount.declaration.line',
    '.accesses[].sortKey.operator',
    '.accesses[].index',
    '.accesses[].use.column',
    '.accesses[].partitionKey.shards',
    '.accesses[].through.line',
    '.accesses[].guessed',
    '.accesses[].tableFrom.logicalId',
    '.accesses[].tableCandidates[]',
    '.functions[].triggers[].ratePerHour',
    '.functions[].triggers[].batchSize',
    '.functions[].environment',
    '.tables[].indexes[].sortKey.type',
    '.tables[].capacity.write',
    '.coverage.infrastructure.skipped[].reason',
    '.findings[].keyUse.verdict',
    ...[
      'add-shard-suffix',
      'scatter-gather-reader',
      'align-shard-range',
      'paginate-shards',
      'spread-counter',
      'cache-read',
    ].map((k) => `.findings[].fixes[]<${k}>`),
  ]) {
    assert.ok(seen.has(p), `no output had ${p}`);
  }
  // A field the CLI writes but the schema does not list is an undocumented field.
  const extra = structuredClone(outputs[0]);
  extra.findings[0].surprise = 1;
  assert.equal(validate(extra), false);
});

test('keys --format json and keys --match --format json match docs/schemas/keys.schema.json', () => {
  const ajv = new Ajv({ allErrors: true, strict: true });
  const validate = ajv.compile(readJson(path.join(ROOT, 'docs', 'schemas', 'keys.schema.json')));
  const listing = JSON.parse(runCli(['keys', 'examples', '--format', 'json']).stdout);
  const fixture = JSON.parse(runCli(['keys', '.', '--format', 'json'], { cwd: fixtureDir() }).stdout);
  // A SAM app whose handler's table is a `!Ref` table without a name: `logicalIds`.
  const sam = JSON.parse(
    runCli(['keys', path.join('test', 'fixtures', 'infra', 'sam-app'), '--format', 'json']).stdout,
  );
  const matches = JSON.parse(
    runCli(['keys', 'examples', '--format', 'json', '--match', 'BOARD#global#7', 'LEADERBOARD#GLOBAL#3', 'nothing'])
      .stdout,
  );
  const seen = new Set<string>();
  for (const o of [listing, fixture, sam, matches]) {
    assert.ok(validate(o), ajv.errorsText(validate.errors));
    presentPaths(o, '', seen);
  }
  for (const p of [
    '.tables[].table',
    '.tables[].logicalIds[]',
    '.tables[].indexes[].index',
    '.tables[].indexes[].keys[].shards.values[]',
    '.tables[].indexes[].keys[].sites[].shards[]',
    '.tables[].indexes[].keys[].sites[].findings[].rule',
    '.matches[].logicalKeys[].shard',
    '.matches[].logicalKeys[].templates[]',
  ]) {
    assert.ok(seen.has(p), `no output had ${p}`);
  }
});
