import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { diskFiles, importsCdk } from '../../server/src/engine/frontends/infra';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { readCdkSource } from '../../server/src/engine/workspace/cdk-source';
import { collectFiles } from '../../server/src/engine/workspace/files';
import type { InfraDeclarations, InfraFunction, InfraTable } from '../../server/src/engine/model/entry-point';
import { checkJson } from './check-json';

/**
 * AWS CDK apps read as infrastructure code through the TypeScript and Python front-ends:
 * a TypeScript app (bin/app.ts + lib/polls-stack.ts: a TableV2 and a Table, a
 * NodejsFunction behind a REST API route, a Function on a schedule, a NodejsFunction
 * found by the CDK's entry convention consuming a queue) and a Python app (app.py +
 * stacks/scores_stack.py: a Table with an index, an HTTP API route, a nightly cron
 * rule, a DynamoDB stream consumer), each handler reading `TABLE_NAME` from its environment.
 */

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'infra');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cdk-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
before(() => initParsers());

const rel = (f: string | null) => (f ? path.relative(FIXTURES, f).split(path.sep).join('/') : null);

function read(file: string): InfraDeclarations {
  const out = readCdkSource(file, fs.readFileSync(file, 'utf8'), diskFiles);
  assert.ok(out, `${file} is read as CDK code`);
  assert.equal(out.format, 'cdk');
  return out;
}

function fn(d: InfraDeclarations, name: string): InfraFunction {
  const f = d.functions.find((x) => x.name === name);
  assert.ok(f, `function ${name} among ${d.functions.map((x) => x.name).join(', ')}`);
  return f;
}

function table(d: InfraDeclarations, logicalId: string): InfraTable {
  const t = d.tables.find((x) => x.logicalId === logicalId);
  assert.ok(t, `table ${logicalId} among ${d.tables.map((x) => x.logicalId).join(', ')}`);
  return t;
}

const triggers = (f: InfraFunction) =>
  f.triggers.map((t) => ({ kind: t.kind, trigger: t.trigger, ratePerHour: t.ratePerHour, batchSize: t.batchSize }));

/** A CDK app written into the temporary folder: `cdk.json` and the given files. */
function app(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'cdk.json'), '{ "app": "npx ts-node bin/app.ts" }\n');
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), text);
  }
  return dir;
}

test('only files importing the CDK are read: v2, v1 and Python imports', () => {
  assert.ok(importsCdk("import * as cdk from 'aws-cdk-lib';"));
  assert.ok(importsCdk("import { Table } from '@aws-cdk/aws-dynamodb';"));
  assert.ok(importsCdk('from aws_cdk import Stack, aws_lambda as _lambda'));
  assert.ok(importsCdk('import aws_cdk as cdk'));
  assert.ok(!importsCdk("import { DynamoDBClient } from '@aws-sdk/client-dynamodb';"));
  assert.ok(!importsCdk('# see aws_cdk docs\nimport boto3'));
  const handler = path.join(FIXTURES, 'cdk-app/lambda/vote.ts');
  assert.equal(readCdkSource(handler, fs.readFileSync(handler, 'utf8'), diskFiles), null);
});

test('TypeScript: functions lead to their handler files (asset folder, entry, the entry convention)', () => {
  const d = read(path.join(FIXTURES, 'cdk-app/lib/polls-stack.ts'));
  const vote = fn(d, 'VoteFunction');
  assert.equal(vote.runtime, 'nodejs20.x');
  // entry: path.join(__dirname, '../lambda/vote.ts')
  assert.equal(rel(vote.handlerFile), 'cdk-app/lambda/vote.ts');
  assert.equal(vote.handlerFunction, 'handler');
  // handler: 'tally.handler' under Code.fromAsset('lambda'), relative to the folder of cdk.json.
  const tally = fn(d, 'TallyFunction');
  assert.equal(tally.handler, 'tally.handler');
  assert.equal(rel(tally.handlerFile), 'cdk-app/lambda/tally.js');
  // No entry: <stack file>.<id>.ts beside the stack.
  assert.equal(rel(fn(d, 'archive').handlerFile), 'cdk-app/lib/polls-stack.archive.ts');
  // Code in a bucket: declared, with no file, and skipped with why.
  const report = fn(d, 'ReportFunction');
  assert.equal(report.handlerFile, null);
  assert.equal(d.skipped.length, 1);
  assert.match(d.skipped[0].reason, /^ReportFunction: code lambda\.Code\.fromBucket\(.*\) is not an asset folder/);
  assert.equal(d.skipped[0].source.span.startLine, 81);
});

