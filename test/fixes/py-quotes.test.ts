// Python fixes written in the file's quotes: projects that write single-quoted strings
// (a feed module on boto3's Table, a page-view counter on the client, a chat lobby
// whose writer shards by hand, an arcade's PynamoDB model) get their shard suffix, scatter-gather reader, read
// repair and counter spread in single quotes too, f-string fields included
// (`f'{item["sk"]}'`), and the fixed code still compiles and runs against dynalite.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { allFixes } from '../../server/src/features/fixes/index';
import {
  applyAction,
  fixtureCopier,
  indexWorkspace,
  pythonErrors,
  runDriverAt,
  startDynalite,
  type Dynalite,
} from './helpers-write';

const copy = fixtureCopier(path.join(__dirname, 'fixtures', 'py-quotes'));

/** The one-line string literals of a Python file that open with a double quote, as Python's tokenizer reads them. */
function doubleQuoted(file: string): string[] {
  const script = [
    'import io, re, sys, tokenize',
    'src = open(sys.argv[1]).read()',
    'for t in tokenize.generate_tokens(io.StringIO(src).readline):',
    '    if t.type == tokenize.STRING and re.match(r"^[A-Za-z]*\\"(?!\\"\\")", t.string):',
    '        print(t.string)',
  ].join('\n');
  return execFileSync('python3', ['-c', script, file], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** Every fix offered on every finding of a fixture, each applied to a fresh copy. */
async function fixedCopies(name: string): Promise<Array<{ title: string; dir: string; files: string[] }>> {
  const titles = await indexWorkspace(copy(name)).then((ws) =>
    ws.findings.flatMap((f) =>
      allFixes(f, ws.ctx)
        .filter((a) => a.changes.length > 0)
        .map((a) => a.title),
    ),
  );
  const out = [];
  for (const title of titles) {
    const ws = await indexWorkspace(copy(name));
    const action = ws.findings.flatMap((f) => allFixes(f, ws.ctx)).find((a) => a.title === title)!;
    out.push({ title, dir: ws.dir, files: applyAction(ws.ctx, action) });
  }
  return out;
}

describe('Python fixes in a single-quoted project', () => {
  for (const [name, expected] of [
    ['feed', ['Add a random write-shard suffix']],
    ['counter', ['Spread the counter over 10 items']],
    ['rooms', ['Read every shard']],
    ['arcade', ['Shard HighScore.cabinet by hash(player)']],
  ] as const) {
    test(`${name}: every fix writes single quotes and compiles`, async () => {
      const fixed = await fixedCopies(name);
      for (const prefix of expected)
        assert.ok(
          fixed.some((f) => f.title.startsWith(prefix)),
          `${prefix}… is offered`,
        );
      for (const { title, dir, files } of fixed) {
        assert.deepEqual(pythonErrors(dir), [], title);
        for (const file of files) assert.deepEqual(doubleQuoted(file), [], `${title}: ${path.basename(file)}`);
      }
    });
  }
});

test('the imports a fix adds take their isort place, one group without blank lines inside', async () => {
  const feed = (await fixedCopies('feed')).find((f) => f.title.startsWith('Add a random write-shard suffix'))!;
  const text = fs.readFileSync(path.join(feed.dir, 'activity.py'), 'utf8');
  assert.match(
    text,
    /^import concurrent\.futures\nimport heapq\nimport itertools\nimport os\nimport random\nimport time\nimport uuid\n\nimport boto3\n/m,
  );
  const arcade = (await fixedCopies('arcade')).find((f) => f.title.startsWith('Shard HighScore.cabinet'))!;
  assert.match(
    fs.readFileSync(path.join(arcade.dir, 'handlers.py'), 'utf8'),
    /^import heapq\nimport itertools\n\nfrom models import /,
  );
});

describe('single-quoted fixed code runs as before', () => {
  let db: Dynalite;
  before(async () => {
    db = await startDynalite();
  });
  after(async () => db.close());

  const table = (name: string, pk: string, sk: string | null) =>
    db.client.send(
      new CreateTableCommand({
        TableName: name,
        AttributeDefinitions: [
          { AttributeName: pk, AttributeType: 'S' },
          ...(sk ? [{ AttributeName: sk, AttributeType: 'S' as const }] : []),
        ],
        KeySchema: [
          { AttributeName: pk, KeyType: 'HASH' },
          ...(sk ? [{ AttributeName: sk, KeyType: 'RANGE' as const }] : []),
        ],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );

  test('the feed: 30 posts, the latest 12 in the same order after the random-shard fix', async () => {
    const run = async (dir: string, tableName: string) => {
      await table(tableName, 'pk', 'sk');
      const driver = [
        'import json, time, activity',
        'for i in range(30):',
        "    activity.post_activity(f'user{i % 4}', f'post {i}')",
        '    time.sleep(0.002)',
        "print(json.dumps([item['text'] for item in activity.latest(12)]))",
      ].join('\n');
      return JSON.parse(await runDriverAt(db.endpoint, dir, 'python', driver, { FEED_TABLE: tableName })) as string[];
    };
    const beforeFix = await run(copy('feed'), 'feed-before');
    assert.deepEqual(
      beforeFix,
      Array.from({ length: 12 }, (_, i) => `post ${29 - i}`),
    );
    const fixed = (await fixedCopies('feed')).find((f) => f.title.startsWith('Add a random write-shard suffix'))!;
    assert.deepEqual(await run(fixed.dir, 'feed-after'), beforeFix);
  });

  test('the counter: 6 page views return 1..6 after the spread', async () => {
    await table('stats', 'pk', null);
    const fixed = (await fixedCopies('counter')).find((f) => f.title.startsWith('Spread the counter'))!;
    const driver = [
      'import json, views',
      "print(json.dumps([json.loads(views.handler({}, None)['body'])['views'] for _ in range(6)]))",
    ].join('\n');
    assert.deepEqual(JSON.parse(await runDriverAt(db.endpoint, fixed.dir, 'python', driver)), [1, 2, 3, 4, 5, 6]);
    fs.rmSync(path.join(fixed.dir, '__pycache__'), { recursive: true, force: true });
  });
});
