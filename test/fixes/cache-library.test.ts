// The cache fix on DynamoDB libraries' reads (test/fixes/fixtures/cache/electrodb-ts, toolbox-ts
// and onetable-ts, one upload service written with each): a plan per pricing tier and one
// site-wide settings item, read by every upload. ElectroDB's `.go()`, dynamodb-toolbox v1's
// `.send()` and OneTable's `get` resolve to plain data, so the chain is wrapped where it stands,
// as an SDK request is. Proven three ways: the light bulb of each read (offered, or why not),
// the fixed code type-checked against the library's typings and read again by the engine, and
// the real library against the lab before and after (reads served and throttled, from the
// lab's CloudWatch numbers).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes/index';
import type { FixAction } from '../../server/src/features/fixes/fix-model';
import { boardTable, createTable, readsServed, startTestLab, type TestLab } from '../lab/helpers';
import { applyAction, fixtureCopier, indexWorkspace, ROOT, typeErrors, type Workspace } from './helpers-write';

const run = promisify(execFile);
const copy = fixtureCopier(path.join(__dirname, 'fixtures', 'cache'));
const READERS = 20;
const LOAD_MS = 2000;
const TTL_MS = 500;

const place = (ws: Workspace, f: { file: string; span: { startLine: number } }) =>
  `${path.relative(ws.dir, f.file)}:${f.span.startLine + 1}`;

/** `place: id: title` of every cache action on a read, in file order. */
function cacheActions(ws: Workspace): string[] {
  return ws.findings
    .filter((f) => f.access.kind === 'read' && f.severity !== 'info')
    .flatMap((f) => allFixes(f, ws.ctx).map((a) => `${place(ws, f)} ${a.id}: ${a.title}`))
    .sort();
}

/** The fixture with every offered cache fix applied, one at a time (each re-read after the last). */
async function cached(dir: string): Promise<{ ws: Workspace; applied: FixAction[] }> {
  const applied: FixAction[] = [];
  for (;;) {
    const ws = await indexWorkspace(dir);
    const fix = ws.findings.flatMap((f) => allFixes(f, ws.ctx)).find((a) => a.id === 'cache-read');
    if (!fix) return { ws, applied };
    applyAction(ws.ctx, fix);
    applied.push(fix);
    assert.ok(applied.length <= 5, 'each fix is offered once');
  }
}

test('each ElectroDB read says whether it is cached: per value, constant, or why not', async () => {
  const ws = await indexWorkspace(copy('electrodb-ts'));
  assert.deepEqual(cacheActions(ws), [
    "handlers.ts:18 cache-read: Cache reads of '$uploads#tier_{tier}' in the wrapper at settings.ts:4 (every caller's) for 30 s, one entry per value (readers may see values up to 30 s old)",
    "settings.ts:10 cache-read: Cache reads of '$uploads' for 30 s (readers may see values up to 30 s old)",
    'settings.ts:16 cache-fix-blocked: No cache fix: it reads the key page by page (cursor passed to .go())',
    'settings.ts:22 cache-fix-blocked: No cache fix: its .where() filter may differ per call: one cache entry would serve other items',
    'settings.ts:29 cache-fix-blocked: No cache fix: its .go() arguments are computed per call: one cache entry would serve other reads',
    "settings.ts:4 cache-read: Cache reads of '$uploads#tier_{tier}' for 30 s, one entry per value (readers may see values up to 30 s old)",
  ]);
  // The settings item is written by the seed script only: its schema's finding (`composite: []`, standing
  // for every write of the entity) is judged by those writes, not counted as one more reached from anywhere.
  const schema = ws.findings.find((f) => f.access.library?.schema && f.access.library.entity === 'siteConfig');
  assert.deepEqual(
    [schema?.severity, schema?.messageId, schema?.keyUse?.verdict, schema?.keyUse?.writes],
    ['info', 'rarelyWritten', 'read', 0],
  );
});

