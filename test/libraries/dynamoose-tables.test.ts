/**
 * dynamoose 3/4 tables as apps write them (test/fixtures/libraries/dynamoose-tables): models
 * stored in a `new dynamoose.Table("catalog", [Product, Review])` rather than in tables named
 * for them, prefixes and suffixes from the table's options or `dynamoose.Table.defaults.set`,
 * and models reached through an index module (`export { ... } from './catalog'`,
 * `const { Notice } = require('./notice'); module.exports = { Notice }`). Run with the real
 * dynamoose against dynalite, every request it sends names the table the engine read at
 * that call; `shardlens keys --match` finds the key on that table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CreateTableCommand, DynamoDB } from '@aws-sdk/client-dynamodb';
import * as dynamoose from 'dynamoose';
import { startDynalite, typeErrors } from '../fixes/helpers-write';
import { table, withIndex } from '../fixes/helpers-programs';
import { keysMatch, libraryFixture, renderText } from './helpers';

const fx = libraryFixture('dynamoose-tables');

test('the fixtures type-check against the dynamoose typings', () => {
  assert.deepEqual(typeErrors(path.join(fx.dir, 'ts')), []);
  assert.deepEqual(typeErrors(path.join(fx.dir, 'cjs')), []);
});

test('calls through an index module are read, on the table dynamoose stores the model in', () => {
  const calls = fx.accesses
    .filter((a) => a.library)
    .map(
      (a) =>
        `${fx.line(a)} ${a.operation} ${a.library!.entity} ${a.table.kind === 'literal' ? a.table.name : '?'}${a.index ? ` @${a.index}` : ''}`,
    )
    .sort();
  const want = [
    // `const { Notice } = require('./models')`, a module passing on notice.js's; its table `intra-` + `notices`.
    'cjs/handler.js:5 PutItem Notice intra-notices',
    'cjs/handler.js:9 Query Notice intra-notices',
    'cjs/handler.js:13 Query Notice intra-notices',
    // Both catalog models in the one table, the module's defaults giving prefix and suffix.
    'ts/handlers.ts:6 PutItem Product shop-catalog-dev',
    'ts/handlers.ts:11 GetItem Product shop-catalog-dev',
    'ts/handlers.ts:15 PutItem Review shop-catalog-dev',
    'ts/handlers.ts:15 PutItem Review shop-catalog-dev @byStatus',
    'ts/handlers.ts:19 Query Review shop-catalog-dev @byStatus',
    // A model in no table of the module: its own name, with the module's defaults.
    'ts/handlers.ts:27 UpdateItem PageView shop-PageView-dev',
    // The model's own options.
    'ts/handlers.ts:23 PutItem Audit shop-Audit-dev',
    'ts/models/audit.ts:14 PutItem Audit shop-Audit-dev',
  ];
  assert.deepEqual(calls, want.sort());
});

test('the hot keys are found on those tables, each default once', () => {
  const got = fx.findings.map(
    (f) =>
      `${f.rule} ${fx.line(f)} ${f.access.table.kind === 'literal' ? f.access.table.name : '?'} ${renderText(f.access.partitionKey!.template)}`,
  );
  assert.deepEqual(got.filter((g) => !g.startsWith('SL005')).sort(), [
    'SL001 cjs/handler.js:5 intra-notices lobby',
    'SL001 cjs/handler.js:9 intra-notices lobby',
    'SL001 ts/handlers.ts:15 shop-catalog-dev PENDING',
    'SL001 ts/handlers.ts:19 shop-catalog-dev PENDING',
    'SL001 ts/models/audit.ts:14 shop-Audit-dev audit',
    'SL004 ts/handlers.ts:27 shop-PageView-dev home',
  ]);
});

test('run with the real dynamoose against dynalite: each request names the table the engine read', async () => {
  const db = await startDynalite();
  const sent: Array<{ op: string; table: string; index: string | null }> = [];
  const ddb = new DynamoDB({
    endpoint: db.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  ddb.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { TableName?: string; IndexName?: string };
      if (input.TableName)
        sent.push({
          op: String(context.commandName).replace(/Command$/, ''),
          table: input.TableName,
          index: input.IndexName ?? null,
        });
      return next(args);
    },
    { step: 'initialize', name: 'captureTables' },
  );
  dynamoose.aws.ddb.set(ddb);
  try {
    for (const t of [
      withIndex(table('shop-catalog-dev', 'pk', ['sk', 'S']), 'byStatus', ['status', 'S'], null),
      table('shop-PageView-dev', 'page', null),
      table('shop-Audit-dev', 'stream', ['at', 'N']),
      table('intra-notices', 'board', ['postedAt', 'N']),
    ])
      await db.client.send(new CreateTableCommand(t));
    // Two applications in one process: the intranet's first, since the shop's `Table.defaults.set`
    // applies to every table constructed after it (read per module by the engine, per process by dynamoose).
    const intranet = await import(pathToFileURL(path.join(fx.dir, 'cjs', 'handler.js')).href);
    await intranet.post({ body: 'welcome' });
    assert.equal((await intranet.list()).length, 1);
    assert.equal((await intranet.board({ pathParameters: { board: 'lobby' } })).length, 1);
    const shop = await import(pathToFileURL(path.join(fx.dir, 'ts', 'handlers.ts')).href);
    const id: string = await shop.addProduct('lamp');
    assert.equal((await shop.product(id)).name, 'lamp');
    await shop.review(id, 4);
    assert.equal((await shop.moderationQueue()).length, 1);
    await shop.viewHome();
    await shop.audit('login');

    assert.equal(sent.length, 9, JSON.stringify(sent));
    const read = fx.accesses.filter((a) => a.library && !a.library.schema);
    for (const r of sent)
      assert.ok(
        read.some(
          (a) =>
            a.operation === r.op &&
            a.table.kind === 'literal' &&
            a.table.name === r.table &&
            (a.index ?? null) === r.index,
        ),
        `${r.op} ${r.table} ${r.index} is not a call the engine read`,
      );
    // Every table the engine read was sent to.
    assert.deepEqual(
      [...new Set(read.map((a) => (a.table.kind === 'literal' ? a.table.name : '?')))].sort(),
      [...new Set(sent.map((r) => r.table))].sort(),
    );
    assert.match(
      keysMatch(fx.dir, 'PENDING'),
      /Review model · byStatus · shop-catalog-dev\/byStatus · status = PENDING/,
    );
    assert.match(keysMatch(fx.dir, 'lobby'), /Notice model · intra-notices · board = lobby/);
  } finally {
    ddb.destroy();
    await db.close();
  }
});
