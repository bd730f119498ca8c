import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readInfrastructure, isInfrastructureCandidate } from '../../server/src/engine/frontends/infra';
import { initParsers } from '../../server/src/engine/syntax/parser';
import type { InfraDeclarations, InfraFunction } from '../../server/src/engine/model/entry-point';
import { checkJson } from './check-json';

/**
 * Terraform read with the tree-sitter Terraform grammar: a module split over files the
 * way projects split it (variables.tf, main.tf, dynamodb.tf, api.tf), with variables,
 * locals, archive_file sources, a schedule rule and target, a Scheduler schedule, an SQS
 * mapping, an HTTP API route and a table with both index kinds.
 */

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'infra');

before(() => initParsers());

function read(rel: string): InfraDeclarations {
  const file = path.join(FIXTURES, rel);
  const out = readInfrastructure(file, fs.readFileSync(file, 'utf8'));
  assert.ok(out, `${rel} is read as infrastructure`);
  assert.equal(out.format, 'terraform');
  return out;
}

function fn(d: InfraDeclarations, name: string): InfraFunction {
  const f = d.functions.find((x) => x.name === name);
  assert.ok(f, `function ${name} among ${d.functions.map((x) => x.name).join(', ')}`);
  return f;
}

const rel = (f: string | null) => (f ? path.relative(FIXTURES, f).split(path.sep).join('/') : null);

test('.tf files are infrastructure candidates', () => {
  assert.ok(isInfrastructureCandidate('infra/main.tf'));
  assert.ok(!isInfrastructureCandidate('infra/terraform.tfstate'));
});

test('functions: archive_file sources lead to the handler, locals and variables resolve, tables across files', () => {
  const d = read('terraform-app/infra/main.tf');
  assert.deepEqual(d.tables, [], 'main.tf declares no table');
  const vote = fn(d, 'aws_lambda_function.vote');
  assert.equal(vote.runtime, 'nodejs20.x');
  assert.equal(vote.handler, 'index.handler');
  // source_dir = "${local.src_root}/vote", src_root = "${path.module}/../src"
  assert.equal(rel(vote.handlerFile), 'terraform-app/src/vote/index.js');
  assert.equal(vote.handlerFunction, 'handler');
  // The table is declared in dynamodb.tf: named by its name, a hole for the variable without default.
  assert.deepEqual(vote.environment.TABLE_NAME, { kind: 'template', text: 'polls-{$var.stage}-votes' });
  assert.deepEqual(vote.environment.STAGE, { kind: 'template', text: '{$var.stage}' });
  assert.deepEqual(vote.environment.LOG_LEVEL, { kind: 'text', text: 'info' });
  const tally = fn(d, 'aws_lambda_function.tally');
  // source_file: the handler's module is that file.
  assert.equal(rel(tally.handlerFile), 'terraform-app/src/tally/app.py');
  assert.deepEqual(tally.environment.RESULTS_KEY, { kind: 'opaque', text: 'upper(var.app)' });
});

test('triggers: a rule with its target, a Scheduler schedule, an SQS mapping with batch size, an HTTP route', () => {
  const d = read('terraform-app/infra/main.tf');
  const tally = fn(d, 'aws_lambda_function.tally');
  assert.deepEqual(
    tally.triggers.map((t) => [t.kind, t.name, t.trigger, t.ratePerHour]),
    [
      ['schedule', 'aws_cloudwatch_event_rule.tally_every_5m', 'rate(5 minutes)', 12],
      ['schedule', 'aws_scheduler_schedule.nightly', 'cron(0 3 * * ? *)', 1 / 24],
    ],
  );
  assert.equal(rel(tally.triggers[0].file), 'terraform-app/src/tally/app.py');
  const vote = fn(d, 'aws_lambda_function.vote');
  const queue = vote.triggers.find((t) => t.kind === 'queue');
  assert.equal(queue?.name, 'aws_sqs_queue.votes');
  assert.equal(queue?.batchSize, 25, 'var.tally_batch_size has default 25');
  const api = vote.triggers.find((t) => t.kind === 'api');
  assert.equal(api?.trigger, 'POST /polls/{pollId}/votes');
  // The route is declared in api.tf, beside the function's main.tf: its place is there.
  assert.equal(rel(api!.source.file), 'terraform-app/infra/api.tf');
  const apiLines = fs.readFileSync(path.join(FIXTURES, 'terraform-app/infra/api.tf'), 'utf8').split('\n');
  assert.match(apiLines[api!.source.span.startLine], /resource "aws_apigatewayv2_route" "post_vote"/);
  const lines = fs.readFileSync(path.join(FIXTURES, 'terraform-app/infra/main.tf'), 'utf8').split('\n');
  assert.equal(rel(tally.triggers[1].source.file), 'terraform-app/infra/main.tf');
  assert.match(lines[tally.triggers[1].source.span.startLine], /resource "aws_scheduler_schedule" "nightly"/);
});

