/**
 * OneTable (dynamodb-onetable) as a front-end of the key model, proven on fixtures written
 * in the library's documented style (test/fixtures/libraries/onetable): a schema module,
 * a module making the table and its models, handlers importing them, and a CommonJS
 * module declaring its schema in place. The fixtures type-check against the pinned
 * typings; run with the real library against dynalite, every request it sends (table,
 * index, partition key) is one the engine predicted at that model, and `shardlens keys
 * --match` names the model's logical key.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding } from '../../server/src/engine';
import { typeErrors } from '../fixes/helpers-write';
import {
  keysMatch,
  matchesTemplate,
  libraryFixture,
  recordSent,
  renderText,
  type Sent,
  stringKeyTable,
  withDynalite,
} from './helpers';

const fx = libraryFixture('onetable');
const { dir: FIXTURE, rel, line } = fx;

test('the fixtures type-check against the dynamodb-onetable typings', () => {
  assert.deepEqual(typeErrors(FIXTURE), []);
});

test('every OneTable call of the fixtures is read with its model, index and stored key', () => {
  const calls = fx.accesses
    .filter((a) => a.library)
    .map(
      (a) =>
        `${line(a)} ${a.operation} ${a.library!.entity}.${a.library!.accessPattern}${a.index ? ` @${a.index}` : ''} ${a.partitionKey?.attribute} = ${a.partitionKey ? renderText(a.partitionKey.template) : '-'}`,
    );
  for (const want of [
    'handlers.ts:4 PutItem User.primary pk = user#{}',
    'handlers.ts:4 PutItem User.gs1 @gs1 gs1pk = status#invited',
    'handlers.ts:9 Query User.gs1 @gs1 gs1pk = status#active',
    'handlers.ts:13 GetItem User.primary pk = user#{}',
    'handlers.ts:17 UpdateItem User.primary pk = user#{}',
    'handlers.ts:21 PutItem Order.primary pk = account#{}',
    'handlers.ts:25 Query Order.primary pk = account#{}',
    'handlers.ts:29 UpdateItem Counter.primary pk = counter#signups',
    'handlers.ts:33 GetItem Counter.primary pk = counter#signups',
    'db.ts:10 PutItem Announcement.primary pk = Announcement',
    'handlers.ts:42 PutItem Metric.primary pk = metric#{}#{}',
    'handlers.ts:46 DeleteItem Order.primary pk = account#{}',
    'sessions.js:28 PutItem Session.primary pk = session#{}',
    'sessions.js:10 PutItem Session.byKind @byKind kind = web',
    'sessions.js:32 DeleteItem Session.primary pk = session#{}',
  ])
    assert.ok(calls.includes(want), `${want} not in\n${calls.join('\n')}`);
  // A find fills the sort key's template as far as the call gives it: begins_with its prefix.
  const orders = fx.accesses.find((a) => line(a) === 'handlers.ts:25')!;
  assert.equal(orders.sortCondition?.operator, 'begins_with');
  assert.equal(orders.sortCondition?.operands.map((o) => renderText(o.template)).join(), 'order#');
});

test('the hot keys are found: a status index, a counter, a key the schema fixes, a constant default', () => {
  const got = fx.findings.map((f) => `${f.rule} ${line(f)} ${f.severity}`);
  for (const want of [
    'SL001 handlers.ts:4 error', // status: 'invited' written to gs1
    'SL001 handlers.ts:9 error', // and 'active' read from it
    'SL004 handlers.ts:29 warning', // { add: { count: 1 } } on the one signups counter
    'SL001 db.ts:10 error', // Announcement's pk is its model name: at the schema the table is given
    'SL001 sessions.js:10 error', // kind's default 'web' keys byKind
  ])
    assert.ok(got.includes(want), `${want} not in\n${got.join('\n')}`);
  const status = fx.findings.find((f) => line(f) === 'handlers.ts:9')!;
  assert.equal(status.span.startColumn + 1, 30, 'on the constant the call gives');
  assert.deepEqual(status.fixes, []);
  const announcement = fx.findings.find((f) => line(f) === 'db.ts:10')!;
  assert.ok(
    announcement.related?.some((r) => rel(r.file) === 'schema.ts'),
    'the schema field is the related location',
  );
  // The schema is imported by db.ts: the related location is the key field where schema.ts
  // writes it, not the place db.ts uses the schema.
  const schemaLine = (model: string, field: string) => {
    const lines = fs.readFileSync(path.join(FIXTURE, 'schema.ts'), 'utf8').split('\n');
    const from = lines.findIndex((l) => l.trim().startsWith(`${model}: {`));
    return `schema.ts:${lines.findIndex((l, i) => i > from && l.trim().startsWith(`${field}: {`)) + 1}`;
  };
  const relatedAt = (f: Finding) => f.related?.map((r) => `${rel(r.file)}:${r.span.startLine + 1}`);
  assert.deepEqual(relatedAt(announcement), [schemaLine('Announcement', 'pk')]);
  assert.deepEqual(relatedAt(status), [schemaLine('User', 'gs1pk')]);
});

test('generated ids, ids from the request and a sharded key are not reported', () => {
  const quiet = fx.accesses.filter(
    (a) =>
      ['Order', 'Metric'].includes(a.library?.entity ?? '') ||
      (a.library && a.index === null && /^(User|Session)$/.test(a.library.entity)),
  );
  assert.ok(quiet.length >= 9, `${quiet.length}`);
  assert.deepEqual(
    fx.findings.filter((f) => quiet.includes(f.access)).map((f) => `${f.rule} ${line(f)}`),
    [],
  );
  const metric = quiet.find((a) => a.library!.entity === 'Metric')!;
  const shard = metric.partitionKey!.template.parts.find((p) => 'hole' in p && p.hole.kind === 'shard');
  assert.ok(shard && 'hole' in shard && shard.hole.shards?.values?.length === 8);
});

const OPERATIONS: Record<string, string> = {
  PutItemCommand: 'PutItem',
  GetItemCommand: 'GetItem',
  UpdateItemCommand: 'UpdateItem',
  DeleteItemCommand: 'DeleteItem',
  QueryCommand: 'Query',
};

test('run against dynalite with the real library, every request is one the engine predicted', async () => {
  const tables = [
    stringKeyTable('app-table', ['pk', 'sk'], [['gs1', 'gs1pk', 'gs1sk']]),
    stringKeyTable('sessions', ['pk', null], [['byKind', 'kind', 'pk']]),
  ];
  await withDynalite(tables, { APP_TABLE: 'app-table' }, async () => {
    const app = await import(pathToFileURL(path.join(FIXTURE, 'handlers.ts')).href);
    const dbModule = await import(pathToFileURL(path.join(FIXTURE, 'db.ts')).href);
    const sessions = await import(pathToFileURL(path.join(FIXTURE, 'sessions.js')).href);
    const sent: Sent[] = [];
    recordSent(dbModule.client, sent, 'initialize');
    recordSent(sessions.client ?? sessions.default.client, sent, 'initialize');

    const id: string = await app.inviteUser('ann@example.com');
    await app.activeUsers();
    assert.equal((await app.getUser(id))?.email, 'ann@example.com');
    await app.disableUser(id);
    const order = await app.placeOrder('acct-1', 30);
    assert.equal((await app.ordersOf('acct-1')).length, 1);
    await app.countSignup();
    await app.countSignup();
    assert.equal((await app.signups())?.count, 2);
    await app.announce('maintenance tonight');
    await app.recordMetric('latency', 12);
    await app.removeOrder('acct-1', order.orderId);
    const session = await (sessions.startSession ?? sessions.default.startSession)('u-1');
    await (sessions.endSession ?? sessions.default.endSession)(session.token);

    assert.ok(sent.length >= 13, `${sent.length} requests`);
    const lib = fx.accesses.filter((a) => a.library);
    for (const s of sent) {
      const operation = OPERATIONS[s.command];
      assert.ok(operation, `unexpected ${s.command}`);
      // The partition keys the request carries: the table's, and for a put each index's it writes.
      const partitions = s.keys.filter(([k]) => ['pk', 'gs1pk', 'kind'].includes(k));
      assert.ok(partitions.length > 0, JSON.stringify(s));
      for (const [attribute, value] of partitions) {
        const predicted = lib.filter(
          (a) =>
            a.operation === operation &&
            a.table.kind === 'literal' &&
            a.table.name === s.table &&
            a.partitionKey?.attribute === attribute &&
            matchesTemplate(value, a.partitionKey.template),
        );
        assert.ok(predicted.length > 0, `${operation} ${s.table} ${attribute} = ${value} predicted by none`);
        for (const a of predicted)
          if (!renderText(a.partitionKey!.template).includes('{}'))
            assert.equal(renderText(a.partitionKey!.template), value);
        if (s.index)
          assert.ok(
            predicted.some((a) => a.index === s.index),
            `${s.command} on ${s.index}`,
          );
      }
    }
    // The model's logical key is named for a stored key.
    for (const [key, model] of [
      ['status#invited', 'User model · gs1'],
      ['counter#signups', 'Counter model · primary'],
      [`user#${id}`, 'User model · primary'],
    ]) {
      const out = keysMatch(FIXTURE, key);
      assert.ok(out.includes(model), `${key}:\n${out}`);
    }
  });
});