test('each dynamodb-toolbox v1 read says whether it is cached: per value, constant, or why not', async () => {
  const ws = await indexWorkspace(copy('toolbox-ts'));
  assert.deepEqual(cacheActions(ws), [
    "handlers.ts:20 cache-read: Cache reads of 'PLAN#{tier}' in the wrapper at settings.ts:6 (every caller's) for 30 s, one entry per value (readers may see values up to 30 s old)",
    "settings.ts:12 cache-read: Cache reads of 'SETTINGS' for 30 s (readers may see values up to 30 s old)",
    'settings.ts:23 cache-fix-blocked: No cache fix: it reads the key page by page (exclusiveStartKey passed to .options())',
    'settings.ts:29 cache-fix-blocked: No cache fix: its .options() arguments are computed per call: one cache entry would serve other reads',
    "settings.ts:6 cache-read: Cache reads of 'PLAN#{tier}' for 30 s, one entry per value (readers may see values up to 30 s old)",
  ]);
});

test('each OneTable read says whether it is cached: a get per value or constant, never a find', async () => {
  const ws = await indexWorkspace(copy('onetable-ts'));
  assert.deepEqual(cacheActions(ws), [
    "handlers.ts:17 cache-read: Cache reads of 'plan#{tier}' in the wrapper at settings.ts:4 (every caller's) for 30 s, one entry per value (readers may see values up to 30 s old)",
    "settings.ts:10 cache-read: Cache reads of 'settings' for 30 s (readers may see values up to 30 s old)",
    "settings.ts:16 cache-fix-blocked: No cache fix: the Query is made by the OneTable entity Plan (primary), and OneTable's find returns an array carrying the next page's key (.next), which a cached copy drops: cache what you use of its result where it is used, with a short TTL",
    'settings.ts:21 cache-fix-blocked: No cache fix: its .get() arguments are computed per call: one cache entry would serve other reads',
    "settings.ts:4 cache-read: Cache reads of 'plan#{tier}' for 30 s, one entry per value (readers may see values up to 30 s old)",
  ]);
});

/** Each fixture's two wrapped reads, as the fixed text writes them. */
const WRAPPED: Record<string, RegExp[]> = {
  'electrodb-ts': [
    /await shardlensCached\(\s*`app · PK = \$uploads#tier_\$\{tier\} · GetItem · SK = \$plan_1`,\s*PLAN_CACHE_TTL_MS,\s*\(\) => Plan\.get\(\{ tier \}\)\.go\(\),?\s*\)/,
    /await shardlensCached\(\s*'app · PK = \$uploads · GetItem · SK = \$siteconfig_1',\s*SITECONFIG_CACHE_TTL_MS,\s*\(\) => SiteConfig\.get\(\{\}\)\.go\(\{ attributes: \['banner', 'maintenance'\] \}\),\s*\)/,
  ],
  'toolbox-ts': [
    /await shardlensCached\(\s*`app · PK = PLAN#\$\{tier\} · GetItem · SK = LIMITS`,\s*PLAN_CACHE_TTL_MS,\s*\(\) => PlanEntity\.build\(GetItemCommand\)\.key\(\{ tier \}\)\.send\(\),?\s*\)/,
    /await shardlensCached\(\s*'app · PK = SETTINGS · GetItem · SK = CURRENT',\s*SETTINGS_CACHE_TTL_MS,\s*\(\) =>\s*SettingsEntity\.build\(GetItemCommand\)\s*\.key\(\{\}\)\s*\.options\(\{ attributes: \['banner', 'maintenance'\] \}\)\s*\.send\(\),?\s*\)/,
  ],
  'onetable-ts': [
    /await shardlensCached\(\s*`app · PK = plan#\$\{tier\} · GetItem · SK = limits`,\s*PLAN_CACHE_TTL_MS,\s*\(\) => Plan\.get\(\{ tier \}\),?\s*\)/,
    /await shardlensCached\(\s*'app · PK = settings · GetItem · SK = current',\s*SETTINGS_CACHE_TTL_MS,\s*\(\) => Settings\.get\(\{\}, \{ fields: \['banner', 'maintenance'\] \}\),?\s*\)/,
  ],
};