test('triggers: the routes of a WebSocket API (protocol_type WEBSOCKET) run per message, named by their route key', () => {
  const d = read('terraform-websocket/infra/main.tf');
  const routes = (name: string) =>
    fn(d, name).triggers.map((t) => [t.kind, t.name, t.trigger, t.ratePerHour, rel(t.source.file)]);
  const ws = 'terraform-websocket/infra/websocket.tf';
  assert.deepEqual(routes('aws_lambda_function.connect'), [['websocket', '$connect', 'websocket $connect', null, ws]]);
  assert.deepEqual(routes('aws_lambda_function.disconnect'), [
    ['websocket', '$disconnect', 'websocket $disconnect', null, ws],
  ]);
  assert.deepEqual(routes('aws_lambda_function.send_message'), [
    ['websocket', 'sendmessage', 'websocket sendmessage', null, ws],
  ]);
  // An HTTP API's routes stay API requests.
  assert.equal(
    fn(read('terraform-app/infra/main.tf'), 'aws_lambda_function.vote').triggers.find((t) => t.kind === 'api')?.trigger,
    'POST /polls/{pollId}/votes',
  );
});

test('shardlens check: a counter bumped by every WebSocket message is reached from its route, at the route', () => {
  const report = checkJson(FIXTURES, 'terraform-websocket');
  const counter = report.findings.find((f) => f.file === 'terraform-websocket/src/send_message/app.py');
  assert.equal(counter?.rule, 'SL004');
  assert.match(counter!.message, /Reached from the WebSocket route sendmessage \(.*websocket\.tf:\d+\)/);
  const put = report.accesses.find((a) => a.file === 'terraform-websocket/src/connect/app.py');
  assert.deepEqual(
    put?.entryPoints?.map((e) => [e.kind, e.trigger]),
    [['websocket', 'websocket $connect']],
  );
});

test('a function whose code is in S3 is kept without a file and skipped with why', () => {
  const d = read('terraform-app/infra/main.tf');
  assert.equal(fn(d, 'aws_lambda_function.legacy').handlerFile, null);
  assert.deepEqual(
    d.skipped.map((s) => s.reason),
    ['aws_lambda_function.legacy: no filename: the code is in S3 or an image, not in this workspace'],
  );
});

test('tables: key schema with attribute types, a GSI and an LSI, billing, capacity, Contributor Insights', () => {
  const d = read('terraform-app/infra/dynamodb.tf');
  const votes = d.tables.find((t) => t.logicalId === 'aws_dynamodb_table.votes')!;
  assert.equal(votes.tableName, 'polls-{$var.stage}-votes');
  assert.deepEqual(votes.partitionKey, { name: 'PK', type: 'S' });
  assert.deepEqual(votes.sortKey, { name: 'SK', type: 'S' });
  assert.deepEqual(votes.indexes, [
    {
      name: 'byPoll',
      kind: 'global',
      partitionKey: { name: 'pollId', type: 'S' },
      sortKey: { name: 'createdAt', type: 'N' },
    },
    {
      name: 'byCreated',
      kind: 'local',
      partitionKey: { name: 'PK', type: 'S' },
      sortKey: { name: 'createdAt', type: 'N' },
    },
  ]);
  assert.equal(votes.billingMode, 'PAY_PER_REQUEST');
  assert.equal(votes.contributorInsights, true);
  const audit = d.tables.find((t) => t.logicalId === 'aws_dynamodb_table.audit')!;
  assert.equal(audit.tableName, 'audit-log');
  assert.deepEqual(audit.capacity, { read: 5, write: 20 });
  assert.equal(audit.billingMode, 'PROVISIONED');
  assert.equal(audit.contributorInsights, null);
});

test('a table in the same file is referenced by address', () => {
  const file = path.join(FIXTURES, 'terraform-app/infra/inline.tf');
  const text = [
    'resource "aws_dynamodb_table" "scores" {',
    '  name     = "scores"',
    '  hash_key = "id"',
    '  attribute {',
    '    name = "id"',
    '    type = "S"',
    '  }',
    '}',
    'resource "aws_lambda_function" "f" {',
    '  handler  = "index.handler"',
    '  filename = "build/f.zip"',
    '  environment {',
    '    variables = { SCORES = aws_dynamodb_table.scores.id }',
    '  }',
    '}',
  ].join('\n');
  const d = readInfrastructure(file, text)!;
  const f = fn(d, 'aws_lambda_function.f');
  assert.deepEqual(f.environment.SCORES, { kind: 'table', logicalId: 'aws_dynamodb_table.scores' });
  assert.match(d.skipped[0].reason, /filename build\/f\.zip is a built package/);
});

test('malformed HCL is skipped with its reason and line, never a crash', () => {
  const d = read('terraform-bad/main.tf');
  assert.deepEqual([d.functions, d.tables], [[], []]);
  assert.match(d.unread ?? '', /^malformed HCL: .* at line \d+/);
  assert.equal(d.skipped.length, 1);
  for (const hostile of ['', '{{{{', 'resource "a" "b" {', '"\\u', 'x = ${', '\u0000\u0000'])
    assert.doesNotThrow(() => readInfrastructure('/tmp/x/main.tf', hostile));
});

test('shardlens check: $TABLE_NAME in a Terraform-deployed handler is the module table, keyed by its schema', () => {
  const report = checkJson(FIXTURES, 'terraform-app');
  const tally = report.accesses.find((a) => a.file === 'terraform-app/src/tally/app.py');
  assert.equal(tally?.table, 'polls-{$var.stage}-votes');
  assert.equal(tally?.partitionKey.attribute, 'PK');
  assert.ok(report.findings.some((f) => f.file === 'terraform-app/src/tally/app.py' && f.rule === 'SL004'));
  assert.ok(report.functions?.some((f) => f.name === 'aws_lambda_function.vote'));
  assert.ok(report.tables?.some((t) => t.logicalId === 'aws_dynamodb_table.votes'));
});
