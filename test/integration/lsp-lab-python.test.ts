import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { cleanup, copyFixture } from '../fixes/helpers-write';
import { CREDENTIALS, createTable, startTestLab, type TestLab } from '../lab/helpers';
import { codeActionsAt, indexed, openDocument, writeWorkspaceEdit } from './lsp-actions';
import { startServer } from './lsp-client';

/**
 * Python shard fixes applied over LSP, as an editor applies them, and the programs run
 * with python3 + boto3 against the lab before and after:
 *
 * - a Chalice app whose routes call a repository class without a username, so every todo
 *   lands under the parameter default `username=DEFAULT_USERNAME` (the table injected
 *   through the class's constructor): the calculated fix shards the repository's five
 *   requests. The same script of adds, gets, updates, deletes and a list returns the same
 *   (apart from the partition key's value) and leaves the same items;
 * - a visitor-counter Lambda with a module-level `Table(os.environ[...])`, keyed by the
 *   Number 1: the spread keeps the Number (ids 10..19) and the count goes on from the
 *   30 visits before the fix to 50.
 *
 * Under concurrent load with the lab's per-key ceiling lowered to 50 WCU/s (16 threads,
 * SDK retries off), the original writers are throttled and the fixed ones are not.
 */

const run = promisify(execFile);

type Item = Record<string, unknown> | null;
/** What run_todo.py prints for `script`. */
interface TodoScript {
  added: string[];
  got: Item[];
  after_delete: Item[];
  listed: Item[];
  stored: Item[];
  keys: string[];
}
/** What the drivers print for `load`: writes accepted and throttled, errors of other kinds. */
/** lab_load.py's counts: calls started and skipped at the in-flight cap, then their outcomes. */
interface Load {
  sent: number;
  skipped: number;
  per_second: Array<{ ok: number; throttled: number }>;
  ok: number;
  throttled: number;
  other: string[];
  /** run_todo.py: todos the list returns, partition keys stored. */
  listed: number;
  keys: number;
  /** run_counter.py: the total GET /visits returns, items stored. */
  got: number;
  items: number;
}
/** What run_counter.py prints for `script`. */
interface CounterScript {
  returned: number[];
  got: number;
  items: Array<{ id: number; visits: number }>;
}
const FIXTURES = path.join(__dirname, '..', 'fixes', 'fixtures', 'lab-python');
const DRIVERS = path.join(__dirname, '..', 'fixes', 'lab-python');
const LIMIT = 50;
/**
 * The Python drivers' load, as the JavaScript drivers give theirs (lab/load/paced-load.ts): a
 * rate for a duration, open loop, against a lab of its own whose per-key ceiling is LOAD_LIMIT.
 * 100 calls/s is five times one key's ceiling and half of ten keys' (the fixes spread over 10);
 * a loaded machine where boto3 manages 40 calls/s still passes one key's ceiling.
 */
const RATE = 100;
const SECONDS = 2;
const LOAD_LIMIT = 20;
const LOAD = ['load', String(RATE), String(SECONDS)];

let lab: TestLab;
let loadLab: TestLab;
before(async () => {
  lab = await startTestLab({ writeLimit: LIMIT });
  loadLab = await startTestLab({ writeLimit: LOAD_LIMIT });
});
after(async () => {
  await lab.close();
  await loadLab.close();
});

