import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { Writable } from 'node:stream';
import type { JsonReport } from '../../protocol/src/report';
import type { CheckOptions } from '../../server/src/cli/args';
import { check as runCheck } from '../../server/src/cli/main';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { indexWorkspace } from '../../server/src/engine/workspace/cache/run';

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'cross');

/** `shardlens check . --format json` inside one fixture workspace, run in this process. */
async function check(fixture: string): Promise<JsonReport> {
  const cwd = process.cwd();
  let out = '';
  let err = '';
  const sink = (add: (s: string) => void) =>
    new Writable({ write: (chunk, _enc, done) => (add(String(chunk)), done()) });
  process.chdir(path.join(FIXTURES, fixture));
  try {
    const options: CheckOptions = {
      paths: ['.'],
      format: 'json',
      failOn: 'error',
      quiet: false,
      color: false,
      maxFileBytes: 2 << 20,
    };
    const code = await runCheck(
      options,
      sink((s) => (out += s)),
      sink((s) => (err += s)),
    );
    assert.ok(code === 0 || code === 1, err);
  } finally {
    process.chdir(cwd);
  }
  return JSON.parse(out) as JsonReport;
}

const lines = (r: JsonReport) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}`);

test('a TypeScript writer (1..10, constants from ./config) and a Python reader (range(SHARD_COUNT)) disagree', async () => {
  const r = await check('ts-writer-py-reader');
  // On the key expression (`Key("PK").eq(...)` on line 12), not on `table.query(**kwargs)` (line 14).
  assert.deepEqual(lines(r), ['reader.py:12 SL007']);
  assert.equal(
    r.findings[0].message,
    'This reader loops over shard 0..9 but writer.ts:6 writes shard 1..10: it misses shard 10 and queries shard 0 ' +
      'that no writer writes. Use one shard constant for both sides.',
  );
  const writer = r.accesses.find((a) => a.file === 'writer.ts')!;
  assert.equal(writer.table, 'leaderboard', 'the table name comes from the imported constant');
  assert.equal(writer.partitionKey.shards, 10);
});

test('reads of the bare key or of one literal shard miss the other shards (SL006, not SL001)', async () => {
  const r = await check('unsharded-read');
  assert.deepEqual(lines(r), ['reader.ts:4 SL006', 'reader.ts:7 SL006', 'reader.ts:9 SL006']);
  assert.match(
    r.findings[0].message,
    /reads "BOARD#global" without the shard suffix.*BOARD#global#\{shard 0\.\.7\} \(writer\.py:9\)/,
  );
  assert.match(r.findings[1].message, /Query reads only shard 0/);
  assert.match(r.findings[2].message, /GetItem reads only shard 3/);
});

test('a hard-coded reader list that misses a shard is SL007 naming the missing shard', async () => {
  const r = await check('list-missing');
  assert.deepEqual(lines(r), ['reader.ts:6 SL007']);
  assert.match(
    r.findings[0].message,
    /loops over shard 0\.\.2 but writer\.ts:6 writes shard 0\.\.3: it misses shard 3\./,
  );
});

test('two writers of one key with different shard ranges are SL007 on the second', async () => {
  const r = await check('writers-disagree');
  assert.deepEqual(lines(r), ['w2.py:9 SL007']);
  assert.match(r.findings[0].message, /uses shard 1\.\.10 but w1\.ts:4 writes the same key with shard 0\.\.9/);
});

test('scatter-gather without pagination is SL008; a Limit (top-N) read is not', async () => {
  const r = await check('pagination');
  assert.deepEqual(lines(r), ['reads.ts:11 SL008']);
});

test('clean: matching writers and paginated readers across files, constants imported in both languages', async () => {
  const r = await check('clean');
  assert.deepEqual(lines(r), []);
  assert.deepEqual(
    r.accesses.map((a) => `${a.file}:${a.line} ${a.partitionKey.template} ${a.partitionKey.classification}`),
    [
      'events.ts:5 {time}#{shard 0..5} sharded',
      'events.ts:11 {time}#{shard 0..5} sharded',
      'scores.py:12 TOP#{shard 1..10} sharded',
      'scores.py:20 TOP#{shard 1..10} sharded',
    ],
  );
});

test('a bare read of a key sharded only in another table is not a cross-file finding', async () => {
  assert.deepEqual(lines(await check('other-table')), ['a.ts:6 SL001']);
});

test('index: changing an imported constant re-analyses its importers; only touched keys are re-checked', async () => {
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-index-'));
  fs.cpSync(path.join(FIXTURES, 'ts-writer-py-reader'), dir, { recursive: true });
  const index = new WorkspaceIndex({ root: dir });
  for (const f of ['config.ts', 'writer.ts', 'settings.py', 'reader.py']) index.analyzeFile(path.join(dir, f), false);
  const rules = () => index.results().flatMap((r) => r.findings.map((f) => `${path.basename(f.file)} ${f.rule}`));
  assert.deepEqual(rules(), ['reader.py SL007']);

  // The Python side moves to 1..10: the mismatch is gone.
  const reader = path.join(dir, 'reader.py');
  const fixed = fs.readFileSync(reader, 'utf8').replace('range(SHARD_COUNT)', 'range(1, SHARD_COUNT + 1)');
  const touched = index.update(reader, fixed, 'python');
  assert.deepEqual([...touched], ['PK = LEADERBOARD#GLOBAL']);
  assert.deepEqual(rules(), []);

  // The shared TypeScript constant changes to 12: the writer (not the edited file) now writes 1..12.
  const config = path.join(dir, 'config.ts');
  fs.writeFileSync(config, "export const SHARDS = 12;\nexport const TABLE = 'leaderboard';\n");
  index.analyzeFile(config);
  assert.deepEqual(rules(), ['reader.py SL007']);
  assert.match(index.findingsFor(reader)[0].message, /misses shards 11, 12/);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Analyses files written to a temp folder with the workspace index; returns `file:line rule` per finding. */
async function indexFindings(files: Record<string, string>): Promise<string[]> {
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cross-'));
  try {
    const index = new WorkspaceIndex({ root: dir });
    for (const [name, text] of Object.entries(files)) {
      fs.writeFileSync(path.join(dir, name), text);
      index.analyzeFile(path.join(dir, name), false);
    }
    return index
      .results()
      .flatMap((r) => r.findings.map((f) => `${path.basename(f.file)}:${f.span.startLine + 1} ${f.rule}`));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const WRITER =
  "ddb.send(new PutCommand({ TableName: 't', Item: { pk: `K#${Math.floor(Math.random() * 4)}`, sk: id } }));\n";
