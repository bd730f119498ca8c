/**
 * TypeDORM as a front-end of the key model, proven on fixtures written in the library's
 * documented style (test/fixtures/libraries/typedorm: a table module, one entity a
 * module, the connection, handlers on `connection.entityManager` and a report on
 * `getEntityManager()`). TypeDORM reads its decorators' metadata at run time, which
 * esbuild does not emit, so the fixtures are compiled with the TypeScript API
 * (`experimentalDecorators`, `emitDecoratorMetadata`) without a type error; run with the
 * real library against dynalite, every request it sends is one the engine read on the
 * same table, index and key attribute with a key its template matches, and `shardlens
 * keys --match <stored key>` names the entity.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { normalizeSettings } from '../../protocol/src/settings';
import { hoverMarkdown } from '../../server/src/lsp/hover';
import type { Access } from '../../server/src/engine';
import { allFixes } from '../../server/src/features/fixes';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { compileErrors } from '../fixes/helpers-write';
import {
  keysMatch,
  matchesTemplate,
  libraryFixture,
  recordSent,
  renderText,
  ROOT,
  SENT_OPERATIONS,
  type Sent,
  stringKeyTable,
  withDynalite,
} from './helpers';

const fx = libraryFixture('typedorm');
const { dir: FIXTURE, rel, line } = fx;
let built: string;

before(async () => {
  fs.mkdirSync(path.join(ROOT, '.cache'), { recursive: true });
  // Below the project, so the compiled modules resolve its node_modules.
  built = fs.mkdtempSync(path.join(ROOT, '.cache', 'typedorm-'));
});

after(() => fs.rmSync(built, { recursive: true, force: true }));

/**
 * The fixtures compiled as TypeDORM's documentation says (decorators with their metadata) into
 * `out`, or their errors. Class fields are assigned, not defined: a defined `id!: string` would
 * hold `undefined` on every instance, and TypeDORM would not generate the id.
 */
const compile = (out: string) =>
  compileErrors(FIXTURE, {
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    useDefineForClassFields: false,
    outDir: out,
  });

const tableOf = (a: Access) => (a.table.kind === 'literal' ? a.table.name : '?');
const described = (a: Access) =>
  `${line(a)} ${a.operation} ${a.library!.entity}.${a.library!.accessPattern} ${tableOf(a)}${a.index ? ` @${a.index}` : ''} ${a.partitionKey?.attribute} = ${a.partitionKey ? renderText(a.partitionKey.template) : '-'}`;

test('the fixtures compile with decorator metadata, without a type error', () => {
  assert.deepEqual(compile(built), []);
  assert.ok(fs.existsSync(path.join(built, 'handlers.js')));
});

test('every TypeDORM call of the fixtures is read with its entity, table, index and stored key', () => {
  const calls = fx.accesses.filter((a) => a.library).map(described);
  for (const want of [
    // `new User()` filled by assignment; the id generated (UUID4), the status written to GSI1.
    'handlers.ts:14 PutItem user.primary app-table PK = USER#{}',
    'handlers.ts:14 PutItem user.GSI1 app-table @GSI1 GSI1PK = STATUS#INVITED',
    'handlers.ts:18 Query user.GSI1 app-table @GSI1 GSI1PK = STATUS#ACTIVE',
    'handlers.ts:22 GetItem user.primary app-table PK = USER#{}',
    'handlers.ts:26 UpdateItem user.primary app-table PK = USER#{}',
    // An update of the attribute GSI1's key is made of writes that index partition.
    'handlers.ts:26 PutItem user.GSI1 app-table @GSI1 GSI1PK = STATUS#ACTIVE',
    'handlers.ts:30 GetItem user.primary app-table PK = USER#{}',
    'handlers.ts:41 GetItem setting.primary app-table PK = SETTINGS',
    'handlers.ts:45 UpdateItem pageView.primary app-table PK = PAGE#home',
    'handlers.ts:52 PutItem order.primary app-table PK = CUSTOMER#{}',
    'handlers.ts:56 Query order.primary app-table PK = CUSTOMER#{}',
    'handlers.ts:60 Query order.primary app-table PK = CUSTOMER#{}',
    'handlers.ts:64 DeleteItem order.primary app-table PK = CUSTOMER#{}',
    'handlers.ts:70 PutItem feedItem.primary app-table PK = FEED#{}',
    // The schema alone fixes Setting's partition: its site is the connection that lists it.
    'db.ts:16 PutItem setting.primary app-table PK = SETTINGS',
    // `getEntityManager()`: the default connection, made in db.ts, gives the table and key names.
    'reports.ts:7 Query user.GSI1 app-table @GSI1 GSI1PK = STATUS#SUSPENDED',
    // A user held in `let as` (read as a declaration), created by a generic call under await.
    'invites.ts:12 PutItem user.GSI1 app-table @GSI1 GSI1PK = STATUS#PENDING',
    'invites.ts:20 PutItem order.primary app-table PK = CUSTOMER#{}',
    'invites.ts:24 Query order.primary app-table PK = CUSTOMER#{}',
  ])
    assert.ok(calls.includes(want), `${want} not in\n${calls.join('\n')}`);
  // A create of the fixed partition is not a second site of it (the connection listing Setting is).
  for (const create of ['handlers.ts:37 ', 'reports.ts:14 '])
    assert.ok(!calls.some((c) => c.startsWith(create)), calls.join('\n'));
  const orders = fx.accesses.find((a) => line(a) === 'handlers.ts:56')!;
  assert.equal(orders.sortCondition?.operator, 'begins_with');
  assert.equal(orders.sortCondition?.operands.map((o) => renderText(o.template)).join(), 'ORDER#');
  assert.equal(fx.accesses.find((a) => line(a) === 'handlers.ts:18')!.read?.limit, 50);
});