test('TypeScript: triggers from a REST API resource chain, a schedule rule and an SQS event source', () => {
  const d = read(path.join(FIXTURES, 'cdk-app/lib/polls-stack.ts'));
  assert.deepEqual(triggers(fn(d, 'VoteFunction')), [
    { kind: 'api', trigger: 'POST /polls/{pollId}/votes', ratePerHour: null, batchSize: undefined },
  ]);
  assert.deepEqual(triggers(fn(d, 'TallyFunction')), [
    { kind: 'schedule', trigger: 'rate(30 minutes)', ratePerHour: 2, batchSize: undefined },
  ]);
  assert.deepEqual(triggers(fn(d, 'archive')), [
    { kind: 'queue', trigger: 'SQS ClosedPolls, batchSize 25', ratePerHour: null, batchSize: 25 },
  ]);
  const schedule = fn(d, 'TallyFunction').triggers[0];
  assert.equal(schedule.name, 'TallySchedule');
  assert.equal(rel(schedule.file), 'cdk-app/lambda/tally.js');
  assert.equal(rel(schedule.source.file), 'cdk-app/lib/polls-stack.ts');
});

test('TypeScript: environment names tables by construct (props and addEnvironment); tables with keys and indexes', () => {
  const d = read(path.join(FIXTURES, 'cdk-app/lib/polls-stack.ts'));
  assert.deepEqual(fn(d, 'VoteFunction').environment, {
    TABLE_NAME: { kind: 'table', logicalId: 'VotesTable' },
    POWERTOOLS_SERVICE_NAME: { kind: 'text', text: 'polls' },
  });
  assert.deepEqual(fn(d, 'TallyFunction').environment, { TABLE_NAME: { kind: 'table', logicalId: 'TalliesTable' } });
  const votes = table(d, 'VotesTable');
  assert.equal(votes.tableName, null, 'the CDK names it at deploy time');
  assert.deepEqual(votes.partitionKey, { name: 'poll', type: 'S' });
  assert.deepEqual(votes.sortKey, { name: 'voter', type: 'S' });
  assert.deepEqual(votes.indexes, [
    {
      name: 'byChoice',
      kind: 'global',
      partitionKey: { name: 'choice', type: 'S' },
      sortKey: { name: 'votedAt', type: 'N' },
    },
  ]);
  // TableV2 is on demand unless it says otherwise.
  assert.equal(votes.billingMode, 'PAY_PER_REQUEST');
  assert.equal(votes.contributorInsights, null);
  const tallies = table(d, 'TalliesTable');
  assert.equal(tallies.tableName, 'poll-tallies');
  assert.equal(tallies.billingMode, 'PROVISIONED');
  assert.deepEqual(tallies.capacity, { read: 10, write: 20 });
  assert.equal(tallies.contributorInsights, true);
  assert.deepEqual(
    tallies.indexes.map((i) => [i.name, i.partitionKey.name, i.sortKey]),
    [['byDay', 'day', null]],
  );
});

test('the app file that only makes stacks declares nothing', () => {
  const d = read(path.join(FIXTURES, 'cdk-app/bin/app.ts'));
  assert.deepEqual([d.functions, d.tables, d.skipped], [[], [], []]);
});

