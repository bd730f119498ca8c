// The cache fix on read-hot keys (docs/fixes.md, "Read-hot keys: the cache fix"): offered on
// the reads of a key nothing on a request path writes, never the write shard; the fixed
// TypeScript type-checks, the fixed JavaScript checks with checkJs, the fixed Python
// compiles, and each fixed program returns what it returned before, run against dynalite.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, test } from 'node:test';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { createTable, stringKeyTable } from '../lab/helpers';
import { allFixes } from '../../server/src/features/fixes/index';
import {
  applyAction,
  cleanup,
  compileErrors,
  copyFixture,
  indexWorkspace,
  pythonErrors,
  ROOT,
  startDynalite,
  typeErrors,
} from './helpers-write';

const run = promisify(execFile);
const FIXTURES = path.join(__dirname, 'fixtures', 'cache');
const made: string[] = [];
const copy = (name: string) => {
  const dir = copyFixture(name, FIXTURES);
  made.push(dir);
  return dir;
};
after(() => made.forEach(cleanup));

/** Applies the cache fix to every read-hot read of a fixture copy; the titles offered. */
async function fixAll(dir: string): Promise<string[]> {
  const titles: string[] = [];
  for (let round = 0; round < 5; round++) {
    const ws = await indexWorkspace(dir);
    const offered = ws.findings
      .filter((x) => x.messageId === 'readHot')
      .map((f) => ({ f, fixes: allFixes(f, ws.ctx) }));
    for (const { fixes } of offered)
      assert.ok(!fixes.some((a) => a.id === 'add-random-shard' || a.id === 'add-hash-shard'));
    const next = offered.find(({ fixes }) => fixes.some((a) => a.id === 'cache-read'));
    if (!next) {
      // Analysed again after the fixes: each read the cache serves is no longer read-hot but
      // a note saying why, with no fix; no read-hot read is left.
      assert.deepEqual(offered, []);
      const cached = ws.findings.filter((f) => f.rule === 'SL001' && f.access.cachedBy);
      assert.equal(cached.length, titles.length);
      for (const f of cached) {
        assert.equal(f.messageId, 'cachedRead');
        assert.equal(f.severity, 'info');
        assert.match(
          f.message,
          /but this read is served from memory through shardlens_?[cC]ached: each running process/,
        );
        assert.deepEqual(allFixes(f, ws.ctx), []);
      }
      return titles;
    }
    const cache = next.fixes.find((a) => a.id === 'cache-read')!;
    titles.push(cache.title);
    applyAction(ws.ctx, cache);
  }
  assert.fail('the cache fix was offered again on a cached read');
}

