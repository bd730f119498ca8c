// SL004: a counter item spread over N items. The fixed increment, run K times with
// the real SDK against dynalite, lands on the N counter items; the generated summing
// reader returns K. The fixed code parses, type-checks / compiles, and the engine
// reports no counter finding and nothing new.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { CreateTableCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { writeFixes } from '../../server/src/features/fixes/index';
import {
  applyAction,
  findingIds,
  fixtureCopier,
  indexWorkspace,
  pythonErrors,
  runDriverAt,
  startDynalite,
  typeErrors,
} from './helpers-write';
import { table } from './helpers-programs';

const K = 120;
const copy = fixtureCopier(path.join(__dirname, 'fixtures', 'counter'));

const cases = [
  {
    name: 'ts',
    runtime: 'node',
    file: 'order-counter.ts',
    reader: 'readOrdersTotal',
    drive: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { OrderCounter } from './order-counter';
const c = new OrderCounter(DynamoDBDocumentClient.from(new DynamoDBClient({})));
(async () => {
  for (let i = 0; i < Number(process.env.K); i += 20) await Promise.all(Array.from({ length: 20 }, () => c.countOrder()));
  process.stdout.write(String(await c.readOrdersTotal()));
})();
`,
  },
  {
    name: 'py',
    runtime: 'python',
    file: 'page_views.py',
    reader: 'read_view_count_total',
    drive: `import os
from page_views import PageViews
v = PageViews()
for _ in range(int(os.environ["K"])):
    v.count_view()
print(v.read_view_count_total(), end="")
`,
  },
  {
    // The table made in db.py, imported by the Lambda that counts (`from db import
    // vote_counters`) and by the one that reads (`import db`, `db.vote_counters`): the
    // reader moves to the generated sum across the import.
    name: 'py-imported',
    runtime: 'python',
    file: 'votes.py',
    reader: 'read_votes_total',
    drive: `import json, os
import results, votes
for _ in range(int(os.environ["K"])):
    votes.handler({"pathParameters": {"id": "p1"}}, None)
print(json.loads(results.handler({}, None)["body"])["votes"], end="")
`,
  },
] as const;

for (const c of cases) {
  test(`${c.name}: the counter is spread over N items and the generated reader sums them`, async () => {
    const dir = copy(c.name);
    const original = await indexWorkspace(dir);
    const finding = original.findings.find((f) => f.rule === 'SL004');
    assert.ok(finding);
    assert.ok(finding.message.includes('on table "stats"'), finding.message);
    const action = writeFixes.flatMap((p) => p(finding, original.ctx)).find((a) => a.id === 'spread-counter');
    assert.ok(action);
    assert.match(action.title, new RegExp(`sum them in ${c.reader}\\(\\)`));
    applyAction(original.ctx, action);

    const fixed = await indexWorkspace(dir);
    for (const r of fixed.index.results()) assert.equal(r.syntaxErrors, false);
    assert.deepEqual([...typeErrors(dir), ...pythonErrors(dir)], []);
    const before = new Set(findingIds(original.findings));
    assert.deepEqual(
      findingIds(fixed.findings).filter((f) => f.startsWith('SL004') || !before.has(f)),
      [],
    );
    assert.deepEqual(
      fixed.findings
        .flatMap((f) => writeFixes.flatMap((p) => p(f, fixed.ctx)))
        .filter((a) => a.id === 'spread-counter'),
      [],
    );

    const db = await startDynalite();
    try {
      await db.client.send(new CreateTableCommand(table('stats', 'PK', null)));
      const out = await runDriverAt(db.endpoint, dir, c.runtime, c.drive, { K: String(K) });
      assert.equal(Number(out), K, 'the summing reader returns every increment');
      const items = (await db.client.send(new ScanCommand({ TableName: 'stats' }))).Items ?? [];
      assert.equal(items.length, 10, `one item per shard: ${items.map((i) => i.PK.S).join(', ')}`);
    } finally {
      await db.close();
    }
  });
}

test('a counter that is the item on some paths only (`VIEWS#${page}`, page defaulting to site) is not spread, and says why', async () => {
  const ws = await indexWorkspace(copy('views-default-ts'));
  const add = ws.findings.find((f) => f.rule === 'SL004');
  assert.ok(add, 'SL004 on the increment of VIEWS#site');
  // A summing reader of VIEWS#site's shards would answer GET /views?page=home with the site's count;
  // written outside the handler, it would not even see `page`.
  assert.deepEqual(
    writeFixes.flatMap((p) => p(add, ws.ctx)).map((a) => [a.id, a.changes.length, a.title]),
    [
      [
        'counter-not-spread',
        0,
        'Not spread over N items: the UpdateItem at views.ts:10 uses this item on some paths only (its key can name another counter)',
      ],
    ],
  );
});
