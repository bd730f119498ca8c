// The cache fix on a hot read made inside a wrapper in another module (docs/fixes.md, "Reads
// through a wrapper"): the caller's call of a wrapper that returns the request's data is
// wrapped where it stands; a wrapper whose own read has a cache fix is cached there, for
// every caller; anything else says why, naming what stands in the way. The fixed code
// type-checks or compiles, and run against dynalite it answers as before, from memory.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { createTable, stringKeyTable } from '../lab/helpers';
import type { Finding } from '../../server/src/engine';
import { allFixes } from '../../server/src/features/fixes/index';
import {
  applyAction,
  fixtureCopier,
  indexWorkspace,
  pythonErrors,
  ROOT,
  startDynalite,
  typeErrors,
  type Workspace,
} from './helpers-write';

const copy = fixtureCopier(path.join(__dirname, 'fixtures', 'cache'));

const hotReads = (ws: Workspace): Finding[] =>
  ws.findings.filter((f) => f.access.kind === 'read' && f.severity !== 'info');

/** `file:line` → what the read's light bulb offers. */
const offered = (ws: Workspace) =>
  Object.fromEntries(
    hotReads(ws).map((f) => [
      `${path.basename(f.file)}:${f.span.startLine + 1}`,
      allFixes(f, ws.ctx).map((a) => `${a.id}: ${a.title}`),
    ]),
  );

/**
 * Runs a program against a fresh dynalite whose `settings` table holds FEATURE_FLAGS with
 * everything off: when it prints `changed?` the test turns every flag on and answers on its
 * input, and the program reads again. Returns what it printed.
 */
async function readChangeRead(command: string, args: string[], cwd: string): Promise<string> {
  const db = await startDynalite();
  try {
    await createTable(db.client, stringKeyTable('settings'));
    const flags = (on: boolean) =>
      new PutItemCommand({
        TableName: 'settings',
        Item: { pk: { S: 'FEATURE_FLAGS' }, checkoutV2: { BOOL: on }, beta: { BOOL: on } },
      });
    await db.client.send(flags(false));
    const child = spawn(command, args, {
      cwd,
      env: {
        ...process.env,
        AWS_ENDPOINT_URL: db.endpoint,
        DYNAMODB_ENDPOINT: db.endpoint,
        AWS_REGION: 'us-east-1',
        AWS_DEFAULT_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 't',
        AWS_SECRET_ACCESS_KEY: 't',
        PYTHONPATH: cwd,
      },
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('changed?\n') && !child.stdin.writableEnded)
        void db.client.send(flags(true)).then(() => child.stdin.end('go\n'));
    });
    const code = await done;
    assert.equal(code, 0, err);
    return out;
  } finally {
    await db.close();
  }
}

