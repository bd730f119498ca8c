import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ratePerHour, readInfrastructure, type InfraFiles } from '../../server/src/engine/frontends/infra';
import { initParsers } from '../../server/src/engine/syntax/parser';
import type { InfraDeclarations, InfraFunction } from '../../server/src/engine/model/entry-point';

/**
 * The infrastructure readers on templates written the way projects write them: SAM
 * with Globals and an esbuild build, a CloudFormation JSON template with rules,
 * schedules and an event source mapping, a Serverless service with variables.
 */

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'infra');

function read(rel: string): InfraDeclarations {
  const file = path.join(FIXTURES, rel);
  const out = readInfrastructure(file, fs.readFileSync(file, 'utf8'));
  assert.ok(out, `${rel} is read as infrastructure`);
  return out;
}

function fn(d: InfraDeclarations, name: string): InfraFunction {
  const f = d.functions.find((x) => x.name === name);
  assert.ok(f, `function ${name} among ${d.functions.map((x) => x.name).join(', ')}`);
  return f;
}

const rel = (f: string | null) => (f ? path.relative(FIXTURES, f).split(path.sep).join('/') : null);
const triggers = (f: InfraFunction) => f.triggers.map((t) => [t.kind, t.trigger, t.ratePerHour]);

test('SAM: Globals environment, a !Ref table, an esbuild entry point and a CodeUri handler', () => {
  const d = read('sam-app/template.yaml');
  assert.equal(d.format, 'sam');
  const vote = fn(d, 'VoteFunction');
  assert.equal(rel(vote.handlerFile), 'sam-app/src/handlers/vote.ts');
  assert.equal(vote.handlerFunction, 'handler');
  assert.equal(vote.runtime, 'nodejs20.x');
  assert.deepEqual(vote.environment.TABLE_NAME, { kind: 'table', logicalId: 'VotesTable' });
  assert.deepEqual(vote.environment.POWERTOOLS_SERVICE_NAME, { kind: 'text', text: 'polls' });
  assert.deepEqual(triggers(vote), [
    ['api', 'POST /polls/{pollId}/votes', null],
    ['api', 'POST /v2/votes', null],
  ]);
  // The function's own variables win over Globals.
  const tally = fn(d, 'TallyFunction');
  assert.equal(rel(tally.handlerFile), 'sam-app/src/handlers/tally.js');
  assert.deepEqual(tally.environment.TABLE_NAME, { kind: 'table', logicalId: 'TalliesTable' });
  assert.equal(tally.environment.QUEUE_URL.kind, 'opaque');
  const session = fn(d, 'SessionFunction');
  assert.equal(rel(session.handlerFile), 'sam-app/src/handlers/session.py');
});

test('SAM: every event type as an entry point, with rates and batch sizes', () => {
  const tally = fn(read('sam-app/template.yaml'), 'TallyFunction');
  assert.deepEqual(triggers(tally), [
    ['schedule', 'rate(5 minutes)', 12],
    ['schedule', 'cron(0 3 * * ? *)', 1 / 24],
    ['queue', 'SQS TallyQueue, batchSize 10', null],
    ['stream', 'DynamoDB TalliesTable, batchSize 100', null],
    ['event', 'EventBridgeRule source polls.admin', null],
    ['schedule', 'rate(1 hour)', 1],
    ['event', 'SNS AlertsTopic', null],
    ['event', 'S3 UploadsBucket s3:ObjectCreated:*', null],
    ['stream', 'Kinesis ClickStream', null],
  ]);
  assert.equal(tally.triggers[2].batchSize, 10);
  // Each entry point leads to the handler and says where the template declares it (zero-based lines).
  const every5 = tally.triggers[0];
  assert.equal(rel(every5.file), 'sam-app/src/handlers/tally.js');
  assert.equal(every5.functionName, 'handler');
  const lines = fs.readFileSync(path.join(FIXTURES, 'sam-app/template.yaml'), 'utf8').split('\n');
  assert.match(lines[every5.source.span.startLine], /Type: Schedule/);
});

