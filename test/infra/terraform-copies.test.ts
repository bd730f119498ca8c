import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readInfrastructure, isInfrastructureCandidate } from '../../server/src/engine/frontends/infra';
import { initParsers } from '../../server/src/engine/syntax/parser';
import type { InfraDeclarations, InfraFunction } from '../../server/src/engine/model/entry-point';
import { checkJson } from './check-json';

/**
 * Terraform that declares several tables or functions with one block: `for_each` over a
 * local map and over a set variable, `count` over a list, `dynamic` index blocks, a call of
 * a local module with arguments, a rule/target pair made per copy, and a module written in
 * Terraform's JSON syntax (`main.tf.json`).
 */

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'infra');

before(() => initParsers());

function read(rel: string): InfraDeclarations {
  const file = path.join(FIXTURES, 'terraform-copies', rel);
  const out = readInfrastructure(file, fs.readFileSync(file, 'utf8'));
  assert.ok(out, `${rel} is read as infrastructure`);
  assert.equal(out.format, 'terraform');
  assert.deepEqual(out.skipped, []);
  return out;
}

function fn(d: InfraDeclarations, name: string): InfraFunction {
  const f = d.functions.find((x) => x.name === name);
  assert.ok(f, `function ${name} among ${d.functions.map((x) => x.name).join(', ')}`);
  return f;
}

const rel = (f: string | null) =>
  f ? path.relative(path.join(FIXTURES, 'terraform-copies'), f).split(path.sep).join('/') : null;

test('for_each over a local map: one table per entry, each.key in the name, each.value keys, dynamic indexes unrolled', () => {
  const d = read('infra/tables.tf');
  const orders = d.tables.find((t) => t.logicalId === 'aws_dynamodb_table.service["orders"]');
  const users = d.tables.find((t) => t.logicalId === 'aws_dynamodb_table.service["users"]');
  assert.ok(orders && users, d.tables.map((t) => t.logicalId).join(', '));
  assert.equal(orders.tableName, 'orders-{$var.stage}');
  assert.deepEqual(orders.partitionKey, { name: 'customerId', type: 'S' });
  assert.equal(orders.sortKey?.name, 'orderId');
  assert.deepEqual(
    orders.indexes.map((i) => [i.name, i.kind, i.partitionKey.name, i.sortKey?.name]),
    [['byStatus', 'global', 'status', 'createdAt']],
  );
  assert.equal(orders.unreadIndexes, undefined, 'the dynamic block is read, not counted as unread');
  assert.equal(users.tableName, 'users-{$var.stage}');
  assert.equal(users.partitionKey?.name, 'userId');
  assert.equal(users.sortKey, null, 'range_key = null is no sort key');
  assert.deepEqual(users.indexes, []);
});

test('a local module called with arguments: its table is declared by the call, its variables the arguments', () => {
  const d = read('infra/tables.tf');
  const audit = d.tables.find((t) => t.logicalId === 'module.audit.aws_dynamodb_table.this');
  assert.ok(audit);
  assert.equal(audit.tableName, 'audit-{$var.stage}', "the caller's var.stage stays a hole");
  assert.deepEqual([audit.partitionKey?.name, audit.sortKey?.name], ['tenantId', 'at']);
  // dynamic over toset(var.indexes), named "by-${global_secondary_index.key}".
  assert.deepEqual(
    audit.indexes.map((i) => [i.name, i.partitionKey.name]),
    [['by-actor', 'actor']],
  );
  assert.equal(rel(audit.source.file), 'infra/modules/table/main.tf', 'placed at the resource in the module');
  // Another file of the caller names the table by the module's output.
  const writer = fn(read('infra/audit.tf'), 'aws_lambda_function.audit_writer');
  assert.deepEqual(writer.environment.AUDIT_TABLE, { kind: 'template', text: 'audit-{$var.stage}' });
});

test('for_each over a set variable: one function per key, its archive, its table and its route by the same key', () => {
  const d = read('infra/functions.tf');
  const orders = fn(d, 'aws_lambda_function.service["orders"]');
  assert.equal(rel(orders.handlerFile), 'src/orders/index.js');
  assert.deepEqual(orders.environment.TABLE_NAME, { kind: 'template', text: 'orders-{$var.stage}' });
  assert.deepEqual(
    orders.triggers.map((t) => [t.kind, t.trigger]),
    [['api', 'ANY /orders/{proxy+}']],
  );
  const users = fn(d, 'aws_lambda_function.service["users"]');
  assert.equal(rel(users.handlerFile), 'src/users/index.js');
  assert.deepEqual(users.environment.TABLE_NAME, { kind: 'template', text: 'users-{$var.stage}' });
  assert.deepEqual(
    users.triggers.map((t) => t.trigger),
    ['ANY /users/{proxy+}'],
  );
});

