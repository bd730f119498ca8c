/**
 * PynamoDB as a front-end of the key model, proven on fixtures written in PynamoDB's
 * documented style (test/fixtures/libraries/pynamodb). PynamoDB is not installed here
 * (no PyPI): the fixtures are static, read as its documented API says its calls send
 * their requests. The hot keys are found where the call or the model makes them, with
 * the attribute's declaration as related location; the spread ones are not; hover and
 * `shardlens keys --match` name the model and index.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { normalizeSettings } from '../../protocol/src/settings';
import { hoverMarkdown } from '../../server/src/lsp/hover';
import type { Access, Finding } from '../../server/src/engine';
import { CLI, placesIn, readLibraryFixture, renderText, ROOT } from './helpers';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'libraries', 'pynamodb');
const { rel, line } = placesIn(FIXTURE);

let accesses: Access[];
let findings: Finding[];

before(async () => {
  ({ index, accesses, findings } = await readLibraryFixture(FIXTURE));
});

test('every PynamoDB call of the fixtures is read, on its model, index and table', () => {
  const calls = accesses
    .filter((a) => a.library?.library === 'pynamodb')
    .map(
      (a) =>
        `${line(a)} ${a.operation} ${a.library!.entity}${a.library!.accessPattern ? `.${a.library!.accessPattern}` : ''}` +
        `${a.index ? ` @${a.index}` : ''} ${a.partitionKey?.attribute ?? '-'}`,
    );
  for (const want of [
    // A status index queried with a constant, directly and through a repository function.
    'forum/handlers.py:7 Query Thread.status_index @status-index status',
    'forum/handlers.py:11 Query Thread.status_index @status-index status',
    // A counter: fetched, then `.add(1)`; the hash key is stored as `pk` (attr_name).
    'forum/handlers.py:15 GetItem PageCounter pk',
    'forum/handlers.py:16 UpdateItem PageCounter pk',
    'forum/handlers.py:20 PutItem AuditEvent stream',
    'forum/handlers.py:25 PutItem Session session_id',
    'forum/handlers.py:30 GetItem Thread forum_name',
    'forum/handlers.py:31 UpdateItem Thread forum_name',
    'forum/handlers.py:40 PutItem BoardScore board_shard',
    'forum/handlers.py:46 BatchWriteItem Thread forum_name',
    'forum/handlers.py:50 Query Thread forum_name',
    // A loop over a query, an annotated parameter, a local index, `index_name=`, batch_get, refresh.
    'forum/moderation.py:5 Query Thread forum_name',
    'forum/moderation.py:6 DeleteItem Thread forum_name',
    'forum/moderation.py:10 UpdateItem Thread forum_name',
    'forum/moderation.py:14 Query Thread.views_index @views_index forum_name',
    'forum/moderation.py:18 Query Thread.author_index @author-index aid',
    'forum/moderation.py:22 BatchGetItem Thread forum_name',
    'forum/moderation.py:27 GetItem Thread forum_name',
    // `self.update(...)` in the model's own method.
    'forum/models.py:58 UpdateItem Thread forum_name',
    'forum/repository.py:5 Query Thread.status_index @status-index status',
    'forum/repository.py:10 PutItem Thread forum_name',
  ])
    assert.ok(calls.includes(want), `${want} not in\n${calls.join('\n')}`);
  const tables = new Set(accesses.filter((a) => a.library).map((a) => JSON.stringify(a.table)));
  assert.ok(
    [...tables].some((t) => t.includes('COUNTERS_TABLE')),
    'the table named by os.environ',
  );
});

test('requests carry the range key condition, the count and the counter', () => {
  const recent = accesses.find((a) => line(a) === 'forum/handlers.py:50')!;
  assert.equal(recent.sortCondition?.attribute, 'subject');
  assert.equal(recent.sortCondition?.operator, 'begins_with');
  assert.equal(renderText(recent.sortCondition!.operands[0].template), '2024');
  assert.equal(recent.limited, true);
  const views = accesses.find((a) => line(a) === 'forum/moderation.py:14')!;
  assert.equal(views.sortCondition?.operator, '>');
  const counter = accesses.find((a) => line(a) === 'forum/handlers.py:16')!;
  assert.equal(counter.increments, true);
  const bump = accesses.find((a) => line(a) === 'forum/moderation.py:10')!;
  assert.equal(bump.increments, true, 'set(Thread.views + 1) increments too');
});

test('the hot keys are found at the call, or at the attribute when its default alone makes the key', () => {
  const got = findings.map((f) => `${f.rule} ${line(f)}:${f.span.startColumn + 1}`);
  for (const want of [
    'SL001 forum/handlers.py:7:58',
    // Through the repository function: at the caller's argument.
    'SL001 forum/handlers.py:11:32',
    'SL001 forum/handlers.py:15:31',
    'SL004 forum/handlers.py:15:31',
    // A constant `default=` on the hash key: at the attribute, once (the save leaving it out is related).
    'SL001 forum/models.py:77:5',
    // Every new thread lands in the OPEN partition of the status index (its default).
    'SL001 forum/models.py:49:5',
  ])
    assert.ok(got.includes(want), `${want} not in\n${got.join('\n')}`);
  const open = findings.find((f) => line(f) === 'forum/handlers.py:7')!;
  assert.match(open.message, /"OPEN" on index "status-index" of table "Thread"/);
  assert.deepEqual(
    open.related.map((r) => `${rel(r.file)}:${r.span.startLine + 1} ${r.message}`),
    ['forum/models.py:21 Thread.status is declared here'],
  );
  // The schema's finding keeps the rule's fix descriptors for PynamoDB's own fixes (features/fixes/libraries/pynamodb).
  const status = findings.find((f) => line(f) === 'forum/models.py:49')!;
  assert.ok(
    status.fixes.some((d) => d.kind === 'add-shard-suffix'),
    JSON.stringify(status.fixes),
  );
  // Each default's key once, at the attribute: the saves that leave it out are its related locations.
  for (const [schema, save, attribute, key] of [
    ['forum/models.py:77', 'forum/handlers.py:20', 'stream', 'AUDIT'],
    ['forum/models.py:49', 'forum/repository.py:10', 'status', 'OPEN'],
    ['scores/models.py:23', 'scores/handlers.py:26', 'feed', 'FEED'],
  ]) {
    assert.deepEqual(
      findings.filter((f) => f.rule === 'SL001' && line(f) === save),
      [],
      `${save} is the schema's`,
    );
    const at = findings.find((f) => f.rule === 'SL001' && line(f) === schema)!;
    assert.ok(at.access.library?.schema);
    assert.ok(
      at.related.some(
        (r) =>
          `${rel(r.file)}:${r.span.startLine + 1}` === save &&
          r.message === `this save leaves ${attribute} to its default "${key}"`,
      ),
      at.related.map((r) => r.message).join('\n'),
    );
  }
  // A save that gives the key is its own finding still (the board's "global").
  assert.ok(findings.some((f) => f.rule === 'SL001' && line(f) === 'scores/handlers.py:8'));
  const counter = findings.find((f) => f.rule === 'SL004')!;
  assert.deepEqual(
    counter.related.map((r) => `${rel(r.file)}:${r.span.startLine + 1}`),
    ['forum/models.py:67'],
  );
  assert.equal(counter.access.partitionKey?.attribute, 'pk');
});

test('a base model, a key attribute subclass and a generic index: the index partition a constant default fills', () => {
  const got = findings.map((f) => `${f.rule} ${line(f)}:${f.span.startColumn + 1} ${f.access.index}`);
  // At the attribute whose default fills the index key, once: the save that leaves it out is related.
  assert.ok(got.includes('SL001 catalog/products.py:22:5 gsi1'), got.join('\n'));
  assert.ok(!got.some((g) => g.startsWith('SL001 catalog/products.py:31:')), got.join('\n'));
  const gsi1 = findings.find((f) => line(f) === 'catalog/products.py:22')!;
  assert.deepEqual(
    gsi1.related.map((r) => `${rel(r.file)}:${r.span.startLine + 1}`),
    ['catalog/products.py:22', 'catalog/products.py:31'],
  );
  const save = accesses.filter((a) => line(a) === 'catalog/products.py:31');
  assert.deepEqual(
    save
      .map((a) => `${a.index ?? 'table'} ${a.partitionKey?.attribute} ${renderText(a.partitionKey!.template)}`)
      .sort(),
    ['gsi1 gsi1pk PRODUCT', 'table pk PRODUCT#{}'],
  );
  assert.match(JSON.stringify(save[0].table), /CATALOG_TABLE/);
});

test('a Meta deriving from another class keeps what its base declares: the table', () => {
  const table = (l: string) => JSON.stringify(accesses.find((a) => line(a) === l)?.table);
  // `class Meta(BaseModel.Meta)` adds a setting to the base model's; `class Meta(ServiceMeta)` names a plain class.
  assert.match(table('catalog/orders.py:32'), /CATALOG_TABLE/);
  assert.match(table('catalog/orders.py:36'), /ORDERS_TABLE/);
});

test('a key built by a static or class method of the model is read through it, here and in an importer', () => {
  const keyAt = (file: string) => {
    const q = accesses.find((a) => rel(a.file) === file && a.library?.entity === 'Shipment' && a.operation === 'Query');
    return q ? renderText(q.partitionKey!.template) : null;
  };
  // `Shipment.order_key(event["orderId"])` (a classmethod) in its module; `Shipment.carrier_key("ACME")` (a staticmethod) imported.
  assert.equal(keyAt('catalog/orders.py'), 'ORDER#{}');
  assert.equal(keyAt('catalog/shipping.py'), 'CARRIER#ACME');
  assert.ok(
    findings.some((f) => f.rule === 'SL001' && rel(f.file) === 'catalog/shipping.py'),
    'the constant carrier key is found at the call',
  );
});

test('a UUID default, an id from the request and a sharded key are not reported', () => {
  const quiet = accesses.filter(
    (a) =>
      ['Session', 'BoardScore'].includes(a.library?.entity ?? '') ||
      (a.library?.entity === 'Thread' && !a.index && a.partitionKey?.attribute === 'forum_name'),
  );
  assert.ok(quiet.length >= 10, `${quiet.length}`);
  assert.deepEqual(
    findings.filter((f) => quiet.includes(f.access)).map((f) => `${f.rule} ${line(f)}`),
    [],
  );
  const session = accesses.find((a) => a.library?.entity === 'Session')!;
  assert.equal(session.partitionKey?.template.parts[0] && 'hole' in session.partitionKey.template.parts[0], true);
  assert.equal(renderText(session.partitionKey!.template), '{}');
  const score = accesses.find((a) => a.library?.entity === 'BoardScore')!;
  const shard = score.partitionKey!.template.parts.find((p) => 'hole' in p && p.hole.kind === 'shard');
  assert.ok(shard && 'hole' in shard);
  assert.equal(shard.hole.shards?.values?.length, 10);
});

test('the hover names the model and the index', () => {
  const open = accesses.find((a) => line(a) === 'forum/handlers.py:7')!;
  const md = hoverMarkdown(open, findings, normalizeSettings({})).value;
  assert.match(md, /Thread model · status\\_index · Query/);
  const get = accesses.find((a) => line(a) === 'forum/handlers.py:15')!;
  assert.match(hoverMarkdown(get, findings, normalizeSettings({})).value, /PageCounter model · GetItem/);
});

test('`shardlens keys --match` names the model logical key of a stored key', () => {
  const out = execFileSync('node', [CLI, 'keys', FIXTURE, '--match', 'OPEN', 'homepage', 'AUDIT', '--format', 'json'], {
    encoding: 'utf8',
  });
  const matches = JSON.parse(out).matches as Array<{
    key: string;
    logicalKeys: Array<{ logicalKey: string; model?: string }>;
  }>;
  const named = (k: string) =>
    (matches.find((m) => m.key === k)?.logicalKeys ?? []).map((l) => `${l.model} · ${l.logicalKey}`);
  assert.ok(
    named('OPEN').includes('Thread model · status_index · Thread/status-index · status = OPEN'),
    named('OPEN').join('\n'),
  );
  assert.ok(
    named('homepage').includes('PageCounter model · $COUNTERS_TABLE · pk = homepage'),
    named('homepage').join('\n'),
  );
  assert.ok(named('AUDIT').includes('AuditEvent model · audit-events · stream = AUDIT'), named('AUDIT').join('\n'));
  const text = execFileSync('node', [CLI, 'keys', FIXTURE], { encoding: 'utf8' });
  assert.match(text, /Thread model · status_index · Thread\/status-index · status = OPEN/);
});