test('Python: snake_case props, keyword constructs, HTTP API route, cron rule, stream source', () => {
  const d = read(path.join(FIXTURES, 'cdk-python/stacks/scores_stack.py'));
  assert.deepEqual(d.skipped, []);
  const submit = fn(d, 'SubmitScore');
  assert.equal(submit.runtime, 'python3.12');
  assert.equal(rel(submit.handlerFile), 'cdk-python/lambda/submit.py');
  assert.deepEqual(submit.environment, { TABLE_NAME: { kind: 'table', logicalId: 'ScoresTable' } });
  assert.deepEqual(triggers(submit), [
    { kind: 'api', trigger: 'POST /scores', ratePerHour: null, batchSize: undefined },
  ]);
  const reset = fn(d, 'ResetBoard');
  // add_environment after the construct; Schedule.cron(minute="0", hour="3"): once a day.
  assert.deepEqual(reset.environment, { TABLE_NAME: { kind: 'table', logicalId: 'ScoresTable' } });
  assert.deepEqual(triggers(reset), [
    { kind: 'schedule', trigger: 'cron(0 3 * * ? *)', ratePerHour: 1 / 24, batchSize: undefined },
  ]);
  assert.deepEqual(triggers(fn(d, 'Fanout')), [
    { kind: 'stream', trigger: 'DynamoDB ScoresTable, batchSize 100', ratePerHour: null, batchSize: 100 },
  ]);
  const scores = table(d, 'ScoresTable');
  assert.deepEqual(
    [scores.partitionKey, scores.sortKey],
    [
      { name: 'board', type: 'S' },
      { name: 'player', type: 'S' },
    ],
  );
  assert.deepEqual(scores.indexes, [
    {
      name: 'bySeason',
      kind: 'global',
      partitionKey: { name: 'season', type: 'S' },
      sortKey: { name: 'score', type: 'N' },
    },
  ]);
  assert.equal(scores.billingMode, 'PAY_PER_REQUEST');
});

test('more construct forms: LambdaRestApi, HttpApi default route, addTarget, PythonFunction, LSI, TableV2 billing', () => {
  const dir = app('forms', {
    'lib/stack.ts': `import * as cdk from 'aws-cdk-lib';
import { Billing, Capacity, TableV2, Table, AttributeType } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Code, Function, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LambdaRestApi } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { PythonFunction } from '@aws-cdk/aws-lambda-python-alpha';
import * as path from 'path';

interface Props extends cdk.StackProps { stage: string; table: Table }

export class FormsStack extends cdk.Stack {
  constructor(scope: cdk.App, id: string, props: Props) {
    super(scope, id, props);
    const orders = new TableV2(this, 'Orders', {
      tableName: \`\${props.stage}-orders\`,
      partitionKey: { name: 'customer', type: AttributeType.STRING },
      sortKey: { name: 'orderedAt', type: AttributeType.NUMBER },
      localSecondaryIndexes: [{ indexName: 'byStatus', sortKey: { name: 'status', type: AttributeType.STRING } }],
      billing: Billing.provisioned({ readCapacity: Capacity.fixed(50), writeCapacity: Capacity.autoscaled({ maxCapacity: 400, minCapacity: 40 }) }),
      contributorInsightsSpecification: { enabled: true },
    });
    const api = new Function(this, 'Api', {
      runtime: Runtime.NODEJS_18_X,
      handler: 'api.main',
      code: Code.fromAsset(path.join(__dirname, '..', 'functions')),
      environment: { ORDERS: orders.tableName, SHARED: props.table.tableName, STAGE: props.stage },
    });
    new LambdaRestApi(this, 'Rest', { handler: api });
    new HttpApi(this, 'Http', { defaultIntegration: new HttpLambdaIntegration('Default', api) });
    const hourly = new Rule(this, 'Hourly', { schedule: Schedule.expression('rate(1 hour)') });
    hourly.addTarget(new LambdaFunction(api));
    const weekly = new Rule(this, 'Weekly', { schedule: Schedule.cron({ minute: '0', hour: '6', weekDay: 'MON' }) });
    weekly.addTarget(new LambdaFunction(api));
    new PythonFunction(this, 'Report', { entry: 'report', index: 'main.py', handler: 'run' });
    new Function(this, 'Inline', { runtime: Runtime.NODEJS_20_X, handler: 'index.handler', code: Code.fromInline('exports.handler = 1') });
  }
}
`,
    'functions/api.ts': 'export async function main() {}\n',
    'report/main.py': 'def run(event, context):\n    pass\n',
  });
  const d = read(path.join(dir, 'lib/stack.ts'));
  const orders = table(d, 'Orders');
  assert.equal(orders.tableName, '{$props.stage}-orders');
  assert.deepEqual(orders.indexes, [
    {
      name: 'byStatus',
      kind: 'local',
      partitionKey: { name: 'customer', type: 'S' },
      sortKey: { name: 'status', type: 'S' },
    },
  ]);
  assert.equal(orders.billingMode, 'PROVISIONED');
  assert.deepEqual(orders.capacity, { read: 50, write: 40 });
  assert.equal(orders.contributorInsights, true);
  const api = fn(d, 'Api');
  assert.equal(api.handlerFile, path.join(dir, 'functions/api.ts'));
  assert.equal(api.handlerFunction, 'main');
  assert.equal(api.runtime, 'nodejs18.x');
  // No file of this app constructs the stack (the entry cdk.json names is not there): what its props give stays as written.
  assert.deepEqual(api.environment, {
    ORDERS: { kind: 'table', logicalId: 'Orders' },
    SHARED: { kind: 'opaque', text: 'props.table.tableName' },
    STAGE: { kind: 'opaque', text: 'props.stage' },
  });
  assert.deepEqual(
    api.triggers.map((t) => [t.kind, t.trigger, t.ratePerHour]),
    [
      ['api', 'ANY /{proxy+}', null],
      ['api', 'ANY /{proxy+}', null],
      ['schedule', 'rate(1 hour)', 1],
      // Only on Mondays: not the same every day, so no rate is stated.
      ['schedule', 'cron(0 6 ? * MON *)', null],
    ],
  );
  const report = fn(d, 'Report');
  assert.equal(report.handlerFile, path.join(dir, 'report/main.py'));
  assert.equal(report.handlerFunction, 'run');
  assert.deepEqual(
    d.skipped.map((s) => s.reason),
    ['Inline: inline code, no source file'],
  );
});

