// SL004 on the counter shapes of visitor/hit-counter Lambdas: a Number partition key
// (`Key={"id": 1}` in boto3, `Key: { id: 0 }` in lib-dynamodb) cannot take a string
// shard suffix — the table rejects a string there — so its spread keeps the Number: the
// shards get the ids `base * N + shard`, offered only when no other access of the table
// uses one of those ids or an id not known. A string-keyed counter is spread under names
// taken from its attribute. Either way the summing reader counts the item written before
// the fix too, and a GetItem of the counter in another module calls the reader. Each
// program runs against dynalite: 30 increments before the fix and 20 after must return
// 1..50, and the reader and the other module's read must both say 50. Names already used
// in the file are not reused.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { actionsOn, assertSpreadClean, counterFixtures, freshTable, itemsOf, nodeLoop } from './helpers-counter';
import { table } from './helpers-programs';
import {
  applyAction,
  indexWorkspace,
  pythonErrors,
  runDriverAt,
  startDynalite,
  typeErrors,
  type Dynalite,
} from './helpers-write';

const copy = counterFixtures();

interface Program {
  language: 'node' | 'python';
  /** Prints a JSON array of what the increment returned, K times in a row. */
  increment: string;
  /** After the fix: prints [the summing reader's total, the other read of the count]. */
  totals?: string;
}

