// SL004 on counters whose callers read the new count (`ReturnValues: UPDATED_NEW`): a
// boto3 page-view module on a module-level client with the table from the environment,
// a boto3 likes module that builds its Table in the function from a module resource, a
// Lambda counting downloads with the legacy AttributeUpdates ADD on a low-level client, a
// lib-dynamodb vote counter returning `Attributes.count`, a clap counter on SDK v3's
// aggregated DynamoDBDocument (`await db.update(...)`), and an SDK v2 DocumentClient
// hit-counter Lambda. Each program runs K increments one after another against dynalite
// before and after the fix: both must return 1..K (the true total after each increment,
// not one shard's count), and after the fix the count is spread over several items whose
// sum is K. Counters whose new value is an id, or whose old value is read, get no spread.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { actionsOn, assertSpreadClean, counterFixtures, freshTable, itemsOf, nodeLoop } from './helpers-counter';
import { table } from './helpers-programs';
import { writeFixes } from '../../server/src/features/fixes/index';
import { applyAction, indexWorkspace, runDriverAt, startDynalite, typeErrors, type Dynalite } from './helpers-write';

const K = 50;

interface Case {
  fixture: string;
  /** The counter attribute, summed over the table's items after the run. */
  attribute: string;
  sortKey?: string;
  language: 'node' | 'python';
  /** Prints a JSON array of the K values the program's function returned. */
  driver: string;
}

const CASES: Case[] = [
  {
    fixture: 'py-views',
    attribute: 'view_count',
    language: 'python',
    driver: `import json, os
from page_stats import increment_views
print(json.dumps([increment_views("/pricing") for _ in range(int(os.environ["K"]))]))`,
  },
  {
    fixture: 'py-resource',
    attribute: 'likes',
    language: 'python',
    driver: `import json, os
from likes import add_like
print(json.dumps([add_like() for _ in range(int(os.environ["K"]))]))`,
  },
  {
    // The legacy `AttributeUpdates: {n: {Action: 'ADD'}}` on a low-level client, read back from the response.
    fixture: 'py-legacy-adds',
    attribute: 'downloads',
    language: 'python',
    driver: `import json, os
from downloads import lambda_handler
print(json.dumps([lambda_handler({}, None)["body"] for _ in range(int(os.environ["K"]))]))`,
  },
  {
    fixture: 'ts-votes',
    attribute: 'count',
    sortKey: 'sk',
    language: 'node',
    driver: `import { castVote } from './votes';\n${nodeLoop("(await castVote('yes')).total")}`,
  },
  {
    // SDK v3's aggregated DocumentClient: `await db.update({...})` is a promise, read with ALL_NEW.
    fixture: 'ts-doc-claps',
    attribute: 'claps',
    language: 'node',
    driver: `import { clap } from './claps';\n${nodeLoop('await clap()')}`,
  },
  {
    fixture: 'js-hits',
    attribute: 'hits',
    language: 'node',
    // SDK v2 predates AWS_ENDPOINT_URL: the global config points it, before the module makes its client.
    driver: `import AWS from 'aws-sdk';
AWS.config.update({ endpoint: process.env.AWS_ENDPOINT_URL });
(async () => {
  const { handler } = await import('./hits');
  const out: number[] = [];
  for (let i = 0; i < Number(process.env.K); i++) out.push(JSON.parse((await handler()).body).hits);
  process.stdout.write(JSON.stringify(out));
})();`,
  },
];

const copy = counterFixtures();