for (const [fixture, wrapped] of Object.entries(WRAPPED)) {
  test(`${fixture}: the fixed reads type-check, keep their calls whole, and are read as cached`, async () => {
    const dir = copy(fixture);
    const { ws, applied } = await cached(dir);
    assert.equal(applied.length, 2);
    const text = fs.readFileSync(path.join(dir, 'settings.ts'), 'utf8');
    // One entry per tier (the key reads the same name the call does); one for the settings item.
    for (const re of wrapped) assert.match(text, re);
    assert.equal((text.match(/async function shardlensCached/g) ?? []).length, 1, 'the helper is added once');
    assert.deepEqual(typeErrors(dir), []);
    // Read again: the wrapped reads are notes (served about once per TTL), and offer nothing more;
    // so is the upload handler's call of the wrapper whose read is now cached (its tier is 'free' on some paths).
    const settings = ws.findings.filter((f) => f.access.kind === 'read' && f.access.cachedBy);
    assert.deepEqual(settings.map((f) => [path.basename(f.file), f.rule, f.severity, f.messageId]).sort(), [
      ['handlers.ts', 'SL001', 'info', 'cachedRead'],
      ['settings.ts', 'SL001', 'info', 'cachedRead'],
      ['settings.ts', 'SL003', 'info', 'cachedRead'],
    ]);
    const caller = settings.find((f) => f.file.endsWith('handlers.ts'));
    assert.equal(path.basename(caller?.access.through?.file ?? ''), 'settings.ts');
    for (const f of settings) assert.deepEqual(allFixes(f, ws.ctx), []);
  });
}

let t: TestLab;
before(async () => {
  t = await startTestLab({ readLimit: 5 });
});
after(async () => {
  await t.close();
});

const served = (tableName: string, from: number, to: number) => readsServed(t.cw, tableName, from, to);

/** Seeds the table with the fixture's own seed script, then READERS upload checks in a loop for LOAD_MS. */
const DRIVE = `import { planLimits, siteStatus } from './settings';
(async () => {
  const end = Date.now() + ${LOAD_MS};
  let ok = 0;
  let failed = 0;
  const reader = async (n: number) => {
    while (Date.now() < end) {
      try {
        const [status, limits] = await Promise.all([siteStatus(), planLimits(n % 2 ? 'pro' : 'team')]);
        if (status.banner === 'Welcome' && limits.maxUploadMb === (n % 2 ? 250 : 1000)) ok++;
        else failed++;
      } catch {
        failed++;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  await Promise.all(Array.from({ length: ${READERS} }, (_, n) => reader(n)));
  console.log(JSON.stringify({ ok, failed }));
})();
`;

async function load(fixture: string, fixed: boolean) {
  const tableName = `${fixture}-${fixed ? 'after' : 'before'}`;
  await createTable(t.ddb, boardTable(tableName));
  const dir = copy(fixture);
  if (fixed) await cached(dir);
  for (const file of ['settings.ts']) {
    const p = path.join(dir, file);
    fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replace(/(_CACHE_TTL_MS = )30 \* 1000;/g, `$1${TTL_MS};`));
  }
  fs.writeFileSync(path.join(dir, 'drive.ts'), DRIVE);
  const env = {
    ...process.env,
    AWS_ENDPOINT_URL: t.lab.url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'lab',
    AWS_SECRET_ACCESS_KEY: 'lab',
    AWS_MAX_ATTEMPTS: '1',
    APP_TABLE: tableName,
  };
  await run(process.execPath, ['--import', 'tsx', path.join(dir, 'seed.ts')], { cwd: ROOT, env, timeout: 60_000 });
  const from = Date.now();
  const out = await run(process.execPath, ['--import', 'tsx', path.join(dir, 'drive.ts')], {
    cwd: ROOT,
    env,
    timeout: 60_000,
  });
  const to = Date.now();
  return { ...(JSON.parse(out.stdout) as { ok: number; failed: number }), ...(await served(tableName, from, to)) };
}

for (const fixture of Object.keys(WRAPPED)) {
  test(`${fixture}, 20 readers of the settings item and two plans for 2 s: throttled before, about one GetItem per entry per TTL after`, async () => {
    const plain = await load(fixture, false);
    const fixed = await load(fixture, true);
    console.log(`# ${fixture} before: ${JSON.stringify(plain)}; after: ${JSON.stringify(fixed)}`);
    assert.ok(plain.throttled > 0, `the lab throttled the uncached reads: ${JSON.stringify(plain)}`);
    assert.equal(fixed.throttled, 0);
    assert.equal(fixed.failed, 0);
    assert.ok(fixed.ok > plain.ok, 'the cached reads served more requests');
    // Three entries (settings, pro, team): one load each, then one refresh per expiry.
    const most = 3 * (LOAD_MS / TTL_MS + 2);
    assert.ok(fixed.reads >= 3 * 3 && fixed.reads <= most, `GetItems served: ${fixed.reads} (at most ${most})`);
  });
}