describe('counters on the keys of hit-counter Lambdas', () => {
  let db: Dynalite;

  before(async () => {
    db = await startDynalite({ deleteTableMs: 0 });
  });
  after(() => db.close());

  async function runProgram(dir: string, source: string, language: Program['language'], k: number): Promise<unknown> {
    const out = await runDriverAt(db.endpoint, dir, language, source, {
      VISITS_TABLE: 'visits',
      TABLE_NAME: 'site',
      SITE_TABLE: 'site',
      TABLE: 'site',
      K: String(k),
    });
    return JSON.parse(out);
  }

  /** A fixture on a fresh Number-keyed table, indexed: its counter is reported and offered exactly the spread. */
  async function spreadOffered(fixture: string, keyAttribute: string) {
    const dir = copy(fixture);
    await freshTable(db, table('visits', [keyAttribute, 'N'], null));
    const ws = await indexWorkspace(dir);
    const finding = ws.findings.find((f) => f.rule === 'SL004');
    assert.ok(finding, 'the counter is reported');
    const actions = actionsOn(finding, ws.ctx);
    assert.deepEqual(
      actions.map((a) => a.id),
      ['spread-counter'],
    );
    return { dir, ws, actions };
  }

  const numberKeyed: Array<{ fixture: string; key: string; program: Program }> = [
    {
      fixture: 'py-visits',
      key: '1',
      program: {
        language: 'python',
        increment: `import json, os
from visitor_counter import lambda_handler
print(json.dumps([json.loads(lambda_handler({}, None)["body"])["visits"] for _ in range(int(os.environ["K"]))]))`,
      },
    },
    {
      fixture: 'ts-visits',
      key: '0',
      program: {
        language: 'node',
        increment: `import { handler } from './visits';\n${nodeLoop('JSON.parse((await handler()).body).visits')}`,
      },
    },
  ];

  for (const c of numberKeyed) {
    test(`${c.fixture}: a counter keyed by a Number is spread over Number ids and counts 1..50 across the fix`, async () => {
      const { dir, ws, actions } = await spreadOffered(c.fixture, 'id');
      assert.match(actions[0].title, /Spread the counter over 10 items and sum them in \w+\(\), returning the total/);

      // A string suffix, which a spread of a string key writes, is what such a table refuses.
      await assert.rejects(
        db.client.send(
          new UpdateItemCommand({
            TableName: 'visits',
            Key: { id: { S: `${c.key}#3` } },
            UpdateExpression: 'ADD visits :one',
            ExpressionAttributeValues: { ':one': { N: '1' } },
          }),
        ),
        /ValidationException|Type mismatch/,
      );

      const first = await runProgram(dir, c.program.increment, c.program.language, 30);
      assert.deepEqual(
        first,
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
      applyAction(ws.ctx, actions[0]);
      assert.deepEqual(typeErrors(dir), []);
      assert.deepEqual(pythonErrors(dir), []);
      const fixed = await indexWorkspace(dir);
      assert.deepEqual(
        fixed.findings.map((f) => f.rule),
        [],
        'no finding after the spread',
      );
      const second = await runProgram(dir, c.program.increment, c.program.language, 20);
      assert.deepEqual(
        second,
        Array.from({ length: 20 }, (_, i) => i + 31),
        'the count goes on from the 30 written before the fix',
      );
      // The items: the original id keeps its 30 (id 0 is also shard 0), the shard ids base*10..base*10+9 hold the rest.
      const items = await itemsOf(db, 'visits');
      const base = Number(c.key);
      for (const i of items) assert.equal(typeof i.id, 'number', 'every id is still a Number');
      assert.ok(
        items.every((i) => i.id === base || (i.id >= base * 10 && i.id < base * 10 + 10)),
        JSON.stringify(items.map((i) => i.id)),
      );
      assert.equal(
        items.reduce((s, i) => s + Number(i.visits), 0),
        50,
      );
      assert.ok(items.length > 2, `the 20 later increments are spread over ${items.length - 1} items`);
    });
  }

  test('py-dropped: a response stored in a variable nothing reads is not wrapped, and the GetItem after it reads the total', async () => {
    const { dir, ws, actions } = await spreadOffered('py-dropped', 'pk');
    // Wrapping the dropped response in the total would add N reads to every increment for nothing.
    assert.doesNotMatch(actions[0].title, /returning the total/, actions[0].title);
    assert.match(actions[0].title, /sum them in \w+\(\) \(1 read of the count too\)$/);
    const hits = `import json, os
from page_hits import handler
print(json.dumps([json.loads(handler({}, None)["body"])["hits"] for _ in range(int(os.environ["K"]))]))`;
    assert.deepEqual(
      await runProgram(dir, hits, 'python', 30),
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    applyAction(ws.ctx, actions[0]);
    assert.deepEqual(pythonErrors(dir), []);
    const fixed = fs.readFileSync(path.join(dir, 'page_hits.py'), 'utf8');
    assert.match(
      fixed,
      /\n {4}result = ddb\.update_item\(\n/,
      'the increment keeps its statement, only its key changes',
    );
    assert.deepEqual(
      (await indexWorkspace(dir)).findings.map((f) => f.rule),
      [],
    );
    assert.deepEqual(
      await runProgram(dir, hits, 'python', 20),
      Array.from({ length: 20 }, (_, i) => i + 31),
      'the page shows the total over the shards, going on from the 30 counted before the fix',
    );
    const items = await itemsOf(db, 'visits');
    assert.equal(
      items.reduce((s, i) => s + Number(i.hits), 0),
      50,
    );
    assert.ok(items.length > 2, `spread over ${items.length} items`);
  });

  const stringKeyed: Array<{ fixture: string; reader: string; count: string; attribute: string; program: Program }> = [
    {
      // lib-dynamodb, a repository class; the dashboard in stats.ts reads the counter with GetCommand.
      fixture: 'ts-views',
      reader: 'readViewsTotal',
      count: 'VIEWS_SHARDS',
      attribute: 'views',
      program: {
        language: 'node',
        increment: `import { ViewCounter } from './views';\nconst c = new ViewCounter();\n${nodeLoop('await c.recordView()')}`,
        totals: `import * as views from './views';
import { dashboard } from './stats';
(async () => {
  const total = await (views as unknown as Record<string, () => Promise<number>>).readViewsTotal();
  process.stdout.write(JSON.stringify([total, (await dashboard()).views]));
})();`,
      },
    },
    {
      // boto3 resource in the Lambda; the report module reads the counter with the low-level client.
      fixture: 'py-home',
      reader: 'read_hits_total',
      count: 'HITS_SHARDS',
      attribute: 'hits',
      program: {
        language: 'python',
        increment: `import json, os
from home_counter import handler
print(json.dumps([int(handler({}, None)["body"]) for _ in range(int(os.environ["K"]))]))`,
        totals: `import json
import home_counter, report
print(json.dumps([home_counter.read_hits_total(), report.home_hits()]))`,
      },
    },
    {
      // The boto3 client module of the first round: the reader must now count the old item too.
      fixture: 'py-views',
      reader: 'read_view_count_total',
      count: 'VIEW_COUNT_SHARDS',
      attribute: 'view_count',
      program: {
        language: 'python',
        increment: `import json, os
from page_stats import increment_views
print(json.dumps([increment_views("/") for _ in range(int(os.environ["K"]))]))`,
        totals: `import json
import page_stats
print(json.dumps([page_stats.read_view_count_total(), page_stats.read_view_count_total()]))`,
      },
    },
  ];

  for (const c of stringKeyed) {
    test(`${c.fixture}: 30 increments before the fix and 20 after count 1..50, the reader and the other read say 50`, async () => {
      const dir = copy(c.fixture);
      await freshTable(db, table('site', 'pk', null));
      const original = await indexWorkspace(dir);
      const finding = original.findings.find((f) => f.rule === 'SL004');
      assert.ok(finding);
      const action = actionsOn(finding, original.ctx).find((a) => a.id === 'spread-counter');
      assert.ok(action, 'the spread is offered');
      assert.match(action.title, new RegExp(`sum them in ${c.reader}\\(\\), returning the total`));

      const first = await runProgram(dir, c.program.increment, c.program.language, 30);
      assert.deepEqual(
        first,
        Array.from({ length: 30 }, (_, i) => i + 1),
      );

      const errorsBefore = typeErrors(dir);
      applyAction(original.ctx, action);
      const fixedText = fs
        .readdirSync(dir)
        .filter((f) => /\.(ts|py)$/.test(f))
        .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
        .join('\n');
      assert.match(fixedText, new RegExp(`\\b${c.count}\\s*=\\s*10\\b`), `the count is named ${c.count}`);
      assertSpreadClean(original, await indexWorkspace(dir), errorsBefore, ['SL004', 'SL006']);

      const second = await runProgram(dir, c.program.increment, c.program.language, 20);
      assert.deepEqual(
        second,
        Array.from({ length: 20 }, (_, i) => i + 31),
        'the count goes on from the 30 written before the fix',
      );
      assert.deepEqual(
        await runProgram(dir, c.program.totals!, c.program.language, 0),
        [50, 50],
        'the summing reader and the other read of the count both say 50',
      );
      const items = await itemsOf(db, 'site');
      const old = items.find((i) => !/#\d+$/.test(String(i.pk)));
      assert.equal(Number(old?.[c.attribute]), 30, 'the item written before the fix keeps its 30');
      const shards = items.filter((i) => i !== old);
      assert.ok(shards.length > 1, `the 20 later increments are spread over ${shards.length} items`);
      assert.equal(
        shards.reduce((s, i) => s + Number(i[c.attribute]), 0),
        20,
      );
    });
  }
});

describe('counter keys and names the fix reads from the code', () => {
  test('a Number told by the low-level { N: "7" } or by a constant bound to 42 is spread over Number ids; the code compiles', async () => {
    const dir = copy('number-shapes');
    const ws = await indexWorkspace(dir);
    const counters = ws.findings.filter((f) => f.rule === 'SL004');
    assert.equal(counters.length, 2);
    const expected: Record<string, RegExp> = {
      'downloads.py': /Key=\{"id": \{"N": str\(7 \* DOWNLOADS_SHARDS \+ random\.randrange\(DOWNLOADS_SHARDS\)\)\}\}/,
      'likes.ts': /Key: \{ articleId: ARTICLE_ID \* LIKES_SHARDS \+ Math\.floor\(Math\.random\(\) \* LIKES_SHARDS\) \}/,
    };
    const ranges: Record<string, RegExp> = { 'downloads.py': /ids 70\.\.79/, 'likes.ts': /ids 420\.\.429/ };
    for (const f of counters) {
      const actions = actionsOn(f, ws.ctx);
      assert.deepEqual(
        actions.map((a) => a.id),
        ['spread-counter'],
        f.access.file,
      );
      applyAction(ws.ctx, actions[0]);
      const name = path.basename(f.access.file);
      const fixed = fs.readFileSync(f.access.file, 'utf8');
      assert.match(fixed, expected[name]);
      assert.match(fixed, ranges[name], 'the count says which ids the shards take');
    }
    assert.deepEqual(typeErrors(dir), []);
    assert.deepEqual(pythonErrors(dir), []);
  });

  test('a Number counter is not spread when another access of its table uses a shard id or an id not known', async () => {
    const ws = await indexWorkspace(copy('number-taken'));
    const titles = ws.findings
      .filter((f) => f.rule === 'SL004')
      .map((f) => actionsOn(f, ws.ctx).map((a) => [a.id, a.changes.length, a.title]));
    assert.deepEqual(titles, [
      [
        [
          'counter-not-spread',
          0,
          'Not spread over N items: the GetItem at poll_votes.py:15 addresses ids of the table that the shard ids 30..39 could meet',
        ],
      ],
      [
        [
          'counter-not-spread',
          0,
          'Not spread over N items: the PutItem at stats.py:12 uses id 25, one of the shard ids 20..29',
        ],
      ],
    ]);
  });

  test('a constant Number key written by a put gets no shard suffix either, and the action says why', async () => {
    const ws = await indexWorkspace(copy('number-shapes'));
    const put = ws.findings.find((f) => f.rule === 'SL001' && f.access.operation === 'PutItem');
    assert.ok(put, 'the banner row is one constant key');
    const actions = actionsOn(put, ws.ctx);
    assert.deepEqual(
      actions.map((a) => [a.id, a.changes.length]),
      [['shard-fix-blocked', 0]],
    );
    assert.match(actions[0].title, /^No shard fix: the key id is a Number \(1\)/);
  });

  test('names taken in the file get a number: SIGNUPS_SHARDS2, readSignupsTotal2; the result type-checks', async () => {
    const dir = copy('ts-names');
    const ws = await indexWorkspace(dir);
    const f = ws.findings.find((x) => x.rule === 'SL004');
    assert.ok(f);
    const action = actionsOn(f, ws.ctx).find((a) => a.id === 'spread-counter');
    assert.ok(action);
    assert.match(action.title, /sum them in readSignupsTotal2\(\)/);
    applyAction(ws.ctx, action);
    const text = fs.readFileSync(path.join(dir, 'signups.ts'), 'utf8');
    assert.match(text, /const SIGNUPS_SHARDS2 = 10;/);
    assert.match(text, /export const SIGNUPS_SHARDS = 3;/, 'the existing constant is left as it was');
    assert.match(text, /Math\.random\(\) \* SIGNUPS_SHARDS2\)/);
    assert.deepEqual(typeErrors(dir), []);
  });
});