test('the hot keys are found: a status index, a counter, a key the schema fixes', () => {
  const got = fx.findings.map((f) => `${f.rule} ${line(f)}:${f.span.startColumn + 1} ${f.severity}`);
  for (const want of [
    'SL001 handlers.ts:13:17 error', // user.status = 'INVITED' written to GSI1
    'SL001 handlers.ts:18:45 error', // { status: 'ACTIVE' } read from it
    'SL001 handlers.ts:26:55 error', // and written by the update
    'SL004 handlers.ts:45:49 warning', // ADD on the one 'home' page-view item
    'SL001 handlers.ts:41:10 error', // a read of the SETTINGS partition
    'SL001 db.ts:16:20 error', // Setting in `entities`: every item in SETTINGS
    'SL001 reports.ts:7:50 error',
    'SL001 invites.ts:11:15 error', // 'PENDING' assigned to the user held in `let as`
  ])
    assert.ok(got.includes(want), `${want} not in\n${got.join('\n')}`);
  const active = fx.findings.find((f) => line(f) === 'handlers.ts:18')!;
  const related = active.related.map((r) => `${rel(r.file)}:${r.span.startLine + 1}`);
  assert.ok(related.includes('user.entity.ts:11'), related.join(', '));
  const settings = fx.findings.find((f) => line(f) === 'db.ts:16')!;
  assert.ok(
    settings.related.some((r) => `${rel(r.file)}:${r.span.startLine + 1}` === 'setting.entity.ts:7'),
    'the partitionKey of the entity is the related location',
  );
  // The update at handlers.ts:26 rewrites the status index from its body, which holds no shard: no fix.
  const invited = fx.findings.find((f) => line(f) === 'handlers.ts:13')!;
  const [why] = allFixes(invited, fixContextOf(fx.index));
  assert.equal(why?.id, 'shard-fix-blocked');
  assert.match(why.title, /the update at handlers\.ts:26 rewrites the GSI1 key from its body/);
});

test('generated ids, ids from the request and a sharded key are not reported', () => {
  const quiet = fx.accesses.filter(
    (a) =>
      ['order', 'feedItem'].includes(a.library?.entity ?? '') ||
      (a.library?.entity === 'user' && a.library.accessPattern === 'primary'),
  );
  assert.ok(quiet.length >= 9, `${quiet.length}`);
  assert.deepEqual(
    fx.findings.filter((f) => quiet.includes(f.access)).map((f) => `${f.rule} ${line(f)}`),
    [],
  );
  const created = fx.accesses.find((a) => line(a) === 'handlers.ts:14' && !a.index)!;
  const id = created.partitionKey!.template.parts.find((p) => 'hole' in p);
  assert.ok(id && 'hole' in id && id.hole.kind === 'random', 'the UUID4 id TypeDORM generates');
  // uuid.v1() and an imported v1 are a new id each call, as UUID4 is.
  for (const at of ['invites.ts:20', 'invites.ts:24']) {
    const guest = fx.accesses.find((a) => line(a) === at)!;
    assert.ok(
      guest.partitionKey!.template.parts.some((p) => 'hole' in p && p.hole.kind === 'random'),
      `${at} ${JSON.stringify(guest.partitionKey!.template.parts)}`,
    );
    assert.ok(!fx.findings.some((f) => f.access === guest), at);
  }
  const feed = fx.accesses.find((a) => line(a) === 'handlers.ts:70')!;
  const shard = feed.partitionKey!.template.parts.find((p) => 'hole' in p && p.hole.kind === 'shard');
  assert.ok(shard && 'hole' in shard && shard.hole.shards?.values?.length === 8);
});