describe('counters whose callers read the new count', () => {
  let db: Dynalite;

  before(async () => {
    db = await startDynalite({ deleteTableMs: 0 });
  });
  after(() => db.close());

  /** Runs the program's driver on a fresh table; returns what it returned and the items stored. */
  async function runOn(c: Case, dir: string): Promise<{ returned: number[]; items: Array<Record<string, unknown>> }> {
    await freshTable(db, table('counters', 'pk', c.sortKey ? [c.sortKey, 'S'] : null));
    const out = await runDriverAt(db.endpoint, dir, c.language, c.driver, {
      TABLE: 'counters',
      TABLE_NAME: 'counters',
      HITS_TABLE: 'counters',
      K: String(K),
    });
    return { returned: JSON.parse(out) as number[], items: await itemsOf(db, 'counters') };
  }

  for (const c of CASES) {
    test(`${c.fixture}: the fixed program returns the true total after each of ${K} increments`, async () => {
      const dir = copy(c.fixture);
      const original = await indexWorkspace(dir);
      const finding = original.findings.find((f) => f.rule === 'SL004');
      assert.ok(finding, 'the counter is reported');
      const actions = actionsOn(finding, original.ctx);
      assert.deepEqual(
        actions.map((a) => a.id),
        ['spread-counter'],
        'a hit counter gets the spread, and no advice about ids',
      );
      assert.match(actions[0].title, /returning the total/);

      const want = Array.from({ length: K }, (_, i) => i + 1);
      const beforeRun = await runOn(c, dir);
      assert.deepEqual(beforeRun.returned, want, 'the original returns 1..K');
      assert.equal(beforeRun.items.length, 1);

      const errorsBefore = typeErrors(dir);
      applyAction(original.ctx, actions[0]);
      assertSpreadClean(original, await indexWorkspace(dir), errorsBefore, ['SL004']);

      const afterRun = await runOn(c, dir);
      assert.deepEqual(afterRun.returned, want, 'the fixed program returns the total over the shards, 1..K');
      const stored = afterRun.items.reduce((sum, i) => sum + Number(i[c.attribute] ?? 0), 0);
      assert.equal(stored, K, 'the shards add up to K');
      assert.ok(afterRun.items.length > 1, `spread over ${afterRun.items.length} items`);
      assert.ok(
        afterRun.items.every((i) => Number(i[c.attribute]) < K),
        'no single item holds the whole count',
      );
    });
  }

  test("Python: 150 shards are read in two BatchGetItems; a module whose `time` is datetime's gets its own import", async () => {
    const c = CASES.find((x) => x.fixture === 'py-resource')!;
    const dir = copy(c.fixture);
    const file = path.join(dir, 'likes.py');
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('import os\n', 'import os\nfrom datetime import time\n'),
    );
    const original = await indexWorkspace(dir);
    const finding = original.findings.find((f) => f.rule === 'SL004')!;
    const action = writeFixes.flatMap((p) => p(finding, original.ctx, { shardCount: 150 }))[0];
    assert.equal(action.id, 'spread-counter');
    applyAction(original.ctx, action);
    const fixed = fs.readFileSync(file, 'utf8');
    assert.match(fixed, /^def \w+_total\(\):\n(?:.*\n){1,2} {4}import time$/m, 'the reader imports time for itself');
    assert.doesNotMatch(fixed, /^import time$/m, 'no module import shadows datetime.time');
    assert.match(
      fixed,
      /dynamodb\.Table\(TABLE_NAME\)\.meta\.client\.batch_get_item|table\.meta\.client\.batch_get_item/,
    );
    const afterRun = await runOn(c, dir);
    assert.deepEqual(
      afterRun.returned,
      Array.from({ length: K }, (_, i) => i + 1),
      'the total over 151 items, 1..K',
    );
  });
});

test('continuation lines aligned with the call stay aligned when the fix wraps the call', async () => {
  const dir = copy('py-legacy-adds');
  const original = await indexWorkspace(dir);
  const finding = original.findings.find((f) => f.rule === 'SL004')!;
  applyAction(original.ctx, actionsOn(finding, original.ctx)[0]);
  const lines = fs.readFileSync(path.join(dir, 'downloads.py'), 'utf8').split('\n');
  const first = lines.findIndex((l) => l.includes('dynamodb.update_item('));
  assert.match(lines[first], /= with_downloads_total\(dynamodb\.update_item\(TableName=/);
  const column = lines[first].indexOf('update_item(') + 'update_item('.length;
  const continued = lines.slice(first + 1, first + 4);
  assert.deepEqual(
    continued.map((l) => l.length - l.trimStart().length),
    [column, column, column],
    continued.join('\n'),
  );
});

describe('counters no spread can keep', () => {
  test('Python: a key held in a module name the reader would hide with its own local (`total`): not spread, said why', async () => {
    const dir = copy('py-resource');
    const file = path.join(dir, 'likes.py');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(
      file,
      text
        .replace(
          'dynamodb = boto3.resource("dynamodb")',
          'dynamodb = boto3.resource("dynamodb")\ntotal = "LIKES#landing"',
        )
        .replace('Key={"pk": "LIKES#landing"}', 'Key={"pk": total}'),
    );
    const ws = await indexWorkspace(dir);
    const f = ws.findings.find((x) => x.rule === 'SL004');
    assert.ok(f, 'the counter is reported through its constant');
    assert.deepEqual(
      actionsOn(f, ws.ctx).map((a) => a.id),
      ['counter-not-spread'],
    );
  });

  test('a count read in an SDK v2 callback: the spread is not offered, and the action says why', async () => {
    const ws = await indexWorkspace(copy('js-callback'));
    const f = ws.findings.find((x) => x.rule === 'SL004');
    assert.ok(f);
    const actions = actionsOn(f, ws.ctx);
    assert.deepEqual(
      actions.map((a) => [a.id, a.changes.length]),
      [['counter-not-spread', 0]],
    );
    assert.match(actions[0].title, /callback/);
  });

  test('an id counter gets the UUID advice and no spread; an unused response is spread; old values are not', async () => {
    const dir = copy('py-ids');
    const ws = await indexWorkspace(dir);
    const byKey = (key: string) => {
      const f = ws.findings.find((x) => x.rule === 'SL004' && x.message.includes(key));
      assert.ok(f, key);
      return actionsOn(f, ws.ctx).map((a) => a.id);
    };
    assert.deepEqual(byKey('SEQ#orders'), ['counter-use-uuid'], 'next_order_id() returns the count as an id');
    assert.deepEqual(byKey('ALLOC#invoices'), ['counter-use-uuid'], 'allocate() is stored as invoice_id by its caller');
    assert.deepEqual(byKey('AUDIT#events'), ['spread-counter'], 'the response of record_audit() is not used');
    assert.deepEqual(
      byKey('TOTAL#visits'),
      ['counter-not-spread'],
      'previous_total() returns the old count, which N items cannot give: said, not done',
    );
  });
});