test('TypeScript: a constant call of a plain wrapper is cached at the caller; the others say what stands in the way', async () => {
  const dir = copy('wrapper-calls-ts');
  const ws = await indexWorkspace(dir);
  assert.deepEqual(offered(ws), {
    'admins.ts:9': [
      'cache-fix-blocked: No cache fix: isMember is passed user, which may change per call: cache inside isMember, or where its result is used',
    ],
    'admins.ts:14': [
      'cache-fix-blocked: No cache fix: the GetItem is sent by getMembers (db.ts:14), which isMember calls: the fix caches a call of the function that sends it',
    ],
    'admins.ts:19': [
      "cache-fix-blocked: No cache fix: getAudited (db.ts:25) also awaits fetch(process.env.AUDIT_URL ?? 'http:... (line 26), which a cached call would skip",
    ],
    'admins.ts:25': [
      'cache-fix-blocked: No cache fix: getPlan (db.ts:39) returns what it builds with new Plan (line 40), whose methods a cached copy would not have',
    ],
    'admins.ts:31': [
      "cache-fix-blocked: No cache fix: getOrNone (db.ts:46) catches the request's errors (line 45): a cached call would keep what it returns instead for the TTL",
    ],
    'flags.ts:12': ["cache-read: Cache reads of 'FEATURE_FLAGS' for 30 s (readers may see values up to 30 s old)"],
  });

  // Before and after the fix: the handler reads, the item changes, the handler reads again.
  const drive = `import { handler } from './flags';
(async () => {
  const event = { path: '/flags' } as never;
  console.log((await handler(event)).body);
  console.log('changed?');
  await new Promise((r) => process.stdin.once('data', r));
  console.log((await handler(event)).body);
  process.exit(0);
})();
`;
  const outputs: string[] = [];
  for (const fixed of [false, true]) {
    const d = copy('wrapper-calls-ts');
    if (fixed) {
      const w = await indexWorkspace(d);
      const read = hotReads(w).find((f) => path.basename(f.file) === 'flags.ts')!;
      applyAction(w.ctx, allFixes(read, w.ctx)[0]);
      const text = fs.readFileSync(path.join(d, 'flags.ts'), 'utf8');
      assert.match(text, /await shardlensCached\(\s*'settings · pk = FEATURE_FLAGS · GetItem',/);
      assert.match(text, /\(\) => getItem<Flags>\(TABLE, 'FEATURE_FLAGS'\)/);
      assert.equal(fs.readFileSync(path.join(d, 'db.ts'), 'utf8'), fs.readFileSync(path.join(dir, 'db.ts'), 'utf8'));
      assert.deepEqual(typeErrors(d), []);
      // Read again: the caller's read is served from memory, a note with nothing to fix.
      const after = (await indexWorkspace(d)).findings.find((f) => path.basename(f.file) === 'flags.ts')!;
      assert.deepEqual([after.severity, after.messageId], ['info', 'cachedRead']);
    }
    fs.writeFileSync(path.join(d, 'drive.ts'), drive);
    outputs.push(await readChangeRead(process.execPath, ['--import', 'tsx', path.join(d, 'drive.ts')], ROOT));
  }
  assert.deepEqual(outputs[0].split('\n').slice(0, 3), [
    '{"path":"/flags","checkoutV2":false}',
    'changed?',
    '{"path":"/flags","checkoutV2":true}',
  ]);
  // Fixed: the first answer the same, the second from memory (the change is up to 30 s away).
  assert.deepEqual(outputs[1].split('\n').slice(0, 3), [
    '{"path":"/flags","checkoutV2":false}',
    'changed?',
    '{"path":"/flags","checkoutV2":false}',
  ]);
});

test('Python: a constant call of a plain wrapper is cached at the caller; one that also writes an audit item says so', async () => {
  const dir = copy('wrapper-py');
  const ws = await indexWorkspace(dir);
  assert.deepEqual(offered(ws), {
    'flags.py:11': ["cache-read: Cache reads of 'FEATURE_FLAGS' for 30 s (readers may see values up to 30 s old)"],
    'flags.py:16': [
      'cache-fix-blocked: No cache fix: get_logged (db.py:15) also calls _dynamodb.Table("audit").put_item (line 16), which a cached call would skip',
    ],
  });
  const drive = [
    'import sys, flags',
    'print(flags.lambda_handler({}, None)["body"], flush=True)',
    'print("changed?", flush=True)',
    'sys.stdin.readline()',
    'print(flags.lambda_handler({}, None)["body"], flush=True)',
  ].join('\n');
  const outputs: string[] = [];
  for (const fixed of [false, true]) {
    const d = copy('wrapper-py');
    if (fixed) {
      const w = await indexWorkspace(d);
      const read = hotReads(w).find((f) => f.span.startLine === 10)!;
      applyAction(w.ctx, allFixes(read, w.ctx)[0]);
      assert.match(
        fs.readFileSync(path.join(d, 'flags.py'), 'utf8'),
        /lambda: get_item\(SETTINGS_TABLE, "FEATURE_FLAGS"\),/,
      );
      assert.deepEqual(pythonErrors(d), []);
      const after = (await indexWorkspace(d)).findings.find(
        (f) => f.span.startLine === 10 || f.access.span.startLine > 10,
      );
      assert.deepEqual([after?.severity, after?.messageId], ['info', 'cachedRead']);
    }
    // Debian's Python and boto3; the fixture's client takes its endpoint from DYNAMODB_ENDPOINT.
    outputs.push(await readChangeRead('/usr/bin/python3', ['-c', drive], d));
  }
  assert.deepEqual(outputs[0].split('\n').slice(0, 3), ['{"beta": false}', 'changed?', '{"beta": true}']);
  assert.deepEqual(outputs[1].split('\n').slice(0, 3), ['{"beta": false}', 'changed?', '{"beta": false}']);
});

test("a wrapper whose own read has a cache fix: its caller's light bulb offers that fix, and it serves every caller", async () => {
  const dir = copy('wrapper-plans-ts');
  const ws = await indexWorkspace(dir);
  assert.deepEqual(offered(ws), {
    'plans.ts:9': [
      "cache-read: Cache reads of 'PLAN#{tier}' for 30 s, one entry per value (readers may see values up to 30 s old)",
    ],
    'upload.ts:11': [
      "cache-read: Cache reads of 'PLAN#{tier}' in the wrapper at plans.ts:9 (every caller's) for 30 s, one entry per value (readers may see values up to 30 s old)",
    ],
  });
  const [own, atCaller] = ['plans.ts', 'upload.ts'].map((file) => {
    const f = hotReads(ws).find((x) => path.basename(x.file) === file)!;
    return allFixes(f, ws.ctx)[0];
  });
  // The same edit, all of it in the wrapper's module.
  assert.deepEqual(atCaller.changes, own.changes);
  assert.ok(atCaller.changes.every((c) => path.basename(c.file) === 'plans.ts'));
  applyAction(ws.ctx, atCaller);
  assert.deepEqual(typeErrors(dir), []);
  assert.match(
    fs.readFileSync(path.join(dir, 'plans.ts'), 'utf8'),
    /shardlensCached\(\s*`plans · pk = PLAN#\$\{tier\} · GetItem`/,
  );
  const after = await indexWorkspace(dir);
  assert.deepEqual(
    after.findings.filter((f) => f.access.kind === 'read').map((f) => [path.basename(f.file), f.severity, f.messageId]),
    [
      ['plans.ts', 'info', 'cachedRead'],
      ['upload.ts', 'info', 'cachedRead'],
    ],
  );
});