const bareRead = (prefix = '') =>
  `${prefix}ddb.send(new QueryCommand({ TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'K' } }));\n`;

test('shardlens-ignore silences cross-file findings too', async () => {
  assert.deepEqual(await indexFindings({ 'w.ts': WRITER, 'r.ts': bareRead() }), ['r.ts:1 SL006']);
  assert.deepEqual(await indexFindings({ 'w.ts': WRITER, 'r.ts': `// shardlens-ignore SL006\n${bareRead()}` }), []);
  assert.deepEqual(await indexFindings({ 'w.ts': WRITER, 'r.ts': `// shardlens-ignore SL007\n${bareRead()}` }), [
    'r.ts:2 SL006',
  ]);
});

test('a shard from a helper known only by name is not reported as one random shard', async () => {
  const read =
    "ddb.send(new QueryCommand({ TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `K#${shardOf(id)}` } }));\n";
  assert.deepEqual(await indexFindings({ 'w.ts': WRITER, 'r.ts': read }), []);
  const random =
    "ddb.send(new QueryCommand({ TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `K#${Math.floor(Math.random() * 4)}` } }));\n";
  assert.deepEqual(await indexFindings({ 'w.ts': WRITER, 'r.ts': random }), ['r.ts:1 SL006']);
});

test('pagination through a conditional spread of ExclusiveStartKey counts', async () => {
  const reader = (spread: string) =>
    `for (let s = 0; s < 4; s++) { let lek; do { const p = await ddb.send(new QueryCommand({ TableName: 't', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': \`K#\${s}\` }${spread} })); lek = p.LastEvaluatedKey; } while (lek); }\n`;
  assert.deepEqual(await indexFindings({ 'w.ts': WRITER, 'r.ts': reader('') }), ['r.ts:1 SL008']);
  assert.deepEqual(
    await indexFindings({ 'w.ts': WRITER, 'r.ts': reader(', ...(lek && { ExclusiveStartKey: lek })') }),
    [],
  );
  assert.deepEqual(
    await indexFindings({ 'w.ts': WRITER, 'r.ts': reader(', ...(lek ? { ExclusiveStartKey: lek } : {})') }),
    [],
  );
});

