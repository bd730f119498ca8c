// Python readers placed where real projects keep code, then compiled, imported and run:
// - a package `app/` whose repository (`app/repo.py`, relative imports, the shard count
//   declared in it) gets its reader in a new file `app/readers.py`: the new module must
//   import (`import app.readers`), be imported relatively, not import the repository back
//   (a cycle), and keep its imports at the top, standard library first;
// - a script whose shard count, table and client exist only under
//   `if __name__ == "__main__":`: the reader must not use them (a NameError on import),
//   and must be defined before the block that calls it.
// Against dynalite, each read returns 0 of the items before the fix and every item after,
// in sort-key order.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { CreateTableCommand, DynamoDBClient, QueryCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readerFixes } from '../../server/src/features/fixes/reader-fixes';
import { analyzeWorkspace, applyAction, FIXTURES, startDynalite, type Dynalite, type Files } from './helpers-reader';

const run = promisify(execFile);
const SHARDS = 4;
const PER_SHARD = 30;
/** ~40 KB per item: a shard of 30 needs two pages. */
const PAD = 'x'.repeat(40_000);

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .flatMap((f) => (fs.statSync(path.join(dir, f)).isDirectory() ? walk(path.join(dir, f)) : [path.join(dir, f)]));
}

const loadTree = (name: string): Files =>
  new Map(walk(path.join(FIXTURES, name)).map((f) => [f, fs.readFileSync(f, 'utf8')]));

/** The files written under a fresh folder, keeping their layout; returns the folder. */
function materialize(name: string, files: Files, under: string): string {
  const root = path.join(FIXTURES, name);
  const dir = fs.mkdtempSync(path.join(under, `${name}-`));
  for (const [f, text] of files) {
    const to = path.join(dir, path.relative(root, f));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, text);
  }
  return dir;
}

/** After a fix: the key is clean, nothing new is reported, and no reader fix is offered again. */
async function assertSettled(before: Files, after: Files): Promise<void> {
  const was = await analyzeWorkspace(before);
  const now = await analyzeWorkspace(after);
  const ids = (fs: typeof now.findings) => fs.map((f) => `${path.basename(f.file)} ${f.rule}`);
  assert.deepEqual(
    ids(now.findings).filter((f) => /SL00[68]/.test(f) || !ids(was.findings).includes(f)),
    [],
  );
  assert.deepEqual(
    now.findings.flatMap((f) => readerFixes(f, now.ctx)),
    [],
  );
}

async function useReader(files: Files, readerFile?: string) {
  const ws = await analyzeWorkspace(files);
  const finding = ws.findings.find((f) => f.rule === 'SL006');
  assert.ok(finding, 'the unsharded read is reported');
  return readerFixes(finding, ws.ctx, readerFile ? { readerFile } : undefined);
}