test('a config loader read by every handler: read-hot, the cache fix offered, the seed script loses its shard fix', async () => {
  const dir = copy('config-ts');
  const ws = await indexWorkspace(dir);
  const read = ws.findings.find((f) => f.rule === 'SL001' && f.access.kind === 'read')!;
  assert.equal(read.messageId, 'readHot');
  assert.deepEqual(read.keyUse, { verdict: 'read', reads: 1, writes: 0, readEntries: null, writeEntries: null });
  assert.match(read.message, /3,000 RCU\/s \(6,000 eventually consistent reads\/s/);
  const seed = ws.findings.find((f) => f.rule === 'SL001' && f.access.kind === 'write')!;
  assert.equal(seed.messageId, 'rarelyWritten');
  assert.equal(seed.severity, 'info');
  assert.deepEqual(
    allFixes(seed, ws.ctx).map((a) => a.id),
    [],
  );
  const titles = await fixAll(dir);
  assert.deepEqual(titles, ["Cache reads of 'global-config' for 30 s (readers may see values up to 30 s old)"]);
  assert.deepEqual(typeErrors(dir), []);
  // Projects that turn noImplicitAny on with strictNullChecks off: an arrow returning undefined is an implicit any there.
  assert.deepEqual(compileErrors(dir, { strict: false, noImplicitAny: true, strictNullChecks: false }), []);
  const fixed = fs.readFileSync(path.join(dir, 'config.ts'), 'utf8');
  assert.match(fixed, /const GLOBAL_CONFIG_CACHE_TTL_MS = 30 \* 1000;/);
  assert.match(fixed, /export async function loadConfig\(\): Promise<AppConfig> \{/, 'the signature is kept');
});

test('SDK v2 DocumentClient in CommonJS and boto3 resource and client: fixed, checked and compiled', async () => {
  const v2 = copy('config-v2');
  assert.deepEqual(await fixAll(v2), ["Cache reads of 'FLAGS#web' for 30 s (readers may see values up to 30 s old)"]);
  assert.deepEqual(typeErrors(v2), []);
  // The read on the line after its arrow, its lines two steps deeper (prettier's layout), its
  // `.promise()` kept; no trailing comma where the file writes none.
  assert.match(
    fs.readFileSync(path.join(v2, 'flags.js'), 'utf8'),
    /\(\) =>\n {6}docClient\n {8}\.get\([^\n]*\)\n {8}\.promise\(\)\n {2}\);/,
  );
  const py = copy('settings-py');
  assert.deepEqual((await fixAll(py)).sort(), [
    "Cache reads of 'LIMITS' for 30 s (readers may see values up to 30 s old)",
    "Cache reads of 'SETTINGS#global' for 30 s (readers may see values up to 30 s old)",
  ]);
  assert.deepEqual(pythonErrors(py), []);
  const settings = fs.readFileSync(path.join(py, 'settings.py'), 'utf8');
  assert.match(settings, /^import copy\nimport json\n|^import copy\nimport threading\nimport time\n/m);
  assert.match(settings, /SETTINGS_GLOBAL_CACHE_TTL_SECONDS = 30\n/);
  assert.match(settings, /def load_settings\(\):/);
});

test('a key read and written by request handlers gets both fixes; a varying sort key blocks the cache', async () => {
  const dir = copy('config-ts');
  fs.writeFileSync(
    path.join(dir, 'feed.ts'),
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand, GetCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function post(id: string, text: string) {
  await ddb.send(new PutCommand({ TableName: 'feed', Item: { pk: 'FEED#public', sk: id, text } }));
}

export async function latest() {
  const out = await ddb.send(
    new QueryCommand({ TableName: 'feed', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'FEED#public' } }),
  );
  return out.Items ?? [];
}

export async function one(id: string) {
  return (await ddb.send(new GetCommand({ TableName: 'feed', Key: { pk: 'FEED#public', sk: id } }))).Item;
}
`,
  );
  const ws = await indexWorkspace(dir);
  const feed = ws.findings.filter((f) => f.file.endsWith('feed.ts') && f.rule === 'SL001');
  assert.deepEqual(
    feed.map((f) => f.messageId),
    ['hotBothWrite', 'hotBothRead', 'hotBothRead'],
  );
  assert.match(feed[1].message, /Trade-off: a cache takes the reads off the partition but not the writes/);
  assert.ok(allFixes(feed[0], ws.ctx).some((a) => a.id.startsWith('add-') || a.id === 'shard-fix-blocked'));
  assert.deepEqual(
    allFixes(feed[1], ws.ctx).map((a) => a.id),
    ['cache-read'],
  );
  assert.deepEqual(
    allFixes(feed[2], ws.ctx).map((a) => a.title),
    ['No cache fix: its sort key varies per call ({entity-id}): one cache entry would serve other items'],
  );
});

test('a count read, plus one and put back in the same handler: no cache fix (it would write old counts back); an ADD then a read keeps it', async () => {
  const ws = await indexWorkspace(copy('visits'));
  const offered = (file: string, op: string) => {
    const f = ws.findings.find((x) => x.file.endsWith(file) && x.access.operation === op && x.rule === 'SL001');
    assert.ok(f, `a finding on the ${op} of ${file}`);
    return allFixes(f, ws.ctx).map((a) => a.title);
  };
  const blocked = (line: number) =>
    `No cache fix: the PutItem at line ${line} writes the item back in the same function: a value read up to 30 s old would be written over newer ones`;
  assert.deepEqual(offered('visits.mjs', 'GetItem'), [blocked(11)]);
  assert.deepEqual(offered('downloads.py', 'GetItem'), [blocked(10)]);
  assert.deepEqual(offered('likes.py', 'GetItem'), [
    "Cache reads of 'likes' for 30 s (readers may see values up to 30 s old)",
  ]);
});

test('the fixed programs return what they returned before (dynalite)', async () => {
  const db = await startDynalite();
  try {
    for (const [name, sk] of [
      ['settings', true],
      ['py-settings', false],
      ['limits', true],
    ] as const)
      await createTable(db.client, stringKeyTable(name, { sortKey: sk }));
    const env = {
      ...process.env,
      AWS_ENDPOINT_URL: db.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 't',
      AWS_SECRET_ACCESS_KEY: 't',
    };
    const put = (item: Record<string, { S: string } | { N: string } | { BOOL: boolean }>, table = 'settings') =>
      db.client.send(new PutItemCommand({ TableName: table, Item: item }));
    await put({
      pk: { S: 'global-config' },
      sk: { S: 'current' },
      maintenance: { BOOL: false },
      maxUploadMb: { N: '25' },
      banner: { S: 'Hi' },
    });
    await put({ pk: { S: 'SETTINGS#global' }, read_only: { BOOL: false }, limit: { N: '7' } }, 'py-settings');
    await put({ pk: { S: 'LIMITS' }, sk: { S: 'v1' }, uploads: { N: '3' }, seats: { N: '12' } }, 'limits');
    const driveTs = `import { createUpload, getBanner } from './handlers';
(async () => {
  const out = [];
  for (const size of [10, 30]) out.push(await createUpload({ body: JSON.stringify({ sizeMb: size }) }));
  out.push(await getBanner());
  console.log(JSON.stringify(out));
})();
`;
    const drivePy = `import json, limits, settings
print(json.dumps([settings.handler({}, None), settings.handler({}, None), limits.current_limits()]))
`;
    const outputs: string[] = [];
    for (const fixed of [false, true]) {
      const ts = copy('config-ts');
      const py = copy('settings-py');
      if (fixed) {
        await fixAll(ts);
        await fixAll(py);
      }
      fs.writeFileSync(path.join(ts, 'drive.ts'), driveTs);
      const a = await run(process.execPath, ['--import', 'tsx', path.join(ts, 'drive.ts')], {
        cwd: ROOT,
        env,
        timeout: 60_000,
      });
      const b = await run('python3', ['-c', drivePy], {
        cwd: py,
        env: { ...env, PYTHONPATH: py, SETTINGS_TABLE: 'py-settings' },
        timeout: 60_000,
      });
      outputs.push(a.stdout + b.stdout);
    }
    assert.match(outputs[0], /"limit 25 MB"/);
    assert.match(outputs[0], /"seats": 12/);
    assert.equal(outputs[1], outputs[0]);
  } finally {
    await db.close();
  }
});

test('a FastAPI route (async def) reading with blocking boto3 is cached and answers the same; an awaited aioboto3 read says why not', async () => {
  const dir = copy('flags-async-py');
  const ws = await indexWorkspace(dir);
  const titles = (file: string) =>
    ws.findings
      .filter((f) => path.basename(f.file) === file && f.access.kind === 'read')
      .flatMap((f) => allFixes(f, ws.ctx).map((a) => `${a.id}: ${a.title}`));
  // The blocking call runs to its end before another coroutine runs: the threaded cache serves it.
  assert.deepEqual(titles('app.py'), [
    "cache-read: Cache reads of 'FLAGS#web' for 30 s (readers may see values up to 30 s old)",
  ]);
  // An awaited call returns a coroutine: caching that would hand every caller the same spent one.
  assert.deepEqual(titles('aio.py'), [
    'cache-fix-blocked: No cache fix: the read is awaited (an asyncio client), which the threaded cache does not serve',
  ]);

  // Twenty concurrent requests through the route before and after the fix, against dynalite, with
  // Debian's Python (its python3-fastapi and python3-boto3): the same answers.
  const db = await startDynalite();
  try {
    await createTable(db.client, stringKeyTable('flags'));
    await db.client.send(
      new PutItemCommand({ TableName: 'flags', Item: { pk: { S: 'FLAGS#web' }, enabled: { SS: ['dark', 'beta'] } } }),
    );
    const drive = `import asyncio, json, app
async def main():
    names = ["dark", "beta", "new-nav", "dark"] * 5
    print(json.dumps(await asyncio.gather(*(app.get_flag(n) for n in names))))
asyncio.run(main())
`;
    const outputs: string[] = [];
    for (const fixed of [false, true]) {
      const d = copy('flags-async-py');
      // aioboto3 is not installed here, and its read stays read-hot (refused above): left out of the run.
      fs.rmSync(path.join(d, 'aio.py'));
      if (fixed) {
        assert.deepEqual(await fixAll(d), [
          "Cache reads of 'FLAGS#web' for 30 s (readers may see values up to 30 s old)",
        ]);
        assert.deepEqual(pythonErrors(d), []);
        assert.match(fs.readFileSync(path.join(d, 'app.py'), 'utf8'), /response = shardlens_cached\(/);
      }
      const out = await run('/usr/bin/python3', ['-c', drive], {
        cwd: d,
        env: {
          ...process.env,
          PYTHONPATH: d,
          DYNAMODB_ENDPOINT: db.endpoint,
          AWS_DEFAULT_REGION: 'us-east-1',
          AWS_ACCESS_KEY_ID: 't',
          AWS_SECRET_ACCESS_KEY: 't',
        },
        timeout: 60_000,
      });
      outputs.push(out.stdout);
    }
    assert.match(outputs[0], /\{"name": "dark", "enabled": true\}/);
    assert.match(outputs[0], /\{"name": "new-nav", "enabled": false\}/);
    assert.equal(outputs[1], outputs[0]);
  } finally {
    await db.close();
  }
});

test('a key that is constant on one path only (a tier defaulting to free) is cached one entry per value: each tier gets its own plan', async () => {
  const dir = copy('plans-default-ts');
  const ws = await indexWorkspace(dir);
  const read = ws.findings.find((f) => f.access.operation === 'GetItem' && f.severity !== 'info');
  assert.ok(read, 'the read of PLAN#free (on the path with no tier header)');
  const [fix] = allFixes(read, ws.ctx);
  // One entry under 'PLAN#free' would answer every tier with the free plan.
  assert.equal(
    fix.title,
    "Cache reads of 'PLAN#{tier}' for 30 s, one entry per value (readers may see values up to 30 s old)",
  );
  const drive = (d: string) => {
    fs.writeFileSync(
      path.join(d, 'drive.ts'),
      `import { handler } from './plan';
(async () => {
  const out = [];
  for (const tier of [undefined, 'pro', 'free', 'pro', 'team']) out.push((await handler({ headers: { 'x-tier': tier } })).body);
  console.log(out.join(' '));
})();
`,
    );
    return path.join(d, 'drive.ts');
  };
  const fixedDir = copy('plans-default-ts');
  const fixedWs = await indexWorkspace(fixedDir);
  applyAction(
    fixedWs.ctx,
    allFixes(
      fixedWs.findings.find((f) => f.access.operation === 'GetItem')!,
      fixedWs.ctx,
    )[0],
  );
  assert.match(fs.readFileSync(path.join(fixedDir, 'plan.ts'), 'utf8'), /`plans · pk = PLAN#\$\{tier\} · GetItem`/);
  assert.deepEqual(typeErrors(fixedDir), []);
  const db = await startDynalite();
  try {
    await createTable(db.client, stringKeyTable('plans'));
    for (const [tier, uploads] of [
      ['free', '0'],
      ['pro', '50'],
      ['team', '500'],
    ])
      await db.client.send(
        new PutItemCommand({ TableName: 'plans', Item: { pk: { S: `PLAN#${tier}` }, uploads: { N: uploads } } }),
      );
    const env = {
      ...process.env,
      AWS_ENDPOINT_URL: db.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 't',
      AWS_SECRET_ACCESS_KEY: 't',
    };
    const outputs = [];
    for (const d of [dir, fixedDir])
      outputs.push((await run(process.execPath, ['--import', 'tsx', drive(d)], { cwd: ROOT, env })).stdout.trim());
    assert.equal(
      outputs[0],
      [
        '{"tier":"free","uploads":0}',
        '{"tier":"pro","uploads":50}',
        '{"tier":"free","uploads":0}',
        '{"tier":"pro","uploads":50}',
        '{"tier":"team","uploads":500}',
      ].join(' '),
    );
    assert.equal(outputs[1], outputs[0]);
  } finally {
    await db.close();
  }
});