test('a module created after an import failed to resolve is found once it is announced', async () => {
  const { ModuleConstants } = await import('../../server/src/engine/workspace/modules');
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-modules-'));
  try {
    const app = path.join(dir, 'app', 'handler.py');
    const ts = path.join(dir, 'web', 'writer.ts');
    fs.mkdirSync(path.dirname(app), { recursive: true });
    fs.mkdirSync(path.dirname(ts), { recursive: true });
    fs.writeFileSync(app, 'from settings.dynamo import SHARDS\n');
    fs.writeFileSync(ts, "import { SHARDS } from './config/dynamo';\n");
    const modules = new ModuleConstants(dir);
    assert.equal(modules.resolve(app, 'python', 'settings.dynamo', 'SHARDS'), null);
    assert.equal(modules.resolve(ts, 'typescript', './config/dynamo', 'SHARDS'), null);
    // A new package folder and a new folder of modules, each with its module file.
    const py = path.join(dir, 'app', 'settings', 'dynamo.py');
    const js = path.join(dir, 'web', 'config', 'dynamo.ts');
    fs.mkdirSync(path.dirname(py));
    fs.mkdirSync(path.dirname(js));
    fs.writeFileSync(py, 'SHARDS = 4\n');
    fs.writeFileSync(js, 'export const SHARDS = 6;\n');
    modules.forget(py);
    modules.forget(js);
    const value = (v: unknown) => JSON.stringify(v).match(/"literal":"(\d+)"/)?.[1];
    assert.equal(value(modules.resolve(app, 'python', 'settings.dynamo', 'SHARDS')), '4');
    assert.equal(value(modules.resolve(ts, 'typescript', './config/dynamo', 'SHARDS')), '6');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a module in a folder that may not be listed (execute-only, as /home can be) is still found', async () => {
  const { ModuleConstants } = await import('../../server/src/engine/workspace/modules');
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-unlisted-'));
  // Tests run as root, for whom permissions do not stop a listing: the file system's answer is stood in for.
  const real = createRequire(__filename)('node:fs') as typeof fs;
  const readdirSync = real.readdirSync;
  try {
    const locked = path.join(dir, 'home');
    fs.mkdirSync(path.join(locked, 'app'), { recursive: true });
    fs.writeFileSync(path.join(locked, 'app', 'writer.py'), 'from config import SHARDS\n');
    fs.writeFileSync(path.join(locked, 'app', 'config.py'), 'SHARDS = 8\n');
    fs.writeFileSync(path.join(locked, 'app', 'writer.ts'), "import { SHARDS } from './shards';\n");
    fs.writeFileSync(path.join(locked, 'app', 'shards.ts'), 'export const SHARDS = 5;\n');
    real.readdirSync = ((p: fs.PathLike, ...rest: unknown[]) => {
      if (String(p).startsWith(locked))
        throw Object.assign(new Error(`EACCES: permission denied, scandir '${p}'`), { code: 'EACCES' });
      return (readdirSync as (...a: unknown[]) => unknown)(p, ...rest);
    }) as typeof fs.readdirSync;
    const modules = new ModuleConstants(dir);
    const value = (v: unknown) => JSON.stringify(v).match(/"literal":"(\d+)"/)?.[1];
    assert.equal(value(modules.resolve(path.join(locked, 'app', 'writer.py'), 'python', 'config', 'SHARDS')), '8');
    assert.equal(
      value(modules.resolve(path.join(locked, 'app', 'writer.ts'), 'typescript', './shards', 'SHARDS')),
      '5',
    );
  } finally {
    real.readdirSync = readdirSync;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('`module.exports = AUDIT_TABLE` is what `require("./table")` holds', async () => {
  const r = await check('cjs-whole-export');
  const put = r.accesses.find((a) => a.file === 'audit.js')!;
  assert.equal(put.table, 'audit-log');
  assert.deepEqual(lines(r), ['audit.js:8 SL001']);
});

test('an item that spreads its key in is keyed by the name it shows, whichever file told the table first', async () => {
  // legacy/activity.js queries `activity` by `pk`, service/activity-reader.ts gets it by `PK`:
  // the writer's `{ PK, SK, ...details }` is keyed `PK` whatever was analysed before it.
  const r = await check('told-key-names');
  const writer = r.accesses.find((a) => a.file === 'service/activity-writer.ts')!;
  assert.equal(writer.partitionKey.attribute, 'PK');
  assert.equal(writer.partitionKey.template, 'USER#{entity-id}');
  assert.deepEqual(
    r.accesses.map((a) => a.partitionKey.attribute),
    ['pk', 'PK', 'PK'],
  );
});

test('a status written before the index that reads it was seen is an index write once every file is in', async () => {
  // orders/ comes before reports/: the writer is read before the query naming the index,
  // and read again once it is in (in the CLI's analysis thread when it has one).
  const r = await check('status-index');
  assert.deepEqual(lines(r), [
    'orders/order-repository.ts:23 SL001',
    'orders/order-repository.ts:36 SL001',
    'reports/pending-orders.ts:13 SL001',
  ]);
  const indexWrites = r.accesses.filter((a) => a.file === 'orders/order-repository.ts' && a.index);
  assert.deepEqual(
    indexWrites.map((a) => a.partitionKey.template),
    ['PENDING', 'SHIPPED'],
  );
});

test('a boto3 Table made in a shared module keeps its name where routes import it', async () => {
  // polls/db.py makes both tables; routes use them as `from polls.db import vote_counters`,
  // `from ..db import polls_table` and `from polls import db` + `db.vote_counters`.
  const r = await check('imported-tables');
  assert.deepEqual(
    r.accesses.map((a) => `${a.file}:${a.line} ${a.table} ${a.logicalKey}`),
    [
      'polls/routes/polls.py:10 $POLLS_TABLE $POLLS_TABLE · pk = POLL#{entity-id}',
      'polls/routes/results.py:10 poll-vote-counters poll-vote-counters · pk = ALL_POLLS',
      'polls/routes/votes.py:17 poll-vote-counters poll-vote-counters · pk = ALL_POLLS',
    ],
  );
  assert.deepEqual(lines(r), ['polls/routes/results.py:10 SL001', 'polls/routes/votes.py:17 SL004']);
  assert.ok(r.findings[1].message.includes('on table "poll-vote-counters"'), r.findings[1].message);
});

test('an environment-lookup helper names the table its caller names: requireEnv("X"), get_env("X")', async () => {
  // web/src/config.ts: requireEnv(name) returns process.env[name] or throws; report.ts: a
  // helper of its own returning the variable or a Parameter Store value; worker/app/settings.py:
  // get_env(key, default=None) returns the variable, a secret or the default, and db.py makes
  // the table with it. A name chosen at run time (`${region}_ARCHIVE_TABLE`) names no variable.
  const r = await check('env-helpers');
  assert.deepEqual(
    r.accesses.map((a) => `${a.file}:${a.line} ${a.table}`),
    [
      'web/src/handlers/record-visit.ts:13 $VISITS_TABLE',
      'web/src/handlers/report.ts:20 $REPORTS_TABLE',
      'web/src/handlers/report.ts:24 null',
      'worker/app/handlers/heartbeat.py:7 $PRESENCE_TABLE',
    ],
  );
  const counters = r.findings.filter((f) => f.rule === 'SL004');
  assert.deepEqual(
    counters.map((f) => `${f.file}:${f.line}`),
    ['web/src/handlers/record-visit.ts:13', 'worker/app/handlers/heartbeat.py:7'],
  );
  assert.ok(counters[1].message.includes('on table $PRESENCE_TABLE'), counters[1].message);
});

test('a repository class given its table by the handlers that build it: its own calls name that table', async () => {
  // orders/: OrdersRepository(db, tableName) built in two handler modules with ORDERS_TABLE;
  // `listOpen()` queries the status index for the constant 'OPEN' and is judged in the
  // repository, now on orders-table (and its definition gets SL013). flags/: FlagStore(table)
  // built with the flags table by one handler and the archive table by another: `get(name)`
  // may be either, `banner()` is called by the first alone. `archive(id)` is called by none.
  const r = await check('repository-tables');
  assert.deepEqual(
    r.accesses.map((a) => `${a.file}:${a.line} ${a.table}`),
    [
      'flags/app/flag_store.py:8 null',
      'flags/app/flag_store.py:12 feature-flags',
      'orders/src/lib/orders-repository.ts:16 orders-table',
      'orders/src/lib/orders-repository.ts:27 orders-table',
      'orders/src/lib/orders-repository.ts:34 null',
    ],
  );
  // Judged where the key is built, as before; the table's definition now knows of them.
  assert.deepEqual(lines(r), [
    'flags/app/flag_store.py:12 SL001',
    'flags/template.yaml:9 SL013',
    'orders/serverless.yml:26 SL013',
    'orders/src/lib/orders-repository.ts:27 SL001',
  ]);
});

test('index: the tables callers give follow their edits; constructions that disagree leave candidates', async () => {
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-given-'));
  fs.cpSync(path.join(FIXTURES, 'repository-tables', 'flags'), dir, { recursive: true });
  const index = new WorkspaceIndex({ root: dir });
  const list = collectFiles([dir]);
  await indexWorkspace(index, list, { maxBytes: 2 << 20 });
  const store = path.join(dir, 'app', 'flag_store.py');
  const tableOfGet = () =>
    index
      .results()
      .find((r) => r.file === store)!
      .accesses.find((a) => a.span.startLine === 7)!;
  assert.deepEqual(tableOfGet().table, { kind: 'unknown', candidates: ['feature-flags', 'feature-flags-archive'] });
  assert.deepEqual(
    tableOfGet().injected?.map((i) => `${path.basename(i.file)}:${i.span.startLine + 1}`),
    ['archived_flag.py:8', 'get_flag.py:8'],
  );
  // The archive handler now names the flags table too: one table for both.
  const archived = path.join(dir, 'app', 'archived_flag.py');
  const text = fs.readFileSync(archived, 'utf8').replace('os.environ["ARCHIVE_TABLE"]', '"feature-flags"');
  fs.writeFileSync(archived, text);
  index.update(archived, text, 'python');
  assert.equal(tableOfGet().table.kind, 'literal');
  assert.equal((tableOfGet().table as { name: string }).name, 'feature-flags');
  fs.rmSync(dir, { recursive: true, force: true });
});
