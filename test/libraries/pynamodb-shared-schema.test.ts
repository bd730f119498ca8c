/**
 * PynamoDB models that share their key attributes (test/fixtures/libraries/pynamodb-shared-schema):
 * an abstract `StreamEvent` base declaring `stream = UnicodeAttribute(hash_key=True, default="ALL")`
 * and two streams deriving from it, each naming its own table; an `ArchivedOrder(Order)` that
 * only overrides `Meta.table_name`; two models of one table with the same constant key. Each
 * model writes the constant partition of its own table, so the finding is the model's, placed at
 * its class name when it inherits the attribute, and names its table; the base with no `Meta`
 * (no table: PynamoDB refuses any request of it) has none. A shard given in the shared `default=`
 * would reach every model deriving it, while the fix's plan holds one table's calls: it is refused,
 * naming the other models; a model alone in deriving it from a base in another module gets no
 * fix either (the default would be edited there, the shard count and readers' imports placed
 * beside the model).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { collectFiles, initParsers, tableName, WorkspaceIndex } from '../../server/src/engine';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { allFixes } from '../../server/src/features/fixes/index';
import { placesIn, ROOT } from './helpers';

const DIR = path.join(ROOT, 'test', 'fixtures', 'libraries', 'pynamodb-shared-schema');

async function workspace() {
  await initParsers();
  const index = new WorkspaceIndex({ root: DIR });
  index.analyzeAll(collectFiles([DIR]).files);
  const findings = index.results().flatMap((r) => r.findings);
  return { findings, ctx: fixContextOf(index, {}) };
}

test('each model deriving a constant default writes its own table, at its class name', async () => {
  const { findings } = await workspace();
  const { line, rel } = placesIn(DIR);
  const schema = findings
    .filter((f) => f.access.library?.schema)
    .map((f) => {
      const decl = f.related.find((r) => /is declared here/.test(r.message))!;
      return `${line(f)} ${f.access.library!.entity} ${tableName(f.access.table)} (${rel(decl.file)}:${decl.span.startLine + 1})`;
    })
    .sort();
  assert.deepEqual(schema, [
    'events/models.py:15 BillingEvent $BILLING_EVENTS_TABLE (events/base.py:9)',
    'events/models.py:8 AuditEvent audit-events (events/base.py:9)',
    'metrics/models.py:6 PageView page-views (metrics/base.py:8)',
    'orders/models.py:11 Order orders (orders/models.py:11)',
    'orders/models.py:16 ArchivedOrder orders-archive (orders/models.py:11)',
    'orders/models.py:27 Setting shop-settings (orders/models.py:27)',
    'orders/models.py:38 FeatureFlag shop-settings (orders/models.py:38)',
  ]);
  assert.deepEqual(
    findings.filter((f) => f.file.endsWith('base.py')).map((f) => `${f.rule} ${line(f)}`),
    [],
    'the abstract base has no table',
  );
  // The audit trail's query is on the audit table's key, written by the audit model alone.
  const query = findings.find((f) => f.rule === 'SL001' && line(f) === 'events/handlers.py:13');
  assert.ok(query);
  assert.equal(tableName(query.access.table), 'audit-events');
});

test('a shard fix through a default other models share is refused, naming them and their tables', async () => {
  const { findings, ctx } = await workspace();
  const { line } = placesIn(DIR);
  const titles = findings
    .filter((f) => f.access.library?.schema)
    .map((f) => {
      const actions = allFixes(f, ctx);
      assert.deepEqual(
        actions.map((a) => [a.id, a.changes.length]),
        [['shard-fix-blocked', 0]],
        line(f),
      );
      return `${line(f)} ${actions[0].title}`;
    })
    .sort();
  assert.deepEqual(titles, [
    'events/models.py:15 No shard fix: the schema is shared with AuditEvent (table audit-events), whose calls a shard in it would change too',
    'events/models.py:8 No shard fix: the schema is shared with BillingEvent (table $BILLING_EVENTS_TABLE), whose calls a shard in it would change too',
    'metrics/models.py:6 No shard fix: PageView.series is declared in metrics/base.py:8, in the module of a base model',
    'orders/models.py:11 No shard fix: the schema is shared with ArchivedOrder (table orders-archive), whose calls a shard in it would change too',
    'orders/models.py:16 No shard fix: the schema is shared with Order (table orders), whose calls a shard in it would change too',
    'orders/models.py:27 No shard fix: the PutItem at orders/handlers.py:27 addresses the key without the Setting model',
    'orders/models.py:38 No shard fix: the PutItem at orders/handlers.py:19 addresses the key without the FeatureFlag model',
  ]);
});
