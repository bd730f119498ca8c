// The cache fix against the lab (per-partition-key throttling): N concurrent readers of one
// settings item for 2 s. The lab's read ceiling is lowered to 5 RCU/s per key (10 eventually
// consistent reads/s) so a bounded load shows what 3,000 RCU/s shows at a larger scale. Without
// the cache the lab throttles the reads; with it (TTL set to 0.5 s for the test) the lab serves
// about one GetItem per TTL however many readers there are: an expiry under load is one
// refresh, not N. The lab's own CloudWatch numbers are the count.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { PutItemCommand, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { allFixes } from '../../server/src/features/fixes/index';
import { createTable, readsServed, startTestLab, type TestLab } from '../lab/helpers';
import { applyAction, cleanup, copyFixture, indexWorkspace, ROOT } from './helpers-write';

const run = promisify(execFile);
const FIXTURES = path.join(__dirname, 'fixtures', 'cache');
const READERS = 20;
const LOAD_MS = 2000;
const TTL_MS = 500;
let t: TestLab;
const dirs: string[] = [];

const table = (name: string, sk: boolean): CreateTableCommandInput => ({
  TableName: name,
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    ...(sk ? [{ AttributeName: 'sk', AttributeType: 'S' as const }] : []),
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    ...(sk ? [{ AttributeName: 'sk', KeyType: 'RANGE' as const }] : []),
  ],
});

before(async () => {
  t = await startTestLab({ readLimit: 5 });
});
after(async () => {
  await t.close();
  dirs.forEach(cleanup);
});

/** A copy of a fixture, with the cache fix applied to its read-hot reads and its TTL set to TTL_MS. */
async function fixture(name: string, fixed: boolean): Promise<string> {
  const dir = copyFixture(name, FIXTURES);
  dirs.push(dir);
  for (let round = 0; fixed && round < 5; round++) {
    const ws = await indexWorkspace(dir);
    const fix = ws.findings
      .filter((x) => x.messageId === 'readHot')
      .flatMap((f) => allFixes(f, ws.ctx))
      .find((a) => a.id === 'cache-read');
    if (!fix) break;
    applyAction(ws.ctx, fix);
  }
  for (const file of fs.readdirSync(dir).filter((f) => /\.(ts|py)$/.test(f))) {
    const p = path.join(dir, file);
    const text = fs.readFileSync(p, 'utf8');
    fs.writeFileSync(
      p,
      text
        .replace(/(_CACHE_TTL_MS = )30 \* 1000;/, `$1${TTL_MS};`)
        .replace(/(_CACHE_TTL_SECONDS = )30\n/, `$1${TTL_MS / 1000}\n`),
    );
  }
  return dir;
}

const served = (tableName: string, from: number, to: number) => readsServed(t.cw, tableName, from, to);

const env = (tableName: string) => ({
  ...process.env,
  AWS_ENDPOINT_URL: t.lab.url,
  AWS_REGION: 'us-east-1',
  AWS_DEFAULT_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'lab',
  AWS_SECRET_ACCESS_KEY: 'lab',
  SETTINGS_TABLE: tableName,
});

/** READERS concurrent request handlers, each calling the config loader in a loop for LOAD_MS. */
const DRIVE_TS = `import { getBanner } from './handlers';
(async () => {
  const end = Date.now() + ${LOAD_MS};
  let ok = 0;
  let failed = 0;
  const reader = async () => {
    while (Date.now() < end) {
      try {
        if ((await getBanner()).body === 'Welcome') ok++;
      } catch {
        failed++;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  await Promise.all(Array.from({ length: ${READERS} }, reader));
  console.log(JSON.stringify({ ok, failed }));
})();
`;

async function loadTs(fixed: boolean, tableName: string) {
  await createTable(t.ddb, table(tableName, true));
  await t.ddb.send(
    new PutItemCommand({
      TableName: tableName,
      Item: { pk: { S: 'global-config' }, sk: { S: 'current' }, maxUploadMb: { N: '25' }, banner: { S: 'Welcome' } },
    }),
  );
  const dir = await fixture('config-ts', fixed);
  fs.writeFileSync(path.join(dir, 'drive.ts'), DRIVE_TS);
  const from = Date.now();
  const out = await run(process.execPath, ['--import', 'tsx', path.join(dir, 'drive.ts')], {
    cwd: ROOT,
    env: env(tableName),
    timeout: 60_000,
  });
  const to = Date.now();
  return { ...(JSON.parse(out.stdout) as { ok: number; failed: number }), ...(await served(tableName, from, to)) };
}

test('TypeScript config loader, 20 readers for 2 s: throttled without the cache, about one GetItem per TTL with it', async () => {
  const before = await loadTs(false, 'settings-before');
  const fixed = await loadTs(true, 'settings-after');
  console.log(`# before: ${JSON.stringify(before)}; after: ${JSON.stringify(fixed)}`);
  assert.ok(before.throttled > 0, `the lab throttled the uncached reads: ${JSON.stringify(before)}`);
  assert.equal(fixed.throttled, 0);
  assert.equal(fixed.failed, 0);
  assert.ok(fixed.ok > before.ok, 'the cached loader served more requests');
  // One load, then one refresh per expiry: LOAD_MS / TTL_MS = 4, and the one in flight at the end.
  assert.ok(fixed.reads >= 3 && fixed.reads <= LOAD_MS / TTL_MS + 2, `GetItems served: ${fixed.reads}`);
});

test('Python settings Lambda, 16 threads for 2 s: the same with boto3', async () => {
  const results = [];
  for (const fixed of [false, true]) {
    const tableName = fixed ? 'py-settings-after' : 'py-settings-before';
    await createTable(t.ddb, table(tableName, false));
    await t.ddb.send(
      new PutItemCommand({ TableName: tableName, Item: { pk: { S: 'SETTINGS#global' }, limit: { N: '7' } } }),
    );
    const dir = await fixture('settings-py', fixed);
    const drive = `import json, threading, time, settings
end = time.time() + ${LOAD_MS / 1000}
counts = {"ok": 0, "failed": 0}
lock = threading.Lock()
def reader():
    while time.time() < end:
        try:
            ok = json.loads(settings.handler({}, None)["body"])["limit"] == 7
            key = "ok" if ok else "failed"
        except Exception:
            key = "failed"
        with lock:
            counts[key] += 1
        time.sleep(0.005)
threads = [threading.Thread(target=reader) for _ in range(16)]
[th.start() for th in threads]
[th.join() for th in threads]
print(json.dumps(counts))
`;
    const from = Date.now();
    const out = await run('python3', ['-c', drive], {
      cwd: dir,
      env: { ...env(tableName), PYTHONPATH: dir, AWS_MAX_ATTEMPTS: '1' },
      timeout: 60_000,
    });
    const to = Date.now();
    results.push({
      ...(JSON.parse(out.stdout) as { ok: number; failed: number }),
      ...(await served(tableName, from, to)),
    });
  }
  const [plain, cached] = results;
  console.log(`# python before: ${JSON.stringify(plain)}; after: ${JSON.stringify(cached)}`);
  assert.ok(plain.throttled > 0, JSON.stringify(plain));
  assert.equal(cached.throttled, 0);
  assert.equal(cached.failed, 0);
  assert.ok(cached.reads >= 3 && cached.reads <= LOAD_MS / TTL_MS + 2, `GetItems served: ${cached.reads}`);
});
