/**
 * dynamoose's own shard fix (docs/fixes.md, "Fixes in a library's style"), proven on
 * fixtures in the library's documented style (test/fixtures/libraries/dynamoose-fix): the
 * fix is applied as the editor applies it, the fixed code type-checks against the pinned
 * dynamoose typings, runs with the real library against dynalite storing the items on
 * several shards and reading back every one, and analysed again shows no hot key and no
 * reader missing shards.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CreateTableCommand,
  ScanCommand,
  type AttributeValue,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { allFixes } from '../../server/src/features/fixes';
import { table } from '../fixes/helpers-programs';
import {
  applyAction,
  fixtureCopier,
  indexWorkspace,
  runDriverAt,
  startDynalite,
  typeErrors,
} from '../fixes/helpers-write';
import { codeActionsAt, indexed, openDocument, writeWorkspaceEdit } from '../integration/lsp-actions';
import { startServer } from '../integration/lsp-client';
import { renderText, ROOT } from './helpers';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'libraries', 'dynamoose-fix');
const copy = fixtureCopier(FIXTURES);

/** The fixes of every finding, by the finding's `rule file:line`. */
async function fixesOf(dir: string) {
  const w = await indexWorkspace(dir);
  const byFinding = w.findings.map((f) => ({
    at: `${f.rule} ${path.basename(f.file)}:${f.span.startLine + 1}`,
    finding: f,
    actions: allFixes(f, w.ctx),
  }));
  return { w, byFinding };
}

/** The driver's last printed JSON and the items stored, run against a fresh dynalite with `table` created. */
async function runFixture(dir: string, t: CreateTableCommandInput, driver: string) {
  const db = await startDynalite();
  try {
    await db.client.send(new CreateTableCommand(t));
    const out = await runDriverAt(db.endpoint, dir, 'node', driver);
    const items = ((await db.client.send(new ScanCommand({ TableName: t.TableName }))).Items ?? []).map((i) =>
      unmarshall(i as Record<string, AttributeValue>),
    );
    return { out: JSON.parse(out.trim().split('\n').pop()!), items };
  } finally {
    await db.close();
  }
}

const runStatus = (dir: string) => runFixture(dir, table('status-updates', 'page', ['at', 'N']), statusDriver(dir));

/** dynamoose talks to the dynalite of the run: its client set as the test's own code would. */
const CONNECT = `
import * as dynamoose from 'dynamoose';
dynamoose.aws.ddb.set(new dynamoose.aws.ddb.DynamoDB({
  endpoint: process.env.AWS_ENDPOINT_URL,
  region: 'us-east-1',
  credentials: { accessKeyId: 't', secretAccessKey: 't' },
}));
`;

const statusDriver = (dir: string) => `${CONNECT}
import { postUpdate, statusPage } from ${JSON.stringify(path.join(dir, 'status'))};
(async () => {
  for (let i = 0; i < 40; i++) await postUpdate(i % 2 ? 'api' : 'checkout', 'update ' + i, 1000 + i);
  console.log(JSON.stringify(await statusPage()));
})();
`;

test('write-once status page: the random default is offered on the schema, the create leaving the key to it related', async () => {
  const dir = copy('status');
  const { byFinding } = await fixesOf(dir);
  const offered = byFinding.filter((b) => b.actions.some((a) => a.changes.length));
  // The create takes the schema's default: one finding of the key, at the schema.
  assert.deepEqual(
    offered.map((b) => b.at),
    ['SL001 models.ts:13'],
  );
  assert.ok(
    offered[0].finding.related.some((r) => r.file.endsWith('status.ts') && r.span.startLine === 4),
    offered[0].finding.related.map((r) => r.message).join('\n'),
  );
  const a = offered[0].actions.find((x) => x.id === 'add-random-shard')!;
  assert.equal(a.title, 'Shard StatusUpdate.page with a random default (10 shards, 1 read of every shard)');
  assert.deepEqual(
    byFinding.filter((x) => x.finding.rule === 'SL005').flatMap((x) => x.actions),
    [],
    'the sort key finding has no fix of its own',
  );
});