/** Runs a driver with python3 + boto3 against the lab; its last line is JSON. */
async function python<T>(driver: string, args: string[], env: Record<string, string>): Promise<T> {
  const { stdout } = await run('python3', [path.join(DRIVERS, driver), ...args], {
    timeout: 240_000,
    env: {
      ...process.env,
      AWS_ENDPOINT_URL_DYNAMODB: lab.lab.url,
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      ...env,
    },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}

async function pyCompiles(dir: string): Promise<void> {
  const files = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.py'));
  await run('python3', ['-m', 'py_compile', ...files.map((f) => path.join(dir, f))]);
}

/** Applies the code action titled `title` on the first diagnostic of `rule` whose message has `says`. */
async function applyOverLsp(dir: string, file: string, rule: string, says: RegExp, title: RegExp): Promise<string[]> {
  const session = startServer(dir);
  try {
    await session.initialize();
    // The repository is in a file no editor opened: wait for the workspace index.
    await indexed(session);
    const ds = await openDocument(session, file);
    const d = ds.find((x) => x.code === rule && says.test(String(x.message)));
    assert.ok(d, JSON.stringify(ds.map((x) => [x.code, x.message])));
    const actions = await codeActionsAt(session, file, d.range);
    const fix = actions.find((a) => title.test(a.title));
    assert.ok(fix?.edit?.changes, actions.map((a) => a.title).join('\n'));
    return writeWorkspaceEdit(fix.edit.changes);
  } finally {
    session.stop();
  }
}

const todoTable = (name: string) => ({
  TableName: name,
  BillingMode: 'PAY_PER_REQUEST' as const,
  AttributeDefinitions: [
    { AttributeName: 'username', AttributeType: 'S' as const },
    { AttributeName: 'uid', AttributeType: 'S' as const },
  ],
  KeySchema: [
    { AttributeName: 'username', KeyType: 'HASH' as const },
    { AttributeName: 'uid', KeyType: 'RANGE' as const },
  ],
});

/** A route's item without the partition key's value, which the fix changes. */
const apartFromKey = (item: unknown) => {
  if (!item || typeof item !== 'object') return item;
  const { username: _, ...rest } = item as Record<string, unknown>;
  return rest;
};

describe('a Chalice app whose routes leave the username to the repository’s default', () => {
  let original = '';
  let fixed = '';
  before(() => {
    original = copyFixture('chalice-todo', FIXTURES);
    fixed = copyFixture('chalice-todo', FIXTURES);
  });
  after(() => [original, fixed].forEach(cleanup));

  test('the calculated fix over LSP shards the repository; the routes return and store the same', async (t) => {
    const edited = await applyOverLsp(
      fixed,
      path.join(fixed, 'app.py'),
      'SL001',
      /all writes of it/,
      /^Add a calculated shard suffix: hash\(uid\) mod 10 \(and 4 other accesses of the key\)$/,
    );
    assert.deepEqual(edited, ['db.py'], 'the repository is edited, not the routes');
    const db = fs.readFileSync(path.join(fixed, 'chalicelib', 'db.py'), 'utf8');
    // Four keys hash the item's uid: in place where the line stays within the file's width, else
    // computed on the line before (`shard = ...`, one per method).
    assert.equal((db.match(/shardlens_hash\(str\(uid\)\) % DEFAULT_USERNAME_SHARDS/g) ?? []).length, 4);
    assert.equal((db.match(/\n {8}shard = shardlens_hash\(str\(uid\)\) % DEFAULT_USERNAME_SHARDS\n/g) ?? []).length, 3);
    assert.equal((db.match(/Key=\{"username": f"\{username\}#\{shard\}", "uid": uid\}/g) ?? []).length, 3);
    assert.match(db, /response = query_username_shards\(self\._table, username\)/);
    // The table the app's construction passes (`TodoDB(...Table(os.environ["APP_TABLE_NAME"]))`) names the reader's key.
    assert.match(db, /Reads every item of \$APP_TABLE_NAME · username = \{entity-id\}/);
    assert.match(db, /def list_items\(self, username=DEFAULT_USERNAME\):/, 'the default is left as it is');
    await pyCompiles(fixed);

    await createTable(lab.ddb, todoTable('todo-before'));
    await createTable(lab.ddb, todoTable('todo-after'));
    const before = await python<TodoScript>('run_todo.py', [original, 'script'], { APP_TABLE_NAME: 'todo-before' });
    const afterFix = await python<TodoScript>('run_todo.py', [fixed, 'script'], { APP_TABLE_NAME: 'todo-after' });
    assert.equal(before.added.length, 40);
    assert.deepEqual(afterFix.added, before.added, 'the same uids returned by the adds');
    assert.equal(before.got.filter(Boolean).length, 40);
    assert.deepEqual(afterFix.got.map(apartFromKey), before.got.map(apartFromKey), 'every get finds its todo');
    assert.deepEqual(afterFix.after_delete, before.after_delete, 'deleted todos are gone');
    assert.deepEqual(before.after_delete, [null, null, null, null, null]);
    assert.equal(before.listed.length, 35);
    assert.deepEqual(afterFix.listed.map(apartFromKey), before.listed.map(apartFromKey), 'the list, in uid order');
    assert.deepEqual(afterFix.stored, before.stored, 'the same items apart from the key, updates included');
    assert.deepEqual(before.keys, ['default']);
    assert.ok(afterFix.keys.length >= 8, `35 todos over ${afterFix.keys.length} keys`);
    assert.ok(afterFix.keys.every((k) => /^default#\d$/.test(k)));

    // Concurrent adds, SDK retries off: the one key is throttled, the ten are not.
    await createTable(loadLab.ddb, todoTable('todo-load-before'));
    await createTable(loadLab.ddb, todoTable('todo-load-after'));
    const load = {
      APP_TABLE_NAME: 'todo-load-before',
      AWS_MAX_ATTEMPTS: '1',
      AWS_ENDPOINT_URL_DYNAMODB: loadLab.lab.url,
    };
    const hot = await python<Load>('run_todo.py', [original, ...LOAD], load);
    const spread = await python<Load>('run_todo.py', [fixed, ...LOAD], {
      ...load,
      APP_TABLE_NAME: 'todo-load-after',
    });
    t.diagnostic(
      `adds at ${RATE}/s for ${SECONDS} s (${sent(hot)} before, ${sent(spread)} after), ${LOAD_LIMIT} WCU/s per key: ` +
        `before ${hot.ok} stored, ${hot.throttled} throttled on ${hot.keys} key; ` +
        `after ${spread.ok} stored, ${spread.throttled} throttled on ${spread.keys} keys`,
    );
    assertPaced(hot);
    assertPaced(spread);
    assert.deepEqual([...hot.other, ...spread.other], []);
    assert.ok(hot.throttled > 0, 'the original is throttled');
    assert.equal(hot.listed, hot.ok, 'the list finds every todo stored');
    assert.ok(spread.throttled < hot.throttled / 4, `fixed: ${spread.throttled} throttled, original ${hot.throttled}`);
    assert.equal(spread.listed, spread.ok, 'the reader finds every todo stored');
  });
});

const sent = (l: Load) => `${l.sent} sent, ${l.skipped} skipped`;

/**
 * The load ran at its rate for its duration: every scheduled call was started or skipped at the
 * in-flight cap, each started call ended one way, and the outcomes span the duration (a closed
 * loop of fixed adds would end as soon as the lab answered them).
 */
function assertPaced(l: Load): void {
  assert.equal(l.sent + l.skipped, RATE * SECONDS);
  assert.equal(l.ok + l.throttled + l.other.length, l.sent);
  assert.ok(l.per_second.length >= SECONDS, `outcomes over ${l.per_second.length} s`);
  const perSecond = l.per_second.reduce((n, s) => n + s.ok + s.throttled, 0);
  assert.equal(perSecond, l.ok + l.throttled);
}

const counterTable = (name: string) => ({
  TableName: name,
  BillingMode: 'PAY_PER_REQUEST' as const,
  AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'N' as const }],
  KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' as const }],
});

describe('a visitor-counter Lambda keyed by the Number 1, with a module-level Table from the environment', () => {
  let original = '';
  let fixed = '';
  before(() => {
    original = copyFixture('visit-counter', FIXTURES);
    fixed = copyFixture('visit-counter', FIXTURES);
  });
  after(() => [original, fixed].forEach(cleanup));

  test('the spread over LSP keeps the Number; the count goes on across the deploy, and the load is not throttled', async (t) => {
    await createTable(lab.ddb, counterTable('visits'));
    const env = { COUNTER_TABLE: 'visits' };
    const first = await python<CounterScript>('run_counter.py', [original, 'script', '30'], env);
    assert.deepEqual(
      first.returned,
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    const edited = await applyOverLsp(
      fixed,
      path.join(fixed, 'visits.py'),
      'SL004',
      /.*/,
      /^Spread the counter over 10 items and sum them in read_visits_total\(\), returning the total \(1 read of the count too\)$/,
    );
    assert.deepEqual(edited, ['visits.py']);
    const code = fs.readFileSync(path.join(fixed, 'visits.py'), 'utf8');
    assert.match(code, /Key=\{"id": 1 \* VISITS_SHARDS \+ random\.randrange\(VISITS_SHARDS\)\}/);
    assert.match(code, /ids 10\.\.19/);
    await pyCompiles(fixed);

    const second = await python<CounterScript>('run_counter.py', [fixed, 'script', '20'], env);
    assert.deepEqual(
      second.returned,
      Array.from({ length: 20 }, (_, i) => i + 31),
      'each visit returns the total, as before',
    );
    assert.equal(second.got, 50, 'GET /visits reads the total');
    const items = second.items;
    assert.deepEqual(items[0], { id: 1, visits: 30 }, 'the item of before the fix keeps its 30');
    assert.ok(items.slice(1).every((i) => i.id >= 10 && i.id <= 19));
    assert.equal(
      items.slice(1).reduce((s, i) => s + i.visits, 0),
      20,
    );

    await createTable(loadLab.ddb, counterTable('visits-load-before'));
    await createTable(loadLab.ddb, counterTable('visits-load-after'));
    const hot = await python<Load>('run_counter.py', [original, ...LOAD], {
      COUNTER_TABLE: 'visits-load-before',
      AWS_MAX_ATTEMPTS: '1',
      AWS_ENDPOINT_URL_DYNAMODB: loadLab.lab.url,
    });
    const spread = await python<Load>('run_counter.py', [fixed, ...LOAD], {
      COUNTER_TABLE: 'visits-load-after',
      AWS_MAX_ATTEMPTS: '1',
      AWS_ENDPOINT_URL_DYNAMODB: loadLab.lab.url,
    });
    t.diagnostic(
      `visits at ${RATE}/s for ${SECONDS} s (${sent(hot)} before, ${sent(spread)} after), ${LOAD_LIMIT} WCU/s per key: ` +
        `before ${hot.ok} counted, ${hot.throttled} throttled; ` +
        `after ${spread.ok} counted, ${spread.throttled} throttled, over ${spread.items} items`,
    );
    assertPaced(hot);
    assertPaced(spread);
    assert.deepEqual([...hot.other, ...spread.other], []);
    assert.ok(hot.throttled > 0, 'the one counter item is throttled');
    assert.equal(hot.got, hot.ok, 'every counted visit is in the total');
    assert.ok(spread.throttled < hot.throttled / 4, `fixed: ${spread.throttled} throttled, original ${hot.throttled}`);
    assert.equal(spread.got, spread.ok, 'every counted visit is in the summed total');
  });
});