test('SAM: tables with key schema, indexes, billing, capacity and Contributor Insights; SimpleTable defaults', () => {
  const d = read('sam-app/template.yaml');
  const votes = d.tables.find((t) => t.logicalId === 'VotesTable')!;
  assert.equal(votes.tableName, '{$Stage}-poll-votes');
  assert.deepEqual(votes.partitionKey, { name: 'poll', type: 'S' });
  assert.deepEqual(votes.sortKey, { name: 'voter', type: 'S' });
  assert.deepEqual(votes.indexes, [
    { name: 'byRegion', kind: 'global', partitionKey: { name: 'region', type: 'S' }, sortKey: null },
  ]);
  assert.equal(votes.billingMode, 'PAY_PER_REQUEST');
  assert.equal(votes.contributorInsights, true);
  const tallies = d.tables.find((t) => t.logicalId === 'TalliesTable')!;
  assert.equal(tallies.tableName, null, 'a table without TableName has no physical name the template states');
  assert.deepEqual(tallies.capacity, { read: 5, write: 25 });
  assert.equal(tallies.billingMode, 'PROVISIONED');
  const sessions = d.tables.find((t) => t.logicalId === 'SessionsTable')!;
  assert.deepEqual(sessions.partitionKey, { name: 'sessionId', type: 'S' });
  assert.equal(sessions.billingMode, 'PAY_PER_REQUEST');
  const lines = fs.readFileSync(path.join(FIXTURES, 'sam-app/template.yaml'), 'utf8').split('\n');
  assert.match(lines[votes.source.span.startLine], /Type: AWS::DynamoDB::Table/);
});

test('SAM: a handler that leads nowhere is kept with no file and skipped with why', () => {
  const d = read('sam-app/template.yaml');
  const missing = fn(d, 'MissingFunction');
  assert.equal(missing.handlerFile, null);
  assert.equal(d.skipped.length, 1);
  assert.match(d.skipped[0].reason, /MissingFunction: handler "missing\.handler" leads to no source file/);
});

test('intrinsic tags in every form: scalar, list and map, short and long', () => {
  const d = read('sam-app/template.yaml');
  const env = fn(d, 'SessionFunction').environment;
  assert.deepEqual(env.CONFIG, { kind: 'template', text: '{$Stage}-config' }, '!Join of !Ref and text');
  assert.equal(env.LOOKUP.kind, 'opaque', '!FindInMap');
  assert.equal(env.SHARED.kind, 'opaque', '!ImportValue');
  assert.equal(env.MODE.kind, 'opaque', '!If');
  assert.deepEqual(env.STAGE, { kind: 'template', text: '{$Stage}' }, '!Ref of a parameter');
  const yaml = [
    'Resources:',
    '  T:',
    '    Type: AWS::DynamoDB::Table',
    '    Properties:',
    '      TableName: !Sub "${AWS::StackName}-t-${!Literal}"',
    '      KeySchema: [{ AttributeName: id, KeyType: HASH }]',
    '  F:',
    '    Type: AWS::Lambda::Function',
    '    Properties:',
    '      Handler: index.handler',
    '      Environment:',
    '        Variables:',
    '          A: !GetAtt [T, Arn]',
    '          B: { "Fn::GetAtt": "T.Arn" }',
    '          C: !GetAtt T.StreamArn',
    '          D: { Ref: T }',
    '          E: !Custom thing',
  ].join('\n');
  const files: InfraFiles = { exists: (f) => f.endsWith('index.js'), read: () => 'exports.handler = async () => {};' };
  const t = readInfrastructure('/p/template.yaml', yaml, files)!;
  assert.equal(t.format, 'cloudformation');
  assert.equal(t.tables[0].tableName, '{$AWS::StackName}-t-${Literal}');
  const e = t.functions[0].environment;
  assert.deepEqual(e.A, { kind: 'table', logicalId: 'T' });
  assert.deepEqual(e.B, { kind: 'table', logicalId: 'T' });
  assert.equal(e.C.kind, 'opaque', 'a stream ARN is no table name');
  assert.deepEqual(e.D, { kind: 'table', logicalId: 'T' });
  assert.deepEqual(e.E, { kind: 'text', text: 'thing' }, 'an unknown tag reads as its plain value');
  assert.equal(t.functions[0].handlerFile, path.join('/p', 'index.js'));
});