test('the hover names the entity and the index', () => {
  const active = fx.accesses.find((a) => line(a) === 'handlers.ts:18')!;
  assert.match(hoverMarkdown(active, fx.findings, normalizeSettings({})).value, /user entity · GSI1 · Query/);
});

test('run with the real TypeDORM against dynalite, each request sent is one the engine read', async () => {
  if (!fs.existsSync(path.join(built, 'handlers.js'))) assert.deepEqual(compile(built), []);
  const table = stringKeyTable('app-table', ['PK', 'SK'], [['GSI1', 'GSI1PK', 'GSI1SK']]);
  await withDynalite([table], {}, async ({ stored }) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const db = require(path.join(built, 'db.js'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const app = require(path.join(built, 'handlers.js'));
    const sent: Sent[] = [];
    recordSent(db.client, sent);

    const user = await app.inviteUser('ann@example.com');
    assert.equal((await app.getUser(user.id))?.email, 'ann@example.com');
    await app.activate(user.id);
    assert.equal((await app.activeUsers()).items.length, 1);
    assert.equal(await app.userExists(user.id), true);
    await app.saveSetting('theme', 'dark');
    assert.equal((await app.theme())?.value, 'dark');
    await app.countView();
    await app.countView();
    const order = await app.placeOrder('c-1', 30);
    assert.equal((await app.ordersOf('c-1')).items.length, 1);
    assert.equal(await app.orderCount('c-1'), 1);
    await app.removeOrder('c-1', order.id);
    await app.post('hello');

    assert.ok(sent.length >= 14, `${sent.length} requests`);
    const read = fx.accesses.filter((a) => a.library);
    for (const s of sent) {
      const operation = SENT_OPERATIONS[s.command];
      assert.ok(operation, `unexpected ${s.command}`);
      const partitions = s.keys.filter(([k]) => k === 'PK' || k === 'GSI1PK');
      assert.ok(partitions.length > 0, JSON.stringify(s));
      for (const [attribute, value] of partitions) {
        // An update's index key is in its expression, not its Key: the engine reads it as a write of the index.
        const predicted = read.filter(
          (a) =>
            (a.operation === operation || (operation === 'UpdateItem' && a.operation === 'PutItem' && a.index)) &&
            tableOf(a) === s.table &&
            a.partitionKey?.attribute === attribute &&
            matchesTemplate(value, a.partitionKey.template),
        );
        assert.ok(predicted.length > 0, `${operation} ${s.table} ${attribute} = ${value} predicted by none`);
        for (const a of predicted) {
          const t = renderText(a.partitionKey!.template);
          if (!t.includes('{}')) assert.equal(t, value);
        }
        if (s.index)
          assert.ok(
            predicted.some((a) => a.index === s.index),
            `${s.command} on ${s.index}`,
          );
      }
    }
    // What TypeDORM stored is what the engine's templates say, and the entity is named for it.
    const items = await stored('app-table');
    for (const [key, entity] of [
      ['STATUS#ACTIVE', 'user entity · GSI1'],
      [`USER#${user.id}`, 'user entity · primary'],
      ['SETTINGS', 'setting entity · primary'],
      ['PAGE#home', 'pageView entity · primary'],
    ]) {
      assert.ok(
        items.some((i) => i.PK === key || i.GSI1PK === key),
        `${key} not stored: ${JSON.stringify(items)}`,
      );
      const out = keysMatch(FIXTURE, key);
      assert.ok(out.includes(entity), `${key}:\n${out}`);
    }
    const feed = items.find((i) => String(i.PK).startsWith('FEED#'))!;
    assert.match(String(feed.PK), /^FEED#[0-7]$/);
    assert.match(keysMatch(FIXTURE, String(feed.PK)), /feedItem entity · primary/);
  });
});