describe('Python readers that compile, import and run', () => {
  let db: Dynalite;
  let out: string;
  const env = () => ({
    ...process.env,
    DYNAMODB_ENDPOINT: db.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
  const sks = (stem: string) =>
    Array.from({ length: SHARDS * PER_SHARD }, (_, i) => ({
      PK: `${stem}#${i % SHARDS}`,
      SK: `P#${String(i).padStart(4, '0')}`,
    }));

  before(async () => {
    db = await startDynalite();
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-python-'));
    const raw = new DynamoDBClient({
      endpoint: db.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const doc = DynamoDBDocumentClient.from(raw);
    await raw.send(
      new CreateTableCommand({
        TableName: 'leaderboard',
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: [
          { AttributeName: 'PK', AttributeType: 'S' },
          { AttributeName: 'SK', AttributeType: 'S' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    const items = [...sks('PKGFEED#recent'), ...sks('ORDERS#ALL')];
    for (let i = 0; i < items.length; i += 25) {
      const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item: { ...Item, pad: PAD } } }));
      await doc.send(new BatchWriteCommand({ RequestItems: { leaderboard: batch } }));
    }
    raw.destroy();
  });

  after(async () => {
    await db?.close();
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  test('a package: the reader in a new module app/readers.py, imported relatively, no cycle', async () => {
    const files = loadTree('pkg-py');
    const app = path.join(FIXTURES, 'pkg-py', 'app');
    // A module name `import` cannot take is refused rather than written.
    assert.deepEqual(await useReader(files, path.join(app, 'feed-readers.py')), []);

    const actions = await useReader(files, path.join(app, 'readers.py'));
    assert.deepEqual(
      actions.map((a) => a.id),
      ['use-reader'],
    );
    const fixed = applyAction(files, actions[0]);
    await assertSettled(files, fixed);
    const readers = fixed.get(path.join(app, 'readers.py'))!;
    const repo = fixed.get(path.join(app, 'repo.py'))!;
    assert.match(repo, /^from \.readers import query_pkgfeed_recent_\w+$/m, 'imported the way the package imports');
    assert.doesNotMatch(readers, /\brepo\b/, 'the reader does not import the module that imports it');
    const lines = readers.split('\n');
    const firstDef = lines.findIndex((l) => l.startsWith('def '));
    const importLines = lines.flatMap((l, i) => (/^(import|from) /.test(l) ? [i] : []));
    assert.ok(importLines.length > 0 && Math.max(...importLines) < firstDef, 'imports before the code');
    assert.ok(
      lines.indexOf('import heapq') < lines.findIndex((l) => l.startsWith('from boto3')),
      'standard library first',
    );

    const call = 'from app.repo import FeedRepository\nresult = FeedRepository().since("P#0100")';
    const want = sks('PKGFEED#recent')
      .map((x) => x.SK)
      .filter((s) => s > 'P#0100')
      .sort();
    const dirBefore = materialize('pkg-py', files, out);
    assert.deepEqual(await runPython(dirBefore, call), [], 'before: the bare key holds nothing');
    const dir = materialize('pkg-py', fixed, out);
    await run('python3', ['-c', 'import app.readers, app.repo'], { cwd: dir, env: env() });
    const got = await runPython(dir, call);
    assert.equal(got.length, want.length);
    assert.deepEqual(got, want, 'after: every item, in sort-key order');
  });

  test('a script with its constants under __main__: the reader takes them from the call', async () => {
    const files = loadTree('main-py');
    const actions = await useReader(files);
    assert.deepEqual(
      actions.map((a) => a.id),
      ['use-reader'],
    );
    const fixed = applyAction(files, actions[0]);
    await assertSettled(files, fixed);
    const script = [...fixed.values()][0];
    const reader = /\ndef query_orders_all\w*\([\s\S]*?\n(?=\S)/.exec(script)?.[0] ?? '';
    assert.ok(reader, script);
    const code = reader.replace(/"""[\s\S]*?"""/, '');
    assert.doesNotMatch(code, /\b(EXPORT_SHARDS|ORDERS_TABLE|dynamodb)\b/, 'no name that exists only under __main__');
    assert.ok(script.indexOf('def query_orders_all') < script.indexOf('if __name__'), 'defined before it is called');

    const want = sks('ORDERS#ALL')
      .map((x) => x.SK)
      .sort();
    const runScript = async (f: Files) => {
      const dir = materialize('main-py', f, out);
      // Importing the script runs none of its __main__ block and must not fail.
      await run('python3', ['-c', 'import export_orders'], { cwd: dir, env: env() });
      const { stdout } = await run('python3', ['export_orders.py', 'P#'], { cwd: dir, env: env(), timeout: 60_000 });
      return stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { sk: string }).sk);
    };
    assert.deepEqual(await runScript(files), [], 'before: the bare key holds nothing');
    assert.deepEqual(await runScript(fixed), want, 'after: every item, in sort-key order');
  });

  test('a script whose read runs under __main__: the reader is defined before that block', async () => {
    const files = loadTree('main-block-py');
    const actions = await useReader(files);
    assert.deepEqual(
      actions.map((a) => a.id),
      ['use-reader'],
    );
    const fixed = applyAction(files, actions[0]);
    await assertSettled(files, fixed);
    const script = [...fixed.values()][0];
    assert.match(script, /\n\n\ndef query_orders_all_shards\(client, shard_count\):/, 'two blank lines before it');
    assert.ok(script.indexOf('def query_orders_all_shards') < script.indexOf('if __name__'));
    const count = async (f: Files) => {
      const dir = materialize('main-block-py', f, out);
      const { stdout } = await run('python3', ['print_orders.py'], { cwd: dir, env: env(), timeout: 60_000 });
      return Number(stdout.trim());
    };
    assert.equal(await count(files), 0, 'before: the bare key holds nothing');
    const got = await count(fixed);
    // Every item stored over the shards: the 120 written here and what the script's runs added.
    const raw = new DynamoDBClient({
      endpoint: db.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    let stored = 0;
    for (let shard = 0; shard < SHARDS; shard++) {
      let start: Record<string, AttributeValue> | undefined;
      do {
        const page = await raw.send(
          new QueryCommand({
            TableName: 'leaderboard',
            KeyConditionExpression: 'PK = :pk',
            ExpressionAttributeValues: { ':pk': { S: `ORDERS#ALL#${shard}` } },
            Select: 'COUNT',
            ExclusiveStartKey: start,
          }),
        );
        stored += page.Count ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
    }
    raw.destroy();
    assert.ok(stored > SHARDS * PER_SHARD);
    assert.equal(got, stored, 'after: every item of every shard');
  });

  /** Runs `call` (which sets `result`) in `dir`; returns the items' sort keys. */
  async function runPython(dir: string, call: string): Promise<string[]> {
    const script = `import json\n${call}\nprint(json.dumps([i["SK"] for i in result]))`;
    const { stdout } = await run('python3', ['-c', script], { cwd: dir, env: env(), timeout: 60_000 });
    return JSON.parse(stdout) as string[];
  }
});