test('CloudFormation JSON: Lambda function, rule and scheduler targets, an event source mapping, global table', () => {
  const d = read('cfn-json/orders.template.json');
  assert.equal(d.format, 'cloudformation');
  const f = fn(d, 'OrdersFunction');
  assert.equal(rel(f.handlerFile), 'cfn-json/src/orders/api.py', 'a dotted Python module under Code');
  assert.deepEqual(f.environment.ORDERS_TABLE, { kind: 'table', logicalId: 'OrdersTable' });
  assert.deepEqual(f.environment.AUDIT_TABLE, { kind: 'table', logicalId: 'AuditTable' });
  assert.deepEqual(triggers(f), [
    ['schedule', 'cron(0/15 * * * ? *)', 4],
    ['event', 'EventBridge source payments', null],
    ['schedule', 'rate(2 hours)', 0.5],
    ['queue', 'SQS OrderQueue, batchSize 25', null],
  ]);
  const orders = d.tables.find((t) => t.logicalId === 'OrdersTable')!;
  assert.equal(orders.tableName, 'orders');
  assert.deepEqual(orders.capacity, { read: 50, write: 100 });
  assert.deepEqual(orders.indexes[0], {
    name: 'byStatus',
    kind: 'global',
    partitionKey: { name: 'status', type: 'S' },
    sortKey: { name: 'placedAt', type: 'N' },
  });
  const audit = d.tables.find((t) => t.logicalId === 'AuditTable')!;
  assert.equal(audit.tableName, 'orders-audit-{$AWS::Region}');
  assert.equal(audit.contributorInsights, true, 'enabled on a replica');
  // JSON positions too.
  const lines = fs.readFileSync(path.join(FIXTURES, 'cfn-json/orders.template.json'), 'utf8').split('\n');
  assert.match(lines[orders.source.span.startLine], /"OrdersTable": \{/);
});

test('CloudFormation: WebSocket and HTTP API routes reach their function through the integration', () => {
  const d = read('websocket-api/template.yaml');
  // Target written as !Join and as !Sub; IntegrationUri as a !Sub ARN, a Fn::Join and a bare !GetAtt.
  assert.deepEqual(triggers(fn(d, 'ConnectFunction')), [['websocket', 'websocket $connect', null]]);
  assert.deepEqual(triggers(fn(d, 'SendFunction')), [
    ['websocket', 'websocket sendMessage', null],
    ['api', 'GET /rooms', null],
  ]);
});

test('Serverless: variables within the file, per-function environment, a list of rates, every event type', () => {
  const d = read('serverless-scores/serverless.yml');
  assert.equal(d.format, 'serverless');
  const record = fn(d, 'record');
  assert.equal(rel(record.handlerFile), 'serverless-scores/src/handlers/record.ts');
  assert.deepEqual(record.environment.SCORES_TABLE, { kind: 'template', text: 'scores-{$sls:stage}' });
  assert.deepEqual(record.environment.LOG_LEVEL, { kind: 'template', text: '{$env:LOG_LEVEL}' });
  assert.deepEqual(record.environment.STAGE, { kind: 'template', text: '{$opt:stage}' });
  assert.deepEqual(triggers(record), [
    ['api', 'POST /scores', null],
    ['api', 'GET /scores/{player}', null],
  ]);
  const rollup = fn(d, 'rollup');
  assert.deepEqual(rollup.environment.ROLLUP_TABLE, { kind: 'table', logicalId: 'RollupTable' });
  assert.ok(rollup.environment.SCORES_TABLE, 'provider.environment applies to every function');
  assert.deepEqual(triggers(rollup), [
    ['schedule', 'rate(10 minutes)', 6],
    ['schedule', 'cron(0 3 * * ? *)', 1 / 24],
    ['schedule', 'rate(1 hour)', 1],
  ]);
  assert.deepEqual(triggers(fn(d, 'consume')), [
    ['queue', 'SQS ScoreQueue, batchSize 5', null],
    ['stream', 'dynamodb ScoresTable, batchSize 50', null],
  ]);
  assert.deepEqual(triggers(fn(d, 'socket')), [
    ['websocket', 'websocket $connect', null],
    ['websocket', 'websocket $disconnect', null],
  ]);
  assert.deepEqual(triggers(fn(d, 'notify')), [
    ['event', 'sns score-alerts', null],
    ['event', 's3 score-uploads', null],
    ['event', 'eventBridge source scores.admin', null],
    ['schedule', 'rate(30 minutes)', 2],
  ]);
  const scores = d.tables.find((t) => t.logicalId === 'ScoresTable')!;
  assert.equal(scores.tableName, 'scores-{$sls:stage}');
  assert.deepEqual(scores.partitionKey, { name: 'PK', type: 'S' });
  assert.equal(d.tables.find((t) => t.logicalId === 'RollupTable')!.tableName, null);
});

test('serverless.ts: a plain object literal is read; a computed one is skipped with why', async () => {
  // With the grammars loaded, as a check loads them for a serverless.ts: what is computed is followed where it can be.
  await initParsers();
  const files: InfraFiles = {
    exists: (f) => f.endsWith(path.join('src', 'hello.ts')),
    read: () => 'export const main = 1;',
  };
  const plain = [
    "import type { AWS } from '@serverless/typescript';",
    '',
    'const serverlessConfiguration: AWS = {',
    "  service: 'hello', // the service",
    "  provider: { name: 'aws', runtime: 'nodejs20.x', environment: { TABLE: 'hello-table' } },",
    '  functions: {',
    "    hello: { handler: 'src/hello.main', events: [{ schedule: 'rate(15 minutes)' }] },",
    '  },',
    '};',
    '',
    'module.exports = serverlessConfiguration;',
  ].join('\n');
  const d = readInfrastructure('/svc/serverless.ts', plain, files)!;
  assert.deepEqual(d.skipped, []);
  const hello = fn(d, 'hello');
  assert.equal(hello.handlerFile, path.join('/svc', 'src', 'hello.ts'));
  assert.equal(hello.handlerFunction, 'main');
  assert.deepEqual(hello.environment.TABLE, { kind: 'text', text: 'hello-table' });
  assert.deepEqual(triggers(hello), [['schedule', 'rate(15 minutes)', 4]]);
  assert.equal(hello.triggers[0].source.span.startLine, 6, 'positions are those of the .ts file');
  const computed = plain.replace("handler: 'src/hello.main'", 'handler: `${handlerPath(__dirname)}/handler.main`');
  // `handlerPath(__dirname)` is the folder of the file that calls it, from the service folder.
  const followed = readInfrastructure('/svc/serverless.ts', computed, files)!;
  assert.deepEqual(
    followed.functions.map((f) => f.handler),
    ['./handler.main'],
  );
  const spread = readInfrastructure('/svc/serverless.ts', computed.replace("service: 'hello',", '...base,'), files)!;
  assert.equal(spread.functions.length, 0);
  assert.match(spread.skipped[0].reason, /template literals/);
  const named = readInfrastructure(
    '/svc/serverless.ts',
    plain.replace(/functions: \{[\s\S]*?\n {2}\},/, 'functions: { hello },'),
    files,
  )!;
  assert.match(named.skipped[0].reason, /names `hello`/);
});

test('schedules: rate and cron expressions, and those not computed', () => {
  assert.equal(ratePerHour('rate(1 minute)'), 60);
  assert.equal(ratePerHour('rate(5 minutes)'), 12);
  assert.equal(ratePerHour('rate(2 hours)'), 0.5);
  assert.equal(ratePerHour('rate(1 day)'), 1 / 24);
  assert.equal(ratePerHour('cron(0/15 * * * ? *)'), 4);
  assert.equal(ratePerHour('cron(*/10 * * * ? *)'), 6);
  assert.equal(ratePerHour('cron(0 * * * ? *)'), 1);
  assert.equal(ratePerHour('cron(0 */6 * * ? *)'), 4 / 24);
  assert.equal(ratePerHour('cron(30 8-17 * * ? *)'), 10 / 24);
  assert.equal(ratePerHour('cron(0 3 * * ? *)'), 1 / 24);
  assert.equal(ratePerHour('cron(0 12 ? * MON-FRI *)'), null, 'weekdays only: not the same every day');
  assert.equal(ratePerHour('cron(0 12 1 * ? *)'), null, 'monthly');
  assert.equal(ratePerHour('at(2026-01-01T00:00:00)'), null);
  assert.equal(ratePerHour('rate(0 minutes)'), null);
});

test('not infrastructure: other YAML and JSON give null', () => {
  assert.equal(readInfrastructure('/p/.github/workflows/ci.yml', 'on: push\njobs: {}\n'), null);
  assert.equal(readInfrastructure('/p/config.json', '{"a": 1}'), null);
});