test('count over a list: count.index picks the list item, each copy has its own rule and schedule', () => {
  const d = read('infra/functions.tf');
  const first = fn(d, 'aws_lambda_function.sweeper[0]');
  const second = fn(d, 'aws_lambda_function.sweeper[1]');
  assert.deepEqual(first.environment.TARGET, { kind: 'text', text: 'carts' });
  assert.deepEqual(second.environment.TARGET, { kind: 'text', text: 'sessions' });
  assert.deepEqual(
    first.triggers.map((t) => [t.kind, t.name, t.trigger, t.ratePerHour]),
    [['schedule', 'aws_cloudwatch_event_rule.sweep[0]', 'rate(1 hour)', 1]],
  );
  assert.deepEqual(
    second.triggers.map((t) => [t.kind, t.trigger, t.ratePerHour]),
    [['schedule', 'cron(0 4 * * ? *)', 1 / 24]],
  );
});

test('a collection not written in the module leaves one block, its each.key a hole', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-'));
  try {
    const file = path.join(dir, 'main.tf');
    const text = [
      'variable "tables" {}',
      'resource "aws_dynamodb_table" "t" {',
      '  for_each = var.tables',
      '  name     = "app-${each.key}"',
      '  hash_key = "pk"',
      '}',
      'resource "aws_dynamodb_table" "u" {',
      '  for_each = var.tables',
      '  name     = each.value.name',
      '  hash_key = each.value.hash_key',
      '}',
      'resource "aws_dynamodb_table" "c" {',
      '  count    = var.enabled ? 1 : 0',
      '  name     = "flags"',
      '  hash_key = "flag"',
      '}',
    ].join('\n');
    fs.writeFileSync(file, text);
    const d = readInfrastructure(file, text)!;
    assert.deepEqual(
      d.tables.map((t) => [t.logicalId, t.tableName, t.partitionKey?.name]),
      [
        ['aws_dynamodb_table.t', 'app-{$each.key}', 'pk'],
        // A key attribute not known before deploy names no key.
        ['aws_dynamodb_table.u', '{$each.value.name}', undefined],
        ['aws_dynamodb_table.c', 'flags', 'flag'],
      ],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('Terraform JSON: *.tf.json is a candidate, its table, function, mapping and interpolations read as HCL', () => {
  assert.ok(isInfrastructureCandidate('infra/main.tf.json'));
  const d = read('json/main.tf.json');
  const [events] = d.tables;
  assert.equal(events.tableName, 'events-prod', 'var.stage has default "prod"');
  assert.deepEqual(
    [events.partitionKey, events.sortKey],
    [
      { name: 'deviceId', type: 'S' },
      { name: 'ts', type: 'N' },
    ],
  );
  assert.deepEqual(
    events.indexes.map((i) => [i.name, i.partitionKey.name, i.sortKey?.name]),
    [['byKind', 'kind', 'ts']],
  );
  assert.deepEqual([events.billingMode, events.capacity], ['PROVISIONED', { read: 5, write: 5 }]);
  assert.equal(events.source.span.startLine, 6, 'placed at its JSON object');
  const ingest = fn(d, 'aws_lambda_function.ingest');
  assert.equal(rel(ingest.handlerFile), 'src/ingest/index.js');
  assert.deepEqual(ingest.environment.EVENTS_TABLE, { kind: 'table', logicalId: 'aws_dynamodb_table.events' });
  assert.deepEqual(
    ingest.triggers.map((t) => [t.kind, t.name, t.batchSize]),
    [['queue', 'aws_sqs_queue.ingest', 10]],
  );
  const bad = readInfrastructure('/tmp/x/main.tf.json', '{ "resource": ');
  assert.match(bad?.unread ?? '', /malformed JSON/);
});

test('shardlens check: copies and modules give their handlers the table, its schema and its indexes', () => {
  const report = checkJson(FIXTURES, 'terraform-copies');
  const on = (file: string) => report.accesses.filter((a) => a.file === `terraform-copies/src/${file}`);
  assert.deepEqual(
    on('users/index.js').map((a) => [a.table, a.partitionKey.attribute]),
    [['users-{$var.stage}', 'userId']],
  );
  assert.ok(on('orders/index.js').every((a) => a.table === 'orders-{$var.stage}'));
  // The index the dynamic block declares is known: the constant status it is filled with is SL012.
  const sl012 = report.findings.filter((f) => f.rule === 'SL012').map((f) => f.file);
  assert.deepEqual(sl012.sort(), [
    'terraform-copies/src/audit/index.js',
    'terraform-copies/src/ingest/index.js',
    'terraform-copies/src/orders/index.js',
  ]);
  assert.deepEqual(
    on('audit/index.js').map((a) => [a.table, a.index ?? null, a.partitionKey.attribute]),
    [
      ['audit-{$var.stage}', null, 'tenantId'],
      ['audit-{$var.stage}', 'by-actor', 'actor'],
    ],
  );
  // The module's own file declares nothing of its own: its table is the call's, named and keyed by its arguments.
  assert.deepEqual(
    report.tables.map((t) => t.logicalId),
    [
      'aws_dynamodb_table.service["orders"]',
      'aws_dynamodb_table.service["users"]',
      'module.audit.aws_dynamodb_table.this',
      'aws_dynamodb_table.events',
    ],
  );
  assert.ok(!report.tables.some((t) => t.tableName === '{$var.name}'), 'no table named by a bare variable');
  const sweeper = on('sweeper/app.py');
  assert.equal(sweeper[0]?.table, '$TARGET', 'two copies set TARGET differently: not bound');
  assert.deepEqual(
    sweeper[0]?.entryPoints?.map((e) => e.trigger),
    ['rate(1 hour)', 'cron(0 4 * * ? *)'],
  );
});

test('a module output re-exported by the module between: module.app.table_name where app passes on module.store’s', () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-tf-outputs-')));
  const write = (f: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), text);
  };
  write(
    'main.tf',
    `module "app" {
  source = "./modules/app"
  prefix = "polls"
}

resource "aws_lambda_function" "vote" {
  function_name = "vote"
  handler       = "vote.handler"
  runtime       = "nodejs20.x"
  filename      = "\${path.module}/build/vote.zip"
  environment {
    variables = {
      VOTES_TABLE  = module.app.table_name
      AUDIT_TABLE  = module.app.audit_table
    }
  }
}
`,
  );
  write(
    'modules/app/main.tf',
    `variable "prefix" { type = string }

module "store" {
  source     = "../store"
  table_name = "\${var.prefix}-votes"
}

module "audit" {
  source = "../audit"
  prefix = var.prefix
}

output "table_name" {
  value = module.store.table_name
}

output "audit_table" {
  value = module.audit.table_name
}
`,
  );
  write(
    'modules/store/main.tf',
    `variable "table_name" { type = string }

resource "aws_dynamodb_table" "this" {
  name         = var.table_name
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pollId"
  attribute {
    name = "pollId"
    type = "S"
  }
}

output "table_name" {
  value = aws_dynamodb_table.this.name
}
`,
  );
  // Three modules deep: app -> audit -> store, each passing the output on.
  write(
    'modules/audit/main.tf',
    `variable "prefix" { type = string }

module "log" {
  source     = "../store"
  table_name = "\${var.prefix}-audit"
}

output "table_name" {
  value = module.log.table_name
}
`,
  );
  try {
    const file = path.join(dir, 'main.tf');
    const d = readInfrastructure(file, fs.readFileSync(file, 'utf8'));
    assert.ok(d);
    assert.deepEqual(fn(d, 'aws_lambda_function.vote').environment, {
      VOTES_TABLE: { kind: 'text', text: 'polls-votes' },
      AUDIT_TABLE: { kind: 'text', text: 'polls-audit' },
    });
    assert.deepEqual(d.tables.map((t) => [t.logicalId, t.tableName, t.partitionKey?.name]).sort(), [
      ['module.app.module.audit.module.log.aws_dynamodb_table.this', 'polls-audit', 'pollId'],
      ['module.app.module.store.aws_dynamodb_table.this', 'polls-votes', 'pollId'],
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
