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
import { CreateTableCommand, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
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

/** The driver's printed JSON and the items stored, run against a fresh dynalite with the table created. */
async function runStatus(dir: string, driver: string) {
  const db = await startDynalite();
  try {
    await db.client.send(new CreateTableCommand(table('status-updates', 'page', ['at', 'N'])));
    const out = await runDriverAt(db.endpoint, dir, 'node', driver);
    const items = ((await db.client.send(new ScanCommand({ TableName: 'status-updates' }))).Items ?? []).map((i) =>
      unmarshall(i as Record<string, AttributeValue>),
    );
    return { out: JSON.parse(out.trim().split('\n').pop()!), items };
  } finally {
    await db.close();
  }
}

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

test('write-once status page: the random default is offered on the schema and on the create, as one edit', async () => {
  const dir = copy('status');
  const { byFinding } = await fixesOf(dir);
  const offered = byFinding.filter((b) => b.actions.some((a) => a.changes.length));
  assert.deepEqual(
    offered.map((b) => b.at),
    ['SL001 models.ts:13', 'SL001 status.ts:5'],
  );
  const [a, b] = offered.map((o) => o.actions.find((x) => x.id === 'add-random-shard')!);
  assert.equal(a.title, 'Shard StatusUpdate.page with a random default (10 shards, 1 read of every shard)');
  assert.deepEqual(a.changes, b.changes, 'the same refactor of the whole key');
  assert.deepEqual(
    byFinding.filter((x) => x.finding.rule === 'SL005').flatMap((x) => x.actions),
    [],
    'the sort key finding has no fix of its own',
  );
});

test('write-once status page: fixed, it type-checks, stores on several shards and reads every item in order', async () => {
  const before = copy('status');
  const baseline = await runStatus(before, statusDriver(before));
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

  const fixed = await runStatus(dir, statusDriver(dir));
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

test('banners read one by one: no random default, and the light bulb says which get blocks it', async () => {
  const dir = copy('banners');
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
  const schema = hot.find((b) => b.at === 'SL001 banner.js:7')!;
  assert.deepEqual(
    schema.actions.map((a) => a.title),
    ['No shard fix: the GetItem at handler.js:10 finds one item by its key, which a random shard would lose'],
  );
});
