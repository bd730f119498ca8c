// The scatter-gather reader fixes on fixtures shaped like real projects: the fixed
// code parses, type-checks against the real SDK typings (TypeScript) or compiles
// (Python), ShardLens then reports nothing for the key and nothing new, the fixes are
// not offered twice — and the fixed code runs against dynalite and reads every item.

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CreateTableCommand, DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readerFixes } from '../../server/src/features/fixes/reader-fixes';
import type { FixAction } from '../../server/src/features/fixes/fix-model';
import {
  analyzeWorkspace,
  applyAction,
  loadFixture,
  loadModule,
  startDynalite,
  typeErrors,
  type Dynalite,
  type Files,
} from './helpers-reader';

interface Case {
  fixture: string;
  rule: 'SL006' | 'SL008';
  /** The key's stem as the writers build it (before `#<shard>`). */
  stem: string;
}

const CASES: Case[] = [
  { fixture: 'repository', rule: 'SL006', stem: 'BOARD#global' },
  { fixture: 'lambda', rule: 'SL006', stem: 'EVENTS#all' },
  { fixture: 'v2-script', rule: 'SL006', stem: 'ORDERS#open' },
  { fixture: 'dao-py', rule: 'SL006', stem: 'FEED#recent' },
  { fixture: 'client-py', rule: 'SL006', stem: 'METRICS#cpu' },
  { fixture: 'pagination', rule: 'SL008', stem: 'VISITS#today' },
  // Key names through a constants object (`[UserVotesKeys.pk]`), SDK v3.
  { fixture: 'votes-v3', rule: 'SL006', stem: 'VOTES#launch' },
  // SDK v3's aggregated DocumentClient: `await db.query({...})`, no `.promise()`.
  { fixture: 'docs-v3', rule: 'SL006', stem: 'COMMENTS#home' },
  // A file importing both v3 packages: the read's QueryCommand is the low-level client's.
  { fixture: 'mixed-v3', rule: 'SL006', stem: 'AUDIT#all' },
  // Commands through the package's namespace (`new DDB.QueryCommand`), and under aliases.
  { fixture: 'namespace-v3', rule: 'SL006', stem: 'NS#feed' },
  { fixture: 'alias-v3', rule: 'SL006', stem: 'INBOX#all' },
];

// Messages name places as `file:line`; lines move when a fix adds imports, so compare without them.
const findingIds = (fs: Array<{ rule: string; file: string; message: string }>) =>
  fs.map((f) => `${path.basename(f.file)} ${f.rule} ${f.message.replace(/(\.\w+):\d+/g, '$1')}`);

async function actionsOf(files: Files, rule: string): Promise<FixAction[]> {
  const ws = await analyzeWorkspace(files);
  return ws.findings.filter((f) => f.rule === rule).flatMap((f) => readerFixes(f, ws.ctx));
}

