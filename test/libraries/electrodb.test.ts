/**
 * ElectroDB as a front-end of the key model, proven on fixtures written in ElectroDB's
 * documented style (test/fixtures/libraries/electrodb): they type-check against the
 * pinned electrodb typings; run with the real library against dynalite, every stored
 * key is what the template the engine read renders, and `shardlens keys --match` names
 * the entity's logical key; the hot keys are found where the schema or the call makes
 * them, and the spread ones are not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { workspaceRoot } from '../../server/src/cli/root';
import { typeErrors } from '../fixes/helpers-write';
import { indexedWorkspace } from '../unit/helpers';
import {
  assertStoredKey,
  CLI,
  keysMatch,
  matchesTemplate,
  libraryFixture,
  renderText,
  ROOT,
  stringKeyTable,
  withDynalite,
} from './helpers';

const fx = libraryFixture('electrodb');
const { dir: FIXTURE, rel, line } = fx;

test('the fixtures type-check against the electrodb typings', () => {
  for (const dir of ['ts', 'cjs']) assert.deepEqual(typeErrors(path.join(FIXTURE, dir)), [], dir);
});

test('every ElectroDB call of the fixtures is read, with its entity and access pattern', () => {
  const calls = fx.accesses
    .filter((a) => a.library)
    .map(
      (a) =>
        `${line(a)} ${a.operation} ${a.library!.entity}.${a.library!.accessPattern}${a.index ? ` @${a.index}` : ''}`,
    );
  for (const want of [
    'ts/handlers.ts:4 PutItem task.byId',
    'ts/handlers.ts:8 Query task.byStatus @gsi1pk-gsi1sk-index',
    'ts/handlers.ts:13 PutItem score.byBoard',
    'ts/handlers.ts:17 Query score.byBoard',
    'ts/handlers.ts:22 GetItem score.byBoard',
    'ts/handlers.ts:26 PutItem shardedScore.byBoard',
    'ts/handlers.ts:32 Query shardedScore.byBoard',
    'ts/handlers.ts:39 PutItem session.primary',
    'ts/handlers.ts:44 DeleteItem session.primary',
    'ts/service.ts:8 Query account collection.account @gsi2pk-gsi2sk-index',
    'ts/service.ts:13 Query session.byUser @gsi2pk-gsi2sk-index',
    'cjs/orders.js:4 PutItem order.byOrder',
    'cjs/orders.js:8 Query order.byCustomer @gsi1pk-gsi1sk-index',
    'cjs/orders.js:12 Query order.byStatus @gsi2pk-gsi2sk-index',
    'ts/entities.ts:24 PutItem task.byStatus @gsi1pk-gsi1sk-index',
  ])
    assert.ok(calls.includes(want), `${want} not in\n${calls.join('\n')}`);
});

test('keys are rendered as ElectroDB stores them', () => {
  const pk = (l: string, op: string) => {
    const a = fx.accesses.find((x) => line(x) === l && x.operation === op && !x.index);
    return a?.partitionKey
      ? { pk: renderText(a.partitionKey.template), sk: a.sortKey && renderText(a.sortKey.template) }
      : null;
  };
  assert.deepEqual(pk('ts/handlers.ts:13', 'PutItem'), { pk: '$games#board_global', sk: '$score_1#player_{}' });
  assert.deepEqual(pk('ts/handlers.ts:39', 'PutItem'), { pk: 'SESSION#{}', sk: 'META' });
  const query = fx.accesses.find((a) => line(a) === 'ts/handlers.ts:8')!;
  assert.equal(renderText(query.partitionKey!.template), '$tracker');
  assert.equal(query.sortCondition?.operator, 'begins_with');
  assert.equal(renderText(query.sortCondition!.operands[0].template), '$task_1#status_open');
  const range = fx.accesses.find((a) => line(a) === 'ts/service.ts:13')!;
  assert.equal(range.sortCondition?.operator, '>');
  assert.equal(renderText(range.sortCondition!.operands[0].template), '$account#session_2#expiresat_{}');
});

test('the hot keys are found where the schema or the call makes them, with the schema as related location', () => {
  const got = fx.findings.map((f) => `${f.rule} ${line(f)}:${f.span.startColumn + 1} ${f.severity}`);
  for (const want of [
    // The status index of tasks: `composite: []`, one partition for every task.
    'SL001 ts/entities.ts:24:32 error',
    // A constant board and a constant status at the call.
    'SL001 ts/handlers.ts:13:28 error',
    'SL001 ts/handlers.ts:17:55 error',
    'SL001 cjs/orders.js:4:54 error',
    'SL001 cjs/orders.js:12:41 error',
  ])
    assert.ok(got.includes(want), `${want} not in\n${got.join('\n')}`);
  const global = fx.findings.find((f) => line(f) === 'ts/handlers.ts:13')!;
  assert.match(global.message, /\$games#board_global/);
  assert.deepEqual(
    global.related.map((r) => `${rel(r.file)}:${r.span.startLine + 1} ${r.message}`),
    ['ts/entities.ts:43 score.byBoard.pk is declared here'],
  );
  // The fix is ElectroDB's own, written in the schema (electrodb-fixes.test.ts), from the rule's descriptor.
  assert.deepEqual(
    global.fixes.map((f) => f.kind),
    ['add-shard-suffix'],
  );
  const schema = fx.findings.find((f) => line(f) === 'ts/entities.ts:24')!;
  assert.match(schema.message, /index "gsi1pk-gsi1sk-index"/);
  assert.equal(schema.context, 'app');
  // Reported once, at the schema: the create writing that partition is related, not a second SL001.
  assert.deepEqual(
    schema.related.map((r) => `${rel(r.file)}:${r.span.startLine + 1} ${r.message}`),
    [
      'ts/entities.ts:24 task.byStatus.pk is declared here',
      'ts/handlers.ts:4 this create writes gsi1pk "$tracker", which the schema alone makes',
    ],
  );
  assert.deepEqual(
    fx.findings.filter((f) => line(f) === 'ts/handlers.ts:4').map((f) => f.rule),
    ['SL005'],
  );
});

test('a high-cardinality composite, a sharded entity and a UUID default are not reported', () => {
  const quiet = fx.accesses.filter(
    (a) =>
      ['shardedScore', 'session'].includes(a.library?.entity ?? '') ||
      (['byId', 'byCustomer'].includes(a.library?.accessPattern ?? '') && a.index === null),
  );
  assert.ok(quiet.length >= 6);
  const onThem = fx.findings.filter((f) => quiet.includes(f.access) && f.rule !== 'SL005');
  assert.deepEqual(
    onThem.map((f) => `${f.rule} ${line(f)}`),
    [],
  );
  const sharded = fx.accesses.find((a) => line(a) === 'ts/handlers.ts:26' && !a.index)!;
  assert.equal(
    fx.index
      .keys()
      .flatMap((t) => t.indexes.flatMap((i) => i.keys))
      .find((k) => k.sites.some((s) => s.access === sharded))?.key.shards?.values?.length,
    8,
  );
});

/** Tables shaped like the fixtures' entities: pk/sk and two indexes. */
const appTable = (name: string) =>
  stringKeyTable(
    name,
    ['pk', 'sk'],
    [1, 2].map((n) => [`gsi${n}pk-gsi${n}sk-index`, `gsi${n}pk`, `gsi${n}sk`]),
  );

