import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { answerHash, readsHold, recordingReaders, type ModuleReaders } from '../../server/src/engine/module-reads';
import { MAX, cachedResults, plainResults as plain, tempDirs } from './cache-runs';
import { writeServices } from './services-workspace';
import { literal } from '../../server/src/engine/model/template';
import { assertSameText } from './same-text';

// The cache's early cut-off: a module edited in a way its importers do not see leaves their
// stored analyses standing (their recorded reads answer the same); any edit they do see
// makes them analysed again. Each case: warm after the edit equals a check without a cache.

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js');
const tmp = tempDirs('reads');
const cached = (root: string, dir: string) => cachedResults(root, dir, { options: { maxBytes: MAX } });

const edit = (root: string, file: string, change: (text: string) => string) => {
  const f = path.join(root, file);
  const before = fs.readFileSync(f, 'utf8');
  const after = change(before);
  assert.notEqual(after, before, `the edit changes ${file}`);
  fs.writeFileSync(f, after);
};

/** The services, their cache filled by a first run. */
async function warmed(name: string): Promise<{ ws: string; dir: string; files: number }> {
  const ws = tmp(name);
  writeServices(ws);
  const dir = tmp(`${name}-cache`);
  const cold = await cached(ws, dir);
  assert.equal(cold.hits, 0);
  assert.match(cold.json, /STATUS#PENDING/);
  assert.match(cold.json, /site-visits/);
  return { ws, dir, files: cold.files };
}

const findingsOf = (json: string, file: string) =>
  (
    JSON.parse(json) as Array<{
      file: string;
      findings: Array<{ message: string; related?: Array<{ file: string; span: { startLine: number } }> }>;
    }>
  )
    .filter((r) => r.file.endsWith(file))
    .flatMap((r) => r.findings);

test('a comment added to a shared config module keeps every importer stored: only the module is read again', async () => {
  const { ws, dir, files } = await warmed('comment');
  edit(ws, 'src/config/tables.ts', (t) => `${t}// Shard counts are reviewed with each capacity plan.\n`);
  const warm = await cached(ws, dir);
  assert.equal(warm.hits, files - 1);
  assertSameText(warm.json, await plain(ws));
  // Written back with the module's new hash: the next run restores everything without asking.
  const again = await cached(ws, dir);
  assert.equal(again.hits, files);
  assertSameText(again.json, warm.json);
});

test('a function added to a Python settings module nothing reads keeps its importers stored', async () => {
  const { ws, dir, files } = await warmed('added');
  edit(ws, 'app/settings.py', (t) => `${t}\n\ndef stage():\n    return os.environ.get("STAGE", "dev")\n`);
  const warm = await cached(ws, dir);
  assert.equal(warm.hits, files - 1);
  assertSameText(warm.json, await plain(ws));
});

test('lines inserted above a constant move where its findings point: the importers are analysed again', async () => {
  const { ws, dir, files } = await warmed('moved');
  const before = findingsOf((await cached(ws, dir)).json, 'app/handler.py');
  assert.equal(before.length, 1);
  assert.equal(before[0].related?.find((r) => r.file.endsWith('settings.py'))?.span.startLine, 3);
  edit(ws, 'app/settings.py', (t) => `"""Settings read from the Lambda environment."""\n${t}`);
  const warm = await cached(ws, dir);
  assertSameText(warm.json, await plain(ws));
  assert.equal(
    findingsOf(warm.json, 'app/handler.py')[0].related?.find((r) => r.file.endsWith('settings.py'))?.span.startLine,
    4,
  );
  // handler.py and repository.py read settings.py (both re-analysed), and settings.py itself.
  assert.equal(warm.hits, files - 3);
});

test('a changed constant an importer reads changes its finding, and only the files that read it are analysed', async () => {
  const { ws, dir, files } = await warmed('constant');
  edit(ws, 'src/config/tables.ts', (t) => t.replace("STATUS_PENDING = 'PENDING'", "STATUS_PENDING = 'OPEN'"));
  const warm = await cached(ws, dir);
  assertSameText(warm.json, await plain(ws));
  assert.match(findingsOf(warm.json, 'list-pending.ts')[0].message, /"STATUS#OPEN"/);
  // tables.ts and list-pending.ts; the repository and submit-score.ts read other names of it.
  assert.equal(warm.hits, files - 2);
});

test("a repository's method changed: its callers in other files are judged by the new method", async () => {
  const { ws, dir } = await warmed('method');
  edit(ws, 'app/repository.py', (t) => t.replace('Key={"pk": key}', 'Key={"pk": f"COUNTER#{key}"}'));
  const warm = await cached(ws, dir);
  assertSameText(warm.json, await plain(ws));
  assert.match(findingsOf(warm.json, 'app/handler.py')[0].message, /"COUNTER#site-visits"/);
});

test('the two-thread path asks the reads in its analysis thread: a comment, then a constant, as a check without a cache', () => {
  const { ws, dir } = { ws: tmp('threads'), dir: tmp('threads-cache') };
  writeServices(ws);
  const env = { ...process.env, NO_COLOR: '1', SHARDLENS_PARALLEL_FROM: '1' };
  const check = (cache: boolean) => {
    const args = [BIN, 'check', ws, '--format', 'json', ...(cache ? ['--cache-location', dir] : [])];
    const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env });
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    return r.stdout;
  };
  assert.equal(check(true), check(false), 'cold');
  edit(ws, 'src/config/tables.ts', (t) => `${t}// reviewed\n`);
  assert.equal(check(true), check(false), 'after a comment');
  edit(ws, 'src/config/tables.ts', (t) => t.replace("STATUS_PENDING = 'PENDING'", "STATUS_PENDING = 'OPEN'"));
  const after = check(false);
  assert.match(after, /STATUS#OPEN/);
  assert.equal(check(true), after, 'after a constant changed');
  assert.equal(check(true), after, 'warm again');
});