function pyCompileErrors(files: Files): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-py-'));
  try {
    for (const [f, text] of files) if (f.endsWith('.py')) fs.writeFileSync(path.join(dir, path.basename(f)), text);
    const py = [...files.keys()].filter((f) => f.endsWith('.py')).map((f) => path.join(dir, path.basename(f)));
    if (py.length) execFileSync('python3', ['-m', 'py_compile', ...py], { stdio: 'pipe' });
    return '';
  } catch (e) {
    return String((e as { stderr?: Buffer }).stderr ?? e);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('reader fixes: the fixed code is valid, clean and idempotent', () => {
  for (const c of CASES) {
    test(`${c.fixture}: every ${c.rule} fix`, async () => {
      const files = loadFixture(c.fixture);
      const ws = await analyzeWorkspace(files);
      const target = ws.findings.filter((f) => f.rule === c.rule);
      assert.equal(target.length, 1, `one ${c.rule} in ${c.fixture}: ${findingIds(ws.findings).join('; ')}`);
      const actions = readerFixes(target[0], ws.ctx);
      assert.ok(actions.length >= 1, 'a fix is offered');
      // The reader is wired to the read it replaces: not offered on its own, to be left uncalled.
      if (c.rule === 'SL006') assert.deepEqual(actions.map((a) => a.id).sort(), ['use-reader']);
      else if (!c.fixture.endsWith('-py'))
        assert.deepEqual(
          actions.map((a) => a.id),
          ['paginate-shards'],
        );
      const before = new Set(findingIds(ws.findings));
      for (const action of actions) {
        const fixed = applyAction(files, action);
        // Generated code in the file's own SDK style, with attribute names resolved.
        const generated = [...fixed.values()].join('\n');
        assert.doesNotMatch(generated, /'\[[A-Za-z_.]+\]'/, 'no attribute name written as source text');
        if (!c.fixture.endsWith('-py') && !/require\('aws-sdk'\)/.test(generated))
          assert.doesNotMatch(generated, /\.promise\(\)/, 'SDK v3 code gets no v2 .promise()');
        const after = await analyzeWorkspace(fixed);
        for (const r of after.results) assert.equal(r.syntaxErrors, false, `${action.id}: ${r.file} parses`);
        assert.deepEqual(typeErrors(fixed), [], `${action.id}: type-checks`);
        assert.equal(pyCompileErrors(fixed), '', `${action.id}: py_compile`);
        const now = findingIds(after.findings);
        assert.deepEqual(
          now.filter((f) => !before.has(f)),
          [],
          `${action.id}: no new finding`,
        );
        if (action.id !== 'generate-reader') {
          assert.deepEqual(
            after.findings.filter((f) => f.rule === 'SL006' || f.rule === 'SL008').map((f) => f.rule),
            [],
            `${action.id}: the key is clean`,
          );
        }
        // Idempotent: the fix is not offered again, and the repair now reuses the reader.
        const again = after.findings.flatMap((f) => readerFixes(f, after.ctx));
        assert.ok(!again.some((a) => a.id === action.id && a.id !== 'use-reader'), `${action.id} is not offered again`);
        const reuse = again.find((a) => a.id === 'use-reader');
        if (action.id === 'generate-reader') {
          assert.ok(reuse, 'after generating, the read can use the reader');
          assert.equal(reuse.changes.length, 1, 'it reuses the reader: one change, the call');
        } else assert.equal(reuse, undefined, 'the repaired read offers nothing');
        // Applying the actions computed on the fixed code changes nothing more for this key.
        assert.deepEqual(
          again.filter((a) => a.id === action.id),
          [],
        );
      }
    });
  }
});

// ---- Running the fixed code against dynalite -------------------------------------

const SHARDS = 4;
const PER_SHARD = 70;
/** ~40 KB per item: dynalite stops a page at 1 MB, so each shard needs 3 pages. */
const PAD = 'x'.repeat(40_000);

interface Written {
  PK: string;
  SK: string;
}

function sks(items: Array<Record<string, unknown>>): string[] {
  return items.map((i) => String((i.SK as { S?: string })?.S ?? i.SK));
}

describe('reader fixes: the fixed code runs against dynalite', () => {
  let db: Dynalite;
  let doc: DynamoDBDocumentClient;
  let raw: DynamoDBClient;
  let outDir: string;
  const written = new Map<string, Written[]>();

  before(async () => {
    db = await startDynalite();
    Object.assign(process.env, {
      DYNAMODB_ENDPOINT: db.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
    raw = new DynamoDBClient({
      endpoint: db.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    doc = DynamoDBDocumentClient.from(raw);
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-run-'));
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
    // K items per key over its shards; a fifth of them outside the sort-key prefix the reads ask for.
    for (const c of CASES) {
      const items: Written[] = [];
      for (let i = 0; i < SHARDS * PER_SHARD; i++) {
        const sk = `${i % 5 === 4 ? 'Q' : 'P'}#${String(i).padStart(4, '0')}`;
        items.push({ PK: `${c.stem}#${i % SHARDS}`, SK: sk });
      }
      for (let i = 0; i < items.length; i += 20) {
        const batch = items.slice(i, i + 20).map((Item) => ({ PutRequest: { Item: { ...Item, pad: PAD } } }));
        await doc.send(new BatchWriteCommand({ RequestItems: { leaderboard: batch } }));
      }
      written.set(c.stem, items);
    }
  });

  after(async () => {
    raw?.destroy();
    await db?.close();
    if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
  });

  test('every shard needs several pages', async () => {
    for (const c of CASES) {
      const page = await raw.send(
        new QueryCommand({
          TableName: 'leaderboard',
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': { S: `${c.stem}#0` } },
        }),
      );
      assert.ok(page.LastEvaluatedKey, `${c.stem}#0 has more than one page`);
      assert.ok((page.Count ?? 0) < PER_SHARD);
    }
  });

  const repaired = async (c: Case): Promise<Files> => {
    const files = loadFixture(c.fixture);
    const action = (await actionsOf(files, c.rule)).find(
      (a) => a.id === (c.rule === 'SL006' ? 'use-reader' : 'paginate-shards'),
    );
    assert.ok(action, 'the repair is offered');
    return applyAction(files, action);
  };
  const all = (stem: string) => written.get(stem)!;
  const sorted = (xs: string[]) => [...xs].sort();

  test('repository (v3 DocumentClient, top 10 by SK, begins_with): the 10 highest of everything', async () => {
    const files = await repaired(CASES[0]);
    const mod = await loadModule(
      files,
      [...files.keys()].find((f) => f.endsWith('score-repository.ts'))!,
      outDir,
    );
    const Repo = mod.ScoreRepository as new () => { latest(prefix: string): Promise<Array<Record<string, unknown>>> };
    const got = sks(await new Repo().latest('P#'));
    const want = sorted(
      all('BOARD#global')
        .map((x) => x.SK)
        .filter((s) => s.startsWith('P#')),
    )
      .reverse()
      .slice(0, 10);
    assert.deepEqual(got, want);
  });

  test('lambda (v3 low-level + marshall, BETWEEN): exactly the items in range', async () => {
    const files = await repaired(CASES[1]);
    const mod = await loadModule(
      files,
      [...files.keys()].find((f) => f.endsWith('handler.ts'))!,
      outDir,
    );
    const handler = mod.handler as (e: { from: string; to: string }) => Promise<Array<Record<string, unknown>>>;
    // In sort-key order, as the single-key Query returned them: the shards are merged, not joined.
    const got = sks(await handler({ from: 'P#0010', to: 'P#0200' }));
    const want = sorted(
      all('EVENTS#all')
        .map((x) => x.SK)
        .filter((s) => s >= 'P#0010' && s <= 'P#0200'),
    );
    assert.ok(want.length > 100);
    assert.deepEqual(got, want);
  });

  test('v2 script (DocumentClient, every item): exactly the K items', async () => {
    const files = await repaired(CASES[2]);
    const mod = await loadModule(
      files,
      [...files.keys()].find((f) => f.endsWith('report.js'))!,
      outDir,
    );
    const got = sks(await (mod.report as () => Promise<Array<Record<string, unknown>>>)());
    assert.deepEqual(got, sorted(all('ORDERS#open').map((x) => x.SK)));
    assert.equal(got.length, SHARDS * PER_SHARD);
  });

  test('pagination (SL008 in place): every page of every shard', async () => {
    const files = await repaired(CASES[5]);
    const mod = await loadModule(
      files,
      [...files.keys()].find((f) => f.endsWith('dashboard.ts'))!,
      outDir,
    );
    const got = sorted(sks(await (mod.allVisits as () => Promise<Array<Record<string, unknown>>>)()));
    assert.deepEqual(got, sorted(all('VISITS#today').map((x) => x.SK)));
  });

  test('votes (v3, key names in a constants object): every vote, in sort-key order', async () => {
    const files = await repaired(CASES[6]);
    const repo = [...files].find(([f]) => f.endsWith('user-votes-repository.ts'))![1];
    // The reader names the key attributes through the same constants as the code around it.
    assert.match(repo, /ExpressionAttributeNames: \{ '#pk': UserVotesKeys\.pk \}/);
    assert.match(repo, /item\[UserVotesKeys\.sk\]/);
    const mod = await loadModule(
      files,
      [...files.keys()].find((f) => f.endsWith('user-votes-repository.ts'))!,
      outDir,
    );
    const Repo = mod.UserVotesRepository as new () => { listVotes(): Promise<Array<{ voteId: string }>> };
    const got = (await new Repo().listVotes()).map((v) => v.voteId);
    assert.deepEqual(got, sorted(all('VOTES#launch').map((x) => x.SK)));
  });

  test('comments (v3 aggregated DynamoDBDocument): every comment, in sort-key order', async () => {
    const files = await repaired(CASES[7]);
    const mod = await loadModule(
      files,
      [...files.keys()].find((f) => f.endsWith('comments.ts'))!,
      outDir,
    );
    const got = sks(await (mod.comments as () => Promise<Array<Record<string, unknown>>>)());
    assert.deepEqual(got, sorted(all('COMMENTS#home').map((x) => x.SK)));
  });

  test('audit log (both v3 packages imported, the read on the low-level client): every item, in order', async () => {
    const files = await repaired(CASES[8]);
    const mod = await loadModule(
      files,
      [...files.keys()].find((f) => f.endsWith('audit-log.ts'))!,
      outDir,
    );
    const got = sks(await (mod.auditTrail as () => Promise<Array<Record<string, unknown>>>)());
    assert.deepEqual(got, sorted(all('AUDIT#all').map((x) => x.SK)));
  });

  test('feed store (commands through `import * as DDB`): every post, in sort-key order', async () => {
    const files = await repaired(CASES[9]);
    const store = [...files].find(([f]) => f.endsWith('feed-store.ts'))![1];
    // In the file's own style: the command and the client's type through its namespace, nothing imported.
    assert.match(store, /new DDB\.QueryCommand\(\{/);
    assert.match(store, /client: DDB\.DynamoDBDocumentClient/);
    assert.doesNotMatch(store, /import \{[^}]*\b(QueryCommand|DynamoDBDocumentClient)\b/);
    const mod = await loadModule(
      files,
      [...files.keys()].find((f) => f.endsWith('feed-store.ts'))!,
      outDir,
    );
    const Store = mod.FeedStore as new () => { recent(): Promise<Array<Record<string, unknown>>> };
    assert.deepEqual(sks(await new Store().recent()), sorted(all('NS#feed').map((x) => x.SK)));
  });

  test('inbox (commands imported under aliases): every message, in sort-key order', async () => {
    const files = await repaired(CASES[10]);
    const mod = await loadModule(
      files,
      [...files.keys()].find((f) => f.endsWith('inbox.ts'))!,
      outDir,
    );
    const got = sks(await (mod.inbox as () => Promise<Array<Record<string, unknown>>>)());
    assert.deepEqual(got, sorted(all('INBOX#all').map((x) => x.SK)));
  });

  // Asynchronously: dynalite answers from this process's event loop.
  const runPython = async (files: Files, call: string): Promise<string[]> => {
    const dir = fs.mkdtempSync(path.join(outDir, 'py-'));
    for (const [f, text] of files) fs.writeFileSync(path.join(dir, path.basename(f)), text);
    const script = `import json, sys\nsys.path.insert(0, ${JSON.stringify(dir)})\n${call}\nprint(json.dumps([i["SK"]["S"] if isinstance(i["SK"], dict) else i["SK"] for i in result]))`;
    const { stdout } = await promisify(execFile)('python3', ['-c', script], {
      env: { ...process.env },
      timeout: 60_000,
    });
    return JSON.parse(stdout) as string[];
  };

  test('boto3 DAO (Table resource via self.table, top 10 with SK > since): the 10 highest after since', async () => {
    const files = await repaired(CASES[3]);
    const got = await runPython(files, 'from feed_dao import FeedDao\nresult = FeedDao().recent("P#0100")');
    const want = sorted(
      all('FEED#recent')
        .map((x) => x.SK)
        .filter((s) => s > 'P#0100'),
    )
      .reverse()
      .slice(0, 10);
    assert.deepEqual(got, want);
  });

  test('boto3 client module (begins_with, every item): exactly the matching items', async () => {
    const files = await repaired(CASES[4]);
    const got = await runPython(files, 'from metrics import metrics\nresult = metrics("P#")');
    assert.deepEqual(
      got,
      sorted(
        all('METRICS#cpu')
          .map((x) => x.SK)
          .filter((s) => s.startsWith('P#')),
      ),
    );
  });
});