test('run against dynalite with the real library, every stored key is the template the engine read', async () => {
  const tables = [appTable('app-table'), appTable('shop-table')];
  await withDynalite(tables, { APP_TABLE: 'app-table', SHOP_TABLE: 'shop-table' }, async (db) => {
    const ts = await import(pathToFileURL(path.join(FIXTURE, 'ts', 'handlers.ts')).href);
    const service = await import(pathToFileURL(path.join(FIXTURE, 'ts', 'service.ts')).href);
    const cjs = createRequire(__filename)(path.join(FIXTURE, 'cjs', 'orders.js'));
    await ts.addTask('write the docs');
    await ts.recordScore('ann', 40);
    await ts.recordShardedScore('weekly', 'bob', 7);
    const session: string = await ts.startSession('user-1');
    await cjs.placeOrder('o-1', 'c-9', 12);
    // The reads the engine read find what was written.
    assert.equal((await ts.openTasks()).length, 1);
    assert.equal((await ts.topOfGlobal()).length, 1);
    assert.equal((await ts.allShardedScores('weekly')).length, 1);
    assert.equal((await service.sessionsOf('user-1')).length, 1);
    assert.equal((await cjs.pendingOrders()).data.length, 1);

    const items = await db.stored('app-table', 'shop-table');
    assert.equal(items.length, 5);
    const writes = fx.accesses.filter((a) => a.library && a.kind === 'write' && a.operation === 'PutItem');
    for (const item of items) {
      const entity = item.__edb_e__ as string;
      for (const field of ['pk', 'gsi1pk', 'gsi2pk']) {
        if (typeof item[field] !== 'string') continue;
        const written = writes.filter(
          (a) => a.library!.entity === entity && a.partitionKey?.attribute === field && !a.library!.schema,
        );
        assertStoredKey(item, field, entity, written, FIXTURE);
      }
      const sortWrites = writes.filter((a) => a.library!.entity === entity && a.sortKey?.attribute === 'sk');
      if (sortWrites.length)
        assert.ok(
          sortWrites.some((a) => matchesTemplate(item.sk as string, a.sortKey!.template)),
          `${entity}.sk = ${item.sk} matches none of ${sortWrites.map((a) => renderText(a.sortKey!.template))}`,
        );
    }
    assert.ok(items.some((i) => i.pk === `SESSION#${session}`));
    assert.ok(items.some((i) => i.pk === '$games#board_global'));
    assert.ok(items.some((i) => i.gsi1pk === '$tracker'));
    // The sharded score's stored shard is one the engine's shard set holds.
    const shardOf = items.find((i) => i.__edb_e__ === 'shardedScore')!.pk as string;
    assert.match(keysMatch(FIXTURE, shardOf), /shardedScore entity · byBoard · .* shard [0-7]\b/);
  });
});