test('a grant links a function to the one table it may use when its variable is not readable', () => {
  const dir = app('grants', {
    'lib/stack.ts': `import { Stack } from 'aws-cdk-lib';
import * as ddb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
export class S extends Stack {
  constructor(scope: any, id: string, props: any) {
    super(scope, id, props);
    const sessions = new ddb.Table(this, 'Sessions', { partitionKey: { name: 'id', type: ddb.AttributeType.STRING } });
    const events = new ddb.Table(this, 'Events', { partitionKey: { name: 'id', type: ddb.AttributeType.STRING } });
    const one = new lambda.Function(this, 'One', { handler: 'a.handler', code: lambda.Code.fromAsset('src'), environment: { TABLE_NAME: props.sessionsName } });
    sessions.grantReadWriteData(one);
    const two = new lambda.Function(this, 'Two', { handler: 'a.handler', code: lambda.Code.fromAsset('src'), environment: { TABLE_NAME: props.name } });
    sessions.grantReadData(two);
    events.grantWriteData(two);
  }
}
`,
    'src/a.js': 'exports.handler = async () => {};\n',
  });
  const d = read(path.join(dir, 'lib/stack.ts'));
  assert.deepEqual(fn(d, 'One').environment, { TABLE_NAME: { kind: 'table', logicalId: 'Sessions' } });
  // Two tables granted: which one the variable names is not known.
  assert.deepEqual(fn(d, 'Two').environment, { TABLE_NAME: { kind: 'opaque', text: 'props.name' } });
});

test('unreadable constructs give a reason, hostile code never a crash', () => {
  const dir = app('hostile', {
    'lib/stack.ts': `import { Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
let a = a.b;
const loop1 = loop2.x; const loop2 = loop1.y;
export class S extends Stack {
  constructor(scope: any, id: string) {
    super(scope, id);
    new NodejsFunction(this, 'Computed', { entry: entries[id] });
    new NodejsFunction(this, 'Conventional');
    new lambda.Function(this, 'Nowhere', { handler: 'gone.handler', code: lambda.Code.fromAsset('missing') });
    new lambda.Function(this, 'NoHandler', { handler: handlers.main, code: lambda.Code.fromAsset('.') });
    new lambda.Function(this, 'Broken', { handler: 'x.handler', code: lambda.Code.fromAsset(
`,
  });
  const d = read(path.join(dir, 'lib/stack.ts'));
  const reasons = d.skipped.map((s) => s.reason);
  assert.deepEqual(reasons.slice(0, 4), [
    'Computed: entry entries[id] is not a path written in the code',
    'Conventional: no entry, and no stack.Conventional.ts beside the stack',
    `Nowhere: handler "gone.handler" leads to no source file (looked for ${path.join(dir, 'missing', 'gone')}.{ts,js,mjs,cjs,py})`,
    'NoHandler: no handler written as text',
  ]);
  const deep = `import * as cdk from 'aws-cdk-lib';\nconst v = ${'['.repeat(3000)}${']'.repeat(3000)};\n${'x = f('.repeat(500)}`;
  for (const [name, text] of [
    ['deep.ts', deep],
    ['bad.py', 'from aws_cdk import Stack\nclass S(Stack:\n  def __init__(self\n    x = x.y\n    self.a = self.a.b\n'],
    [
      'self.py',
      'import aws_cdk as cdk\nt = t\nclass S:\n    def m(self):\n        self.t = self.t\n        cdk.Fn(self, "F", handler=self.t)\n',
    ],
  ] as const) {
    const out = readCdkSource(path.join(dir, name), text, diskFiles);
    assert.ok(out, name);
    assert.equal(out.functions.length, 0, name);
  }
});