test('recorded reads: the same answers hold, another answer or a failing reader does not', () => {
  const values: Record<string, string> = { PREFIX: 'BOARD' };
  const readers: Required<ModuleReaders> = {
    resolveImport: (_f, _l, _s, name) =>
      values[name] === undefined
        ? null
        : {
            kind: 'scalar',
            template: literal(values[name]),
            span: { startLine: 0, startColumn: 0, endLine: 0, endColumn: 1 },
          },
    resolveModule: () => null,
    resolveInjected: () => null,
    resolveConnection: () => {
      throw new Error('no connection here');
    },
  };
  const { readers: logged, reads } = recordingReaders(readers);
  logged.resolveImport!('a.ts', 'typescript', './prefix', 'PREFIX');
  logged.resolveImport!('a.ts', 'typescript', './prefix', 'PREFIX');
  logged.resolveImport!('a.ts', 'typescript', './prefix', 'MISSING');
  logged.resolveModule!('a.ts', 'typescript', './repo');
  const log = reads()!;
  assert.equal(log.length, 3, 'each question once');
  assert.ok(readsHold(log, readers));
  values.PREFIX = 'LADDER';
  assert.ok(!readsHold(log, readers));
  values.PREFIX = 'BOARD';
  values.MISSING = 'now there';
  assert.ok(!readsHold(log, readers));
  assert.ok(!readsHold([[JSON.stringify(['connection', 'a.ts', 'main']), answerHash(null)]], readers));
  // Maps are hashed by their entries, so two summaries with other functions differ.
  assert.notEqual(answerHash({ functions: new Map([['a', 1]]) }), answerHash({ functions: new Map([['b', 1]]) }));
  // An answer that cannot be hashed: no log, so the analysis is never kept this way.
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const broken = recordingReaders({ ...readers, resolveInjected: (_file: string, _token: string) => cyclic as never });
  broken.readers.resolveInjected!('a.ts', 'User');
  assert.equal(broken.reads(), null);
});
