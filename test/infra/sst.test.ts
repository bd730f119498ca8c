/**
 * SST apps read as infrastructure code, in the two shapes SST's own templates give them:
 * - v3 (`sst-v3`): components made in `infra/*.ts` and imported into each other (a `Dynamo`
 *   table with an index, an `ApiGatewayV2` with routes, a `Cron`, a stream subscriber on
 *   the imported table), handlers in `packages/functions` calling a data layer in
 *   `packages/core` by package name, which names the table `Resource.Polls.name`;
 * - v2 (`sst-v2`): constructs of `sst/constructs` made in stack functions (a `Table`, an
 *   `Api` whose routes share `defaults.function`, a `Cron` with a `job`), the handler naming
 *   the table `Table.Counter.tableName` from `sst/node/table` (SST's counter guide).
 * Handlers are relative to the folder holding `sst.config.ts`.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { diskFiles, importsSst } from '../../server/src/engine/frontends/infra';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { readCdkSource } from '../../server/src/engine/workspace/cdk-source';
import { collectFiles } from '../../server/src/engine/workspace/files';
import type { InfraDeclarations, InfraFunction } from '../../server/src/engine/model/entry-point';
import { checkJson, FIXTURES } from './check-json';
import { findingsOf } from '../entry/helpers';

before(() => initParsers());

const V3 = path.join(FIXTURES, 'sst-v3');
const V2 = path.join(FIXTURES, 'sst-v2');

function read(dir: string, file: string): InfraDeclarations {
  const full = path.join(dir, file);
  const out = readCdkSource(full, fs.readFileSync(full, 'utf8'), diskFiles);
  assert.ok(out, `${file} is read as SST code`);
  assert.equal(out.format, 'sst');
  assert.deepEqual(out.skipped, []);
  return out;
}

function fn(d: InfraDeclarations, name: string): InfraFunction {
  const f = d.functions.find((x) => x.name === name);
  assert.ok(f, `function ${name} among ${d.functions.map((x) => x.name).join(', ')}`);
  return f;
}

const SST_CONFIG = 'export default $config({ app() { return { name: "app" }; } });\n';
const lines = (...text: string[]) => `${text.join('\n')}\n`;

/** An app of `files` in a fresh folder, given to `check`, removed after. */
function withApp(files: Record<string, string>, check: (dir: string) => void): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-sst-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    check(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const handlerOf = (dir: string, f: InfraFunction) =>
  f.handlerFile ? path.relative(dir, f.handlerFile).split(path.sep).join('/') : null;
const triggers = (f: InfraFunction) => f.triggers.map((t) => [t.kind, t.trigger, t.ratePerHour]);

test('only SST code is read: v3 components, v2 constructs; not a file that only mentions SST', () => {
  assert.ok(importsSst('export const table = new sst.aws.Dynamo("Polls", {});'));
  assert.ok(importsSst('import { Table, StackContext } from "sst/constructs";'));
  assert.ok(importsSst("import * as sst from '@serverless-stack/resources';"));
  assert.ok(!importsSst('import { Resource } from "sst";\nconsole.log(Resource.Polls.name);'));
  assert.ok(!importsSst('// deployed with sst.aws components'));
  const config = path.join(V3, 'sst.config.ts');
  assert.equal(readCdkSource(config, fs.readFileSync(config, 'utf8'), diskFiles), null);
});

test('v3: a Dynamo table with its key types and a global index', () => {
  const [t] = read(V3, 'infra/storage.ts').tables;
  assert.equal(t.logicalId, 'Polls');
  assert.equal(t.tableName, null, 'SST makes the physical name');
  assert.deepEqual(t.partitionKey, { name: 'pk', type: 'S' });
  assert.deepEqual(t.sortKey, { name: 'sk', type: 'S' });
  assert.deepEqual(
    t.indexes.map((i) => [i.name, i.kind, i.partitionKey.name, i.sortKey?.name]),
    [['ByOwner', 'global', 'gsi1pk', 'gsi1sk']],
  );
  assert.equal(t.billingMode, 'PAY_PER_REQUEST');
});

test('v3: api routes, a cron and a stream subscriber on a table imported from another file', () => {
  const api = read(V3, 'infra/api.ts');
  const vote = fn(api, 'Api POST /polls/{pollId}/votes');
  assert.equal(handlerOf(V3, vote), 'packages/functions/src/vote.ts');
  assert.equal(vote.handlerFunction, 'handler');
  assert.deepEqual(triggers(vote), [['api', 'POST /polls/{pollId}/votes', null]]);
  // `link: [table]`, the table made in infra/storage.ts: the variable SST sets for it.
  assert.deepEqual(vote.environment.SST_RESOURCE_Polls, {
    kind: 'table',
    logicalId: 'Polls',
    file: path.join(V3, 'infra/storage.ts'),
  });
  assert.equal(handlerOf(V3, fn(api, 'Api GET /polls/{pollId}')), 'packages/functions/src/results.ts');

  const jobs = read(V3, 'infra/jobs.ts');
  const digest = fn(jobs, 'DailyDigest');
  assert.equal(handlerOf(V3, digest), 'packages/functions/src/digest.ts');
  assert.deepEqual(triggers(digest), [['schedule', 'cron(0 6 * * ? *)', 1 / 24]]);
  const audit = fn(jobs, 'Polls subscriber');
  assert.equal(handlerOf(V3, audit), 'packages/functions/src/audit.ts');
  assert.deepEqual(triggers(audit), [['stream', 'DynamoDB Polls', null]]);
});

test("v2: a Table, Api routes with shared defaults (keys spaced as SST's guide aligns them), a Cron job given as function props (its handler a template literal)", () => {
  const [t] = read(V2, 'stacks/Storage.ts').tables;
  assert.equal(t.logicalId, 'Counter');
  assert.deepEqual(t.partitionKey, { name: 'counter', type: 'S' });
  assert.equal(t.sortKey, null);
  const api = read(V2, 'stacks/API.ts');
  const post = fn(api, 'Api POST /');
  assert.equal(handlerOf(V2, post), 'packages/functions/src/lambda.ts');
  assert.deepEqual(triggers(post), [['api', 'POST /', null]]);
  const reset = fn(api, 'Reset');
  assert.equal(handlerOf(V2, reset), 'packages/functions/src/reset.ts');
  assert.deepEqual(triggers(reset), [['schedule', 'rate(1 day)', 1 / 24]]);
});

test("v2: a stack importing the CDK too: its SST `Function` is SST's (no `code` asset), read by the SST reader", () => {
  const d = read(V2, 'stacks/Realtime.ts');
  const fn = d.functions.find((f) => f.name === 'iot-message');
  assert.equal(fn && handlerOf(V2, fn), 'packages/functions/src/iot.ts');
  assert.equal(d.functions.length, 1, 'not read a second time as a CDK `lambda.Function`');
});

test('v1: a stack class of `@serverless-stack/resources` with typed fields, in an app marked by sst.json', () => {
  withApp(
    {
      'sst.json': '{ "name": "notes", "region": "us-east-1", "main": "stacks/index.js" }\n',
      'stacks/StorageStack.js': lines(
        "import * as sst from '@serverless-stack/resources';",
        '',
        'export default class StorageStack extends sst.Stack {',
        '  constructor(scope, id, props) {',
        '    super(scope, id, props);',
        "    this.table = new sst.Table(this, 'Notes', {",
        '      fields: { userId: sst.TableFieldType.STRING, noteId: sst.TableFieldType.STRING },',
        "      primaryIndex: { partitionKey: 'userId', sortKey: 'noteId' },",
        '    });',
        '  }',
        '}',
      ),
    },
    (dir) => {
      const [t] = read(dir, 'stacks/StorageStack.js').tables;
      assert.equal(t.logicalId, 'Notes');
      assert.deepEqual(
        [t.partitionKey, t.sortKey],
        [
          { name: 'userId', type: 'S' },
          { name: 'noteId', type: 'S' },
        ],
      );
      assert.ok(collectFiles([dir]).infrastructure.some((f) => f.endsWith('StorageStack.js')));
    },
  );
});

test('v3: a table named through `transform.table.name` keeps that name, its deploy-time parts as holes', () => {
  withApp(
    {
      'sst.config.ts': SST_CONFIG,
      'infra/databases.ts': lines(
        'export const database = new sst.aws.Dynamo("KvStore", {',
        '  transform: { table: { name: `${$app.name}-${$app.stage}-kvstore` } },',
        '  fields: { pk: "string", sk: "string" },',
        '  primaryIndex: { hashKey: "pk", rangeKey: "sk" },',
        '});',
      ),
    },
    (dir) => {
      const [t] = read(dir, 'infra/databases.ts').tables;
      assert.equal(t.logicalId, 'KvStore');
      assert.equal(t.tableName, '{$$app.name}-{$$app.stage}-kvstore');
    },
  );
});

test('the auth server each version makes: v3 `issuer` (or `authorizer`), v2 `authenticator`, also from `sst/constructs/future`', () => {
  withApp(
    {
      'sst.config.ts': SST_CONFIG,
      'src/auth.ts': 'export const handler = async () => ({ statusCode: 200 });\n',
      'infra/auth.ts': 'export const auth = new sst.aws.Auth("Auth", { issuer: { handler: "src/auth.handler" } });\n',
      'infra/legacy.ts': lines(
        'import { StackContext } from "sst/constructs";',
        'import { Auth as SSTAuth } from "sst/constructs/future";',
        'export function Legacy({ stack }: StackContext) {',
        '  return new SSTAuth(stack, "auth", { authenticator: { handler: "src/auth.handler" } });',
        '}',
      ),
    },
    (dir) => {
      for (const [file, name, trigger] of [
        ['infra/auth.ts', 'Auth auth', 'Auth: sign-in routes'],
        ['infra/legacy.ts', 'auth auth', 'auth: sign-in routes'],
      ]) {
        const f = fn(read(dir, file), name);
        assert.equal(handlerOf(dir, f), 'src/auth.ts');
        assert.deepEqual(triggers(f), [['api', trigger, null]]);
      }
    },
  );
});

test('the source files of an SST app are read for infrastructure, as those of a CDK app are', () => {
  const { infrastructure } = collectFiles([V3]);
  const rel = infrastructure.map((f) => path.relative(V3, f).split(path.sep).join('/'));
  for (const f of ['infra/storage.ts', 'infra/api.ts', 'infra/jobs.ts']) assert.ok(rel.includes(f), f);
});

test('v3 check: the route makes the counter hot, the cron job is cold, the table is named by its id', () => {
  const report = checkJson(V3, '.', '--fail-on', 'never');
  const at = (line: number, rule: string) => {
    const f = report.findings.find(
      (x) => x.file === 'packages/core/src/poll/index.ts' && x.line === line && x.rule === rule,
    );
    assert.ok(f, `${rule} at line ${line}: ${report.findings.map((x) => `${x.rule} ${x.file}:${x.line}`).join(', ')}`);
    return f;
  };
  const counter = at(19, 'SL004');
  assert.equal(counter.severity, 'warning');
  assert.match(counter.message, /on table Resource\.Polls\.name/);
  assert.match(counter.message, /Reached from POST \/polls\/\{pollId\}\/votes \(infra\/api\.ts:7\)/);
  // The daily digest writes one item a day: reported, but as the cold path it is.
  const digest = at(44, 'SL001');
  assert.equal(digest.severity, 'info');
  assert.match(digest.message, /Cold path: runs on cron\(0 6 \* \* \? \*\) \(infra\/jobs\.ts:3\)/);
  // The per-poll keys spread: nothing on them.
  assert.equal(report.findings.filter((f) => f.line === 10 || f.line === 31).length, 0);
  const table = report.tables.find((t) => t.logicalId === 'Polls');
  assert.equal(table?.file, 'infra/storage.ts');
});

test('v2 check: the counter guide\'s "clicks" item is hot from its route, the reset job cold', () => {
  const report = checkJson(V2, '.', '--fail-on', 'never');
  const inLambda = report.findings.filter((f) => f.file === 'packages/functions/src/lambda.ts' && f.rule === 'SL001');
  assert.deepEqual(
    inLambda.map((f) => [f.line, f.severity]),
    [
      [12, 'error'],
      [24, 'error'],
    ],
  );
  for (const f of inLambda) {
    assert.match(f.message, /on table Table\.Counter\.tableName/);
    assert.match(f.message, /Reached from POST \/ \(stacks\/API\.ts:14\)/);
  }
  // `bind: [table]` names a table `use(Storage)` gives, not read here: the code's
  // `Table.Counter.tableName` still names the app's one table of that id.
  const insights = report.findings.find((f) => f.rule === 'SL013');
  assert.equal(insights?.file, 'stacks/Storage.ts');
  assert.match(insights?.message ?? '', /Table Counter has 2 hot-key findings/);
  const reset = report.findings.find((f) => f.file === 'packages/functions/src/reset.ts');
  assert.equal(reset?.severity, 'info');
  assert.match(reset?.message ?? '', /Cold path: runs on rate\(1 day\)/);
});

test('v3 with a Python function: `Resource.Polls.name` in boto3 code names the table, the route reaches it', async () => {
  const found = await findingsOf({
    'sst.config.ts':
      'export default $config({ app() { return { name: "polls" }; }, async run() { await import("./infra/api"); } });\n',
    'infra/api.ts': [
      'const table = new sst.aws.Dynamo("Polls", {',
      '  fields: { pk: "string", sk: "string" },',
      '  primaryIndex: { hashKey: "pk", rangeKey: "sk" },',
      '});',
      'const api = new sst.aws.ApiGatewayV2("Api");',
      'api.route("POST /vote", {',
      '  handler: "functions/src/functions/vote.handler",',
      '  runtime: "python3.12",',
      '  link: [table],',
      '});',
      '',
    ].join('\n'),
    'functions/src/functions/vote.py': [
      'import boto3',
      'from sst import Resource',
      '',
      'table = boto3.resource("dynamodb").Table(Resource.Polls.name)',
      '',
      '',
      'def handler(event, context):',
      '    table.update_item(',
      '        Key={"pk": "STATS", "sk": "TOTAL"},',
      '        UpdateExpression="ADD votes :one",',
      '        ExpressionAttributeValues={":one": 1},',
      '    )',
      '    return {"statusCode": 204}',
      '',
    ].join('\n'),
  });
  const counter = found.find((f) => f.at === 'functions/src/functions/vote.py:9' && f.rule === 'SL004');
  assert.ok(counter, found.map((f) => `${f.rule} ${f.at}`).join(', '));
  assert.equal(counter.severity, 'warning');
  assert.match(counter.message, /on table Resource\.Polls\.name/);
  assert.match(counter.message, /Reached from POST \/vote \(infra\/api\.ts:6\)/);
  const insights = found.find((f) => f.rule === 'SL013');
  assert.match(insights?.message ?? '', /Table Polls has 1 hot-key finding/);
});

test('an SST app is never one whose entry points are all known: a call nothing reaches keeps its severity', async () => {
  const counter = lines(
    'import { DynamoDBClient } from "@aws-sdk/client-dynamodb";',
    'import { DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";',
    'import { Resource } from "sst";',
    '',
    'const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
    '',
    'export async function bump() {',
    '  await doc.send(new UpdateCommand({ TableName: Resource.Polls.name, Key: { pk: "TOTAL" }, UpdateExpression: "ADD n :one", ExpressionAttributeValues: { ":one": 1 } }));',
    '}',
  );
  const found = await findingsOf({
    'package.json': '{ "name": "polls" }\n',
    // Components made in the config itself, at the app's root.
    'sst.config.ts': lines(
      'export default $config({',
      '  app() { return { name: "polls" }; },',
      '  async run() {',
      '    const table = new sst.aws.Dynamo("Polls", { fields: { pk: "string" }, primaryIndex: { hashKey: "pk" } });',
      '    new sst.aws.Function("Api", { handler: "src/api.handler", url: true, link: [table] });',
      '    new sst.aws.Nextjs("Web", { link: [table] });',
      '  },',
      '});',
    ),
    'src/api.ts': 'export const handler = async () => ({ statusCode: 200 });\n',
    'src/counter.ts': counter,
  });
  const f = found.find((x) => x.at === 'src/counter.ts:8' && x.rule === 'SL004');
  assert.ok(f, found.map((x) => `${x.rule} ${x.at}`).join(', '));
  assert.equal(f.severity, 'warning');
  assert.doesNotMatch(f.message, /no entry point reaches this call/);
});