test('collectFiles lists a CDK app’s source files as infrastructure, and only below cdk.json', () => {
  const list = collectFiles([path.join(FIXTURES, 'cdk-app'), path.join(FIXTURES, 'sam-app')]);
  const infra = list.infrastructure.map(rel);
  assert.ok(infra.includes('cdk-app/lib/polls-stack.ts'));
  assert.ok(infra.includes('cdk-app/bin/app.ts'));
  assert.ok(!infra.some((f) => f?.startsWith('sam-app/src/')), 'no cdk.json: source files are not read as CDK code');
  assert.ok(list.files.map(rel).includes('cdk-app/lib/polls-stack.ts'), 'still analysed as source');
});

test('shardlens check: $TABLE_NAME in CDK-deployed handlers is the stack’s table, keyed by its schema', () => {
  const report = checkJson(FIXTURES, 'cdk-app', 'cdk-python');
  const put = report.accesses.filter((a) => a.file === 'cdk-app/lambda/vote.ts' && a.index === null);
  assert.equal(put.length, 1);
  // A construct with no tableName: the CDK names it at deploy time; the key schema is the stack's.
  assert.equal(put[0].table, '$TABLE_NAME');
  assert.deepEqual(put[0].tableFrom, {
    variable: 'TABLE_NAME',
    logicalId: 'VotesTable',
    file: 'cdk-app/lib/polls-stack.ts',
  });
  // The item lists `voter` first; the stack says `poll` is the partition key.
  assert.equal(put[0].partitionKey.attribute, 'poll');
  assert.ok(report.findings.some((f) => f.file === 'cdk-app/lambda/vote.ts' && f.rule === 'SL001'));
  // tableName: 'poll-tallies' is the physical name.
  const tally = report.accesses.find((a) => a.file === 'cdk-app/lambda/tally.js');
  assert.equal(tally?.table, 'poll-tallies');
  assert.equal(tally?.tableFrom?.file, 'cdk-app/lib/polls-stack.ts');
  const submit = report.accesses.find((a) => a.file === 'cdk-python/lambda/submit.py' && a.index === null);
  assert.deepEqual(submit?.tableFrom, {
    variable: 'TABLE_NAME',
    logicalId: 'ScoresTable',
    file: 'cdk-python/stacks/scores_stack.py',
  });
  assert.equal(submit?.partitionKey.attribute, 'board');
  assert.deepEqual(
    report.functions?.map((f) => [f.name, f.handlerFile]),
    [
      ['VoteFunction', 'cdk-app/lambda/vote.ts'],
      ['TallyFunction', 'cdk-app/lambda/tally.js'],
      ['archive', 'cdk-app/lib/polls-stack.archive.ts'],
      ['ReportFunction', null],
      ['SubmitScore', 'cdk-python/lambda/submit.py'],
      ['ResetBoard', 'cdk-python/lambda/reset.py'],
      ['Fanout', 'cdk-python/lambda/fanout.py'],
    ],
  );
  assert.equal(report.tables?.find((t) => t.logicalId === 'ScoresTable')?.file, 'cdk-python/stacks/scores_stack.py');
  assert.match(report.coverage?.infrastructure?.skipped[0].reason ?? '', /^ReportFunction: /);
});

test('the same handlers without their CDK app folder marker: nothing is bound', () => {
  const copy = path.join(tmp, 'no-cdk-json');
  fs.cpSync(path.join(FIXTURES, 'cdk-app'), copy, { recursive: true });
  fs.rmSync(path.join(copy, 'cdk.json'));
  const report = checkJson(copy, '.');
  const put = report.accesses.find((a) => a.file === 'lambda/vote.ts' && a.index === null);
  assert.equal(put?.table, '$TABLE_NAME');
  assert.equal(put?.tableFrom, undefined);
  assert.equal(report.functions, undefined);
});