test('keys declared with `facets` (the first name of `composite`) are read alike', async () => {
  const { index: ws } = await indexedWorkspace({
    'package.json': '{}',
    'cart.js': [
      "const { Entity } = require('electrodb');",
      'const Cart = new Entity(',
      "  { model: { entity: 'Cart', version: '1', service: 'CartService' }, attributes: { userId: { type: 'string' } },",
      "    indexes: { primary: { pk: { field: 'pk', facets: ['userId'] }, sk: { field: 'sk', facets: [] } } } },",
      "  { table: 'cart' },",
      ');',
      "exports.get = async () => Cart.get({ userId: 'shared' }).go();",
      '',
    ].join('\n'),
  });
  const a = ws.results().flatMap((r) => r.accesses)[0];
  // What electrodb 3.9.3's own `params()` gives for this call: {"pk":"$cartservice#userid_shared","sk":"$cart_1"}.
  assert.equal(renderText(a.partitionKey!.template), '$cartservice#userid_shared');
  assert.equal(renderText(a.sortKey!.template), '$cart_1');
});

test('a service imported by a bare name under the tsconfig baseUrl is read, whichever folder the check runs in', () => {
  const app = path.join(ROOT, 'test', 'fixtures', 'libraries', 'electrodb-baseurl');
  // From the fixture itself, from the repository, and from a folder outside both (the
  // working directory was the root aliases were looked for under: nothing was read).
  for (const cwd of [app, ROOT, os.tmpdir()]) {
    const out = execFileSync('node', [CLI, 'check', app, '--format', 'json', '--fail-on', 'never'], {
      encoding: 'utf8',
      cwd,
    });
    const found = (JSON.parse(out) as { findings: Array<{ file: string; line: number; rule: string }> }).findings;
    assert.deepEqual(
      found.map((f) => `${f.rule} ${path.basename(f.file)}:${f.line}`),
      ['SL001 standings.ts:5'],
      cwd,
    );
  }
});

test('the workspace root is the working directory, or the folder holding every path checked outside it', () => {
  assert.equal(workspaceRoot(['src', 'lib/a.ts'], '/home/me/app'), '/home/me/app');
  assert.equal(workspaceRoot(['/tmp/x/app'], '/home/me'), '/tmp/x/app');
  assert.equal(workspaceRoot(['../other/a', '../other/b/c.ts'], '/home/me/app'), '/home/me/other');
  assert.equal(workspaceRoot(['/home/me/app-two'], '/home/me/app'), '/home/me/app-two');
});