test('write-once status page: fixed, it type-checks, stores on several shards and reads every item in order', async () => {
  const before = copy('status');
  const baseline = await runStatus(before);
  assert.equal(baseline.out.length, 40);
  assert.deepEqual(new Set(baseline.items.map((i) => i.page)), new Set(['public']));

  const dir = copy('status');
  const { w, byFinding } = await fixesOf(dir);
  const fix = byFinding.find((b) => b.at === 'SL001 models.ts:13')!.actions.find((a) => a.id === 'add-random-shard')!;
  applyAction(w.ctx, fix);
  const models = fs.readFileSync(path.join(dir, 'models.ts'), 'utf8');
  assert.match(models, /default: \(\) => `public#\$\{Math\.floor\(Math\.random\(\) \* STATUS_UPDATE_PAGE_SHARDS\)\}`/);
  assert.match(models, /^export const STATUS_UPDATE_PAGE_SHARDS = 10;$/m);
  const reader = fs.readFileSync(path.join(dir, 'status.ts'), 'utf8');
  assert.match(reader, /const updates = await queryStatusUpdatePublicShards\(\);/);
  assert.match(reader, /\.eq\(`public#\$\{shard\}`\)\.sort\('descending'\)\.all\(\)\.exec\(\)/);
  assert.deepEqual(typeErrors(dir), []);

  const fixed = await runStatus(dir);
  assert.deepEqual(fixed.out, baseline.out, 'every update, newest first, as before');
  const shards = new Set(fixed.items.map((i) => String(i.page)));
  for (const s of shards) assert.match(s, /^public#\d$/, 'public#<0..9>');
  assert.ok(shards.size > 1, `40 items on ${shards.size} shard(s)`);

  const again = await fixesOf(dir);
  assert.deepEqual(
    again.w.findings.map((f) => `${f.rule} ${path.basename(f.file)}:${f.span.startLine + 1}`),
    [],
    'no hot key and no reader missing shards',
  );
  const create = again.w.index
    .results()
    .flatMap((r) => r.accesses)
    .find((x) => x.operation === 'PutItem' && x.file.endsWith('status.ts'))!;
  assert.equal(renderText(create.partitionKey!.template), 'public#{}');
});

test('over LSP: the schema finding offers the random default, and its edit is the fix', async () => {
  const dir = copy('status');
  const session = startServer(dir);
  try {
    await session.initialize();
    const file = path.join(dir, 'models.ts');
    const diagnostics = await openDocument(session, file);
    const hot = diagnostics.find((d) => d.code === 'SL001');
    assert.ok(hot, JSON.stringify(diagnostics.map((d) => d.message)));
    // The reader is in a file no editor opened: wait for the workspace index.
    await indexed(session);
    const actions = await codeActionsAt(session, file, hot.range);
    const fix = actions.find((a) => a.title.startsWith('Shard StatusUpdate.page with a random default'));
    assert.ok(fix?.edit?.changes, actions.map((a) => a.title).join('\n'));
    assert.deepEqual(writeWorkspaceEdit(fix.edit.changes).sort(), ['models.ts', 'status.ts']);
    assert.match(fs.readFileSync(file, 'utf8'), /default: \(\) => `public#\$\{Math\.floor\(Math\.random\(\)/);
    assert.match(fs.readFileSync(path.join(dir, 'status.ts'), 'utf8'), /await queryStatusUpdatePublicShards\(\)/);
    assert.deepEqual(typeErrors(dir), []);
  } finally {
    session.stop();
  }
});

/** Sets a banner per slot, reads each back, lists them, removes two and reads those again. */
const bannerDriver = (dir: string) => `${CONNECT}
const handler = require(${JSON.stringify(path.join(dir, 'handler.js'))});
(async () => {
  const slots = Array.from({ length: 12 }, (_, i) => 'slot-' + String(i).padStart(2, '0'));
  for (const slot of slots)
    await handler.setBanner({ pathParameters: { slot }, body: JSON.stringify({ imageUrl: 'https://cdn/' + slot }) });
  const found = [];
  for (const slot of slots) found.push((await handler.getBanner({ pathParameters: { slot } }))?.imageUrl ?? null);
  const listed = (await handler.listBanners()).map((b) => b.slot);
  for (const slot of slots.slice(0, 2)) await handler.removeBanner({ pathParameters: { slot } });
  const removed = [];
  for (const slot of slots.slice(0, 2)) removed.push((await handler.getBanner({ pathParameters: { slot } })) ?? null);
  const left = (await handler.listBanners()).map((b) => b.slot);
  console.log(JSON.stringify({ found, listed, removed, left }));
})();
`;

const runBanners = (dir: string) => runFixture(dir, table('banners', 'site', ['slot', 'S']), bannerDriver(dir));

test('banners read one by one: the key is computed from the slot at every access, and every banner is found', async () => {
  const before = copy('banners');
  const baseline = await runBanners(before);
  assert.equal(baseline.out.found.filter(Boolean).length, 12);
  assert.deepEqual(baseline.out.removed, [null, null]);
  assert.equal(baseline.out.left.length, 10);

  const dir = copy('banners');
  const { w, byFinding } = await fixesOf(dir);
  const schema = byFinding.find((b) => b.at === 'SL001 banner.js:7')!;
  assert.deepEqual(
    schema.actions.map((a) => a.title),
    ['Shard Banner.site by hash(slot) mod 10, computed by bannerSite() at 3 accesses'],
    'no random default: the banners are read and removed by their key',
  );
  applyAction(w.ctx, schema.actions[0]);
  const handler = fs.readFileSync(path.join(dir, 'handler.js'), 'utf8');
  assert.equal((handler.match(/site: bannerSite\(event\.pathParameters\.slot\)/g) ?? []).length, 3);
  assert.match(handler, /return `storefront#\$\{shardlensHash\(String\(slot\)\) % BANNER_SITE_SHARDS\}`;/);
  assert.match(
    fs.readFileSync(path.join(dir, 'banner.js'), 'utf8'),
    /site: \{ type: String, hashKey: true, required: true \}/,
  );
  assert.deepEqual(typeErrors(dir), []);

  const fixed = await runBanners(dir);
  assert.deepEqual(fixed.out, baseline.out, 'every get, the list in slot order, the removals: as before');
  const shards = new Set(fixed.items.map((i) => String(i.site)));
  for (const s of shards) assert.match(s, /^storefront#\d$/);
  assert.ok(shards.size > 1, `10 banners on ${shards.size} shard(s)`);
  assert.deepEqual(
    fixed.items.map((i) => ({ ...i, site: 'storefront' })).sort((a, b) => String(a.slot).localeCompare(String(b.slot))),
    baseline.items.sort((a, b) => String(a.slot).localeCompare(String(b.slot))),
    'the same items, apart from the key',
  );
  const again = await fixesOf(dir);
  assert.deepEqual(
    again.w.findings.map((f) => `${f.rule} ${path.basename(f.file)}:${f.span.startLine + 1}`),
    [],
  );
});

const noticeDriver = (dir: string) => `${CONNECT}
import { lobbyNotices, pinNotice, postNotice } from ${JSON.stringify(path.join(dir, 'notices'))};
(async () => {
  for (let i = 0; i < 15; i++) await postNotice('n-' + String(i).padStart(2, '0'), 'notice ' + i);
  for (let i = 0; i < 15; i += 3) await pinNotice('n-' + String(i).padStart(2, '0'));
  console.log(JSON.stringify(await lobbyNotices()));
})();
`;

test('lobby notices updated by id (TypeScript): the model module exports the key function, and every pin lands', async () => {
  const run = (dir: string) => runFixture(dir, table('notices', 'board', ['noticeId', 'S']), noticeDriver(dir));
  const baseline = await run(copy('notices'));
  assert.equal(baseline.out.length, 15);
  assert.equal(baseline.out.filter((n: { pinned: boolean }) => n.pinned).length, 5);

  const dir = copy('notices');
  const { w, byFinding } = await fixesOf(dir);
  const fix = byFinding.find((b) => b.at === 'SL001 notices.ts:8')!.actions;
  assert.deepEqual(
    fix.map((a) => a.title),
    ['Shard Notice.board by hash(noticeId) mod 10, computed by noticeBoard() at 2 accesses'],
  );
  applyAction(w.ctx, fix[0]);
  const models = fs.readFileSync(path.join(dir, 'models.ts'), 'utf8');
  assert.match(models, /\*\/\nexport function noticeBoard\(noticeId: unknown\): string \{/);
  const notices = fs.readFileSync(path.join(dir, 'notices.ts'), 'utf8');
  assert.match(notices, /^import \{ NoticeModel, NOTICE_BOARD_SHARDS, noticeBoard \} from '\.\/models';$/m);
  assert.match(notices, /NoticeModel\.update\(\{ board: noticeBoard\(noticeId\), noticeId \}, \{ pinned: true \}\)/);
  assert.deepEqual(typeErrors(dir), []);

  const fixed = await run(dir);
  assert.deepEqual(fixed.out, baseline.out, 'the same 15 notices by id, the same 5 pinned');
  assert.equal(fixed.items.length, 15, 'no update made an item of its own');
  assert.ok(new Set(fixed.items.map((i) => i.board)).size > 1);
  const again = await fixesOf(dir);
  assert.deepEqual(
    again.w.findings.map((f) => `${f.rule} ${path.basename(f.file)}:${f.span.startLine + 1}`),
    [],
  );
});

test('one settings item read by its hash key alone: no shard fix, and the light bulb says why', async () => {
  const dir = copy('settings');
  assert.deepEqual(typeErrors(dir), []);
  const { byFinding } = await fixesOf(dir);
  const hot = byFinding.filter((b) => b.finding.rule === 'SL001');
  assert.ok(hot.length >= 2, hot.map((b) => b.at).join(', '));
  for (const b of hot)
    assert.deepEqual(
      b.actions.flatMap((a) => a.changes),
      [],
      `${b.at} edits nothing`,
    );
  assert.deepEqual(
    hot.find((b) => b.at === 'SL001 settings.ts:7')!.actions.map((a) => a.title),
    [
      'No shard fix: random shard: the GetItem at settings.ts:15 finds one item by its key, which a random shard would lose; calculated shard: no range key identifies the item at every access of scope',
    ],
  );
});

test('a schema two models are built from is not sharded for one of them', async () => {
  // The load tester's model writes only creates, so alone it would get a random shard; but
  // the schema is also the queue's, whose get and query name the bare key.
  const { byFinding } = await fixesOf(copy('queue'));
  const schema = byFinding.filter((x) => x.at === 'SL001 models.ts:7');
  assert.equal(schema.length, 2);
  for (const { actions } of schema) {
    assert.deepEqual(
      actions.map((a) => [a.id, a.changes.length]),
      [['shard-fix-blocked', 0]],
    );
  }
  const titles = schema.map((x) => x.actions[0].title).sort();
  assert.match(titles[0], /the schema is shared with LoadTestTicket \(table matchmaking-loadtest\)/);
  assert.match(titles[1], /the schema is shared with Ticket \(table \$QUEUE_TABLE\)/);
});
