// `shardlens heat` and `check --heat` as a user runs them: the built CLI in a
// child process (with no AWS configuration at all, so the lab's placeholder
// credentials are what signs), against a lab in this process. The JSON must
// match docs/schemas/heat.schema.json; credential failures come from the real
// SDK credential chain reading a real (temporary) AWS config.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Ajv from 'ajv';
import { UpdateContributorInsightsCommand } from '@aws-sdk/client-dynamodb';
import type { JsonHeatFailure, JsonHeatReport } from '../../protocol/src/heat';
import type { JsonReport } from '../../protocol/src/report';
import { boardTable, createTable, envWithoutAws, sleep, startTestLab, type TestLab } from '../lab/helpers';
import { countingProxy } from '../integration/heat-proxy';
import { BLAME, FIXTURE, WRITE_LIMIT, driveBlame, hammer, writeItems, type Sent } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js');
const FIXTURE_REL = path.relative(ROOT, FIXTURE);

function newest(dir: string): number {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

/** The tests run the bundle a user runs: rebuild it when the sources are newer. */
function ensureBuilt(): void {
  const bundle = path.join(ROOT, 'dist', 'cli.js');
  const sources = Math.max(newest(path.join(ROOT, 'server', 'src')), newest(path.join(ROOT, 'protocol', 'src')));
  if (fs.existsSync(bundle) && fs.statSync(bundle).mtimeMs >= sources) return;
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stderr}${r.stdout}`);
}

/** A home with no AWS configuration: the SDK's default chain finds nothing. */
const HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-heat-home-'));
function bareEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...envWithoutAws(HOME), USERPROFILE: HOME, NODE_NO_WARNINGS: '1', ...extra };
}

/** Runs the CLI without blocking this process (the lab answers from it). */
function run(args: string[], env = bareEnv()): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'schemas', 'heat.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
const assertValid = (json: unknown) => assert.ok(validate(json), JSON.stringify(validate.errors, null, 2));

describe('shardlens heat CLI', () => {
  let t: TestLab;
  let hot: Sent;
  let lab: string[];

  before(async () => {
    ensureBuilt();
    // A low ceiling, so the hot key throttles however busy the machine is.
    t = await startTestLab({ writeLimit: WRITE_LIMIT });
    lab = ['--endpoint', t.lab.url, '--window', '15m', '--period', '1'];
    await createTable(t.ddb, boardTable('scores'));
    await t.ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'scores', ContributorInsightsAction: 'ENABLE' }),
    );
    await sleep(150);
    hot = await hammer(t.ddbNoRetry, 'scores', 'BOARD#global', 1500);
    for (const shard of [0, 1, 2, 3]) await writeItems(t.ddbNoRetry, 'scores', `DAILY#2026-11-30#${shard}`, 10);
    await writeItems(t.ddbNoRetry, 'scores', 'SESSION#abc', 5);
    await sleep(1100);
  });
  after(() => t?.close());

  test('--format json matches the schema and gives back the traffic, keys by consumed units', async () => {
    const r = await run(['heat', FIXTURE_REL, '--table', 'scores', ...lab, '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as JsonHeatReport;
    assertValid(json);
    assert.deepEqual(
      json.keys.map((k) => [k.rank, k.logicalKey, k.consumedUnits, k.throttles]),
      [
        [1, 'scores · PK = BOARD#global', 3 * hot.accepted, hot.throttled],
        [2, 'scores · PK = DAILY#{time}', 120, 0],
      ],
    );
    assert.deepEqual(json.keys[0].sites, [
      { file: `${FIXTURE_REL}/scores.ts`, line: 13, kind: 'write', operation: 'PutItem' },
    ]);
    assert.deepEqual(
      json.keys[1].shards,
      [0, 1, 2, 3].map((shard) => ({ shard, consumedUnits: 30, throttles: 0 })),
    );
    assert.deepEqual(json.keys[1].shardBalance, { maxShard: 0, max: 30, mean: 30, ratio: 1 });
    assert.deepEqual(json.unmatched, [{ key: 'SESSION#abc', consumedUnits: 15, throttles: 0, peakUnitsPerSecond: 15 }]);
    assert.equal(json.totalUnits, 3 * hot.accepted + 120 + 15);
    assert.equal(json.window, '15m');
    // The window starts on a period boundary (1 s here), so it is 15 minutes and under a period more.
    const span = new Date(json.to).getTime() - new Date(json.from).getTime();
    assert.ok(span >= 15 * 60 * 1000 && span < 15 * 60 * 1000 + 1000, `${span} ms`);
  });

  test('text names the keys, their code, their shards and the unmatched key', async () => {
    const r = await run(['heat', FIXTURE_REL, '--table', 'scores', ...lab]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^table scores · last 15m · Contributor Insights ACCESSED_AND_THROTTLED_KEYS · on-demand$/m);
    assert.match(r.stdout, /^1 +\d+% +[\d,]+ +[\d,]+ +scores · PK = BOARD#global$/m);
    assert.match(r.stdout, /^ {4}code: test\/heat\/fixture\/scores\.ts:13 \(write\)$/m);
    assert.match(
      r.stdout,
      /^ {4}code: test\/heat\/fixture\/scores\.ts:23 \(write\), test\/heat\/fixture\/scores\.ts:33 \(read\)$/m,
    );
    assert.match(r.stdout, /^ {4}shard 0\.\.3, max 1\.0× mean \(shard 0\): 0=30 1=30 2=30 3=30$/m);
    assert.match(r.stdout, /^ {4}SESSION#abc {2}15 units {2}0 throttles$/m);
  });

  test('check --heat adds the live evidence to findings and reports SL009', async () => {
    const r = await run(['check', FIXTURE_REL, '--heat', ...lab, '--format', 'json', '--fail-on', 'never']);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as JsonReport;
    const sl001 = json.findings.find((f) => f.rule === 'SL001')!;
    const share = Math.round(((3 * hot.accepted) / (3 * hot.accepted + 135)) * 100);
    assert.ok(
      sl001.message.endsWith(
        ` Live (15m), writes: ${hot.throttled.toLocaleString('en-US')} throttle events, ${share}% of table scores's consumed units.`,
      ),
      sl001.message,
    );
    const sl009 = json.findings.filter((f) => f.rule === 'SL009');
    assert.deepEqual(
      sl009.map((f) => [f.line, f.severity]),
      [[13, 'warning']],
      'throttled: requests were refused, a warning',
    );
    // Reported for its throttles; at the lab's ceiling (a tenth of a partition's) its peak
    // is not near DynamoDB's, so the message does not claim it (heat-units covers that path).
    assert.match(
      sl009[0].message,
      /^Live traffic on scores · PK = BOARD#global \(15m\): [1-9][\d,]* throttle events, all on writes \(a partition throttles only at its ceiling\)/,
    );
    assert.doesNotMatch(sl009[0].message, /peaked at/);
  });

  test("check --heat obeys the config's severity for SL009: off removes it, a level replaces the default", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-heat-config-'));
    const withRules = async (rules: Record<string, string>) => {
      const config = path.join(dir, `${Object.values(rules).join('-')}.json`);
      fs.writeFileSync(config, JSON.stringify({ rules }));
      const r = await run([
        'check',
        FIXTURE_REL,
        '--heat',
        ...lab,
        '--format',
        'json',
        '--fail-on',
        'never',
        '--config',
        config,
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /\.json:\d+:\d+:/, 'the config is read without a problem');
      return (JSON.parse(r.stdout) as JsonReport).findings;
    };
    try {
      const off = await withRules({ SL009: 'off' });
      assert.deepEqual(
        off.filter((f) => f.rule === 'SL009'),
        [],
      );
      // Only SL009 went: the static finding on the same writer stays, with its live evidence.
      const sl001 = off.find((f) => f.rule === 'SL001' && f.line === 13)!;
      assert.match(sl001.message, /Live \(15m\), writes: [1-9][\d,]* throttle events/);
      const info = await withRules({ SL009: 'info' });
      assert.deepEqual(
        info.filter((f) => f.rule === 'SL009').map((f) => [f.line, f.severity]),
        [[13, 'info']],
      );
      const error = await withRules({ SL009: 'error' });
      assert.deepEqual(
        error.filter((f) => f.rule === 'SL009').map((f) => [f.line, f.severity]),
        [[13, 'error']],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a failure prints what to do and exits 1; the JSON failure matches the schema', async () => {
    const r = await run(['heat', FIXTURE_REL, '--table', 'nope', ...lab, '--format', 'json']);
    assert.equal(r.code, 1);
    const json = JSON.parse(r.stdout) as JsonHeatFailure;
    assertValid(json);
    assert.equal(json.error.code, 'table-not-found');
    assert.match(r.stderr, /There is no table "nope" in endpoint/);
  });

  test('no credentials anywhere, for a real AWS endpoint: says how to provide them', async () => {
    // 192.0.2.1 (TEST-NET-1) is never contacted: signing needs credentials first.
    const r = await run([
      'heat',
      FIXTURE_REL,
      '--table',
      'scores',
      '--endpoint',
      'http://192.0.2.1:9',
      '--region',
      'us-east-1',
    ]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /No AWS credentials found\. Set AWS_PROFILE or pass --profile/);
  });

  test('an expired SSO session (a real profile and token cache) says: aws sso login --profile', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-sso-'));
    const startUrl = 'https://example.awsapps.com/start';
    fs.mkdirSync(path.join(home, '.aws', 'sso', 'cache'), { recursive: true });
    fs.writeFileSync(
      path.join(home, '.aws', 'config'),
      `[profile lab-sso]\nsso_start_url = ${startUrl}\nsso_region = us-east-1\nsso_account_id = 000000000000\nsso_role_name = Reader\nregion = us-east-1\n`,
    );
    const token = { accessToken: 'expired', expiresAt: '2020-01-01T00:00:00Z', region: 'us-east-1', startUrl };
    fs.writeFileSync(
      path.join(home, '.aws', 'sso', 'cache', `${createHash('sha1').update(startUrl).digest('hex')}.json`),
      JSON.stringify(token),
    );
    const env = bareEnv({ HOME: home, USERPROFILE: home, AWS_CONFIG_FILE: path.join(home, '.aws', 'config') });
    const r = await run(['heat', FIXTURE_REL, '--table', 'scores', ...lab, '--profile', 'lab-sso'], env);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /The SSO session has expired: run `aws sso login --profile lab-sso`/);
  });

  test('usage errors exit 2', async () => {
    assert.equal((await run(['heat', FIXTURE_REL])).code, 2);
    assert.equal((await run(['heat', '--table', 't', '--window', '2h'])).code, 2);
    assert.equal((await run(['check', '--table', 't'])).code, 2);
  });
});

describe('check --heat blames the call that made the heat', () => {
  let t: TestLab;
  let hot: Sent;

  before(async () => {
    ensureBuilt();
    t = await startTestLab({ writeLimit: WRITE_LIMIT });
    hot = await driveBlame(t);
  });
  after(() => t?.close());

  test('write throttles go on the writer finding; the reader that never ran gets none; SL009 at the writer', async () => {
    assert.ok(hot.throttled > 100, `throttled ${hot.throttled}`);
    const r = await run([
      'check',
      path.relative(ROOT, BLAME),
      '--heat',
      '--endpoint',
      t.lab.url,
      '--window',
      '15m',
      '--format',
      'json',
      '--fail-on',
      'never',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as JsonReport;
    // The writers of the key (the TypeScript one ran; the Python one writes the same key)
    // carry the write throttles; the readers, which never ran, carry nothing.
    const sl001 = json.findings
      .filter((f) => f.rule === 'SL001')
      .map((f) => [path.basename(f.file), f.line, f.message] as const)
      .sort();
    assert.deepEqual(
      sl001.map(([file, line]) => [file, line]),
      [
        ['board-repo.ts', 14],
        ['board-repo.ts', 22],
        ['board_dao.py', 13],
        ['board_dao.py', 17],
      ],
    );
    const n = hot.throttled.toLocaleString('en-US');
    for (const [, , message] of [sl001[0], sl001[2]])
      assert.match(
        message,
        new RegExp(
          `all writes of it.* Live \\(15m\\), writes: ${n} throttle events, \\d+% of table boards's consumed units\\.$`,
        ),
      );
    for (const [, , message] of [sl001[1], sl001[3]]) assert.doesNotMatch(message, /Live|throttle/);
    const sl009 = json.findings.filter((f) => f.rule === 'SL009');
    assert.deepEqual(sl009.map((f) => [path.basename(f.file), f.line]).sort(), [
      ['board-repo.ts', 14],
      ['board_dao.py', 13],
    ]);
    assert.match(sl009[0].message, new RegExp(`${n} throttle events, all on writes`));
    // The text report says whose calls met them, beside which call is which.
    const text = await run([
      'heat',
      path.relative(ROOT, BLAME),
      '--table',
      'boards',
      '--endpoint',
      t.lab.url,
      '--window',
      '15m',
    ]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^ {4}code: test\/heat\/blame\/board-repo\.ts:14 \(write\), test\/heat\/blame\/board-repo\.ts:22 \(read\), test\/heat\/blame\/board_dao\.py:13 \(write\), test\/heat\/blame\/board_dao\.py:17 \(read\)$/m,
    );
    assert.match(text.stdout, new RegExp(`^ {4}${n} throttle events, all on writes$`, 'm'));
  });
});

describe('an environment-named table on the command line: --map-table, and never the placeholder', () => {
  let t: TestLab;
  let hot: Sent;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  const ENV = path.relative(ROOT, path.join(__dirname, 'env-tables'));
  const placeholder = () => proxy.bodies().filter((b) => b.includes('SCORES_TABLE_NAME'));

  before(async () => {
    ensureBuilt();
    t = await startTestLab({ writeLimit: WRITE_LIMIT });
    await createTable(t.ddb, boardTable('scores-prod'));
    await t.ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'scores-prod', ContributorInsightsAction: 'ENABLE' }),
    );
    await sleep(150);
    hot = await hammer(t.ddbNoRetry, 'scores-prod', 'BOARD#global', 1200);
    await sleep(1100);
    proxy = await countingProxy(t.lab.url);
  });
  after(async () => {
    await proxy?.close();
    await t?.close();
  });

  const check = (...extra: string[]) =>
    run([
      'check',
      ENV,
      '--heat',
      '--endpoint',
      proxy.url,
      '--window',
      '15m',
      '--format',
      'json',
      '--fail-on',
      'never',
      ...extra,
    ]);

  /** SL001 findings as [file, line, has live evidence], in file order. */
  const sl001 = (json: JsonReport) =>
    json.findings
      .filter((f) => f.rule === 'SL001')
      .map((f) => [path.basename(f.file), f.line, /Live \(15m\), writes: [\d,]+ throttle events/.test(f.message)])
      .sort();

  test('unmapped: the placeholder is not sent; the literal name of the same table is read, the handlers claim nothing', async () => {
    const r = await check();
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Table \$SCORES_TABLE_NAME is named by an environment variable.*--map-table NAME=TABLE/);
    const json = JSON.parse(r.stdout) as JsonReport;
    // The backfill script names 'scores-prod' itself: its writer carries the write throttles;
    // the handlers' calls, on a table not known to be that one, carry nothing.
    assert.deepEqual(sl001(json), [
      ['backfill.ts', 12, true],
      ['handler.ts', 12, false],
      ['handler.ts', 22, false],
    ]);
    assert.ok(proxy.count() > 0);
    assert.deepEqual(placeholder(), []);
    const before = proxy.count();
    const heat = await run(['heat', ENV, '--table', '$SCORES_TABLE_NAME', '--endpoint', proxy.url]);
    assert.equal(heat.code, 2);
    assert.match(heat.stderr, /never sends such a name to AWS/);
    assert.equal(proxy.count(), before, 'heat sent nothing');
  });

  test('mapped: one table under two names; both writers get the throttles, the reader none, no request names the placeholder', async () => {
    assert.ok(hot.throttled > 100, `throttled ${hot.throttled}`);
    const r = await check('--map-table', '$SCORES_TABLE_NAME=scores-prod');
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as JsonReport;
    assert.deepEqual(sl001(json), [
      ['backfill.ts', 12, true],
      ['handler.ts', 12, true],
      ['handler.ts', 22, false],
    ]);
    const n = hot.throttled.toLocaleString('en-US');
    const writer = json.findings.find((f) => f.rule === 'SL001' && f.file.endsWith('handler.ts') && f.line === 12)!;
    assert.match(
      writer.message,
      new RegExp(`Live \\(15m\\), writes: ${n} throttle events, 100% of table scores-prod's consumed units\\.$`),
    );
    assert.deepEqual(
      json.findings
        .filter((f) => f.rule === 'SL009')
        .map((f) => [path.basename(f.file), f.line])
        .sort(),
      [
        ['backfill.ts', 12],
        ['handler.ts', 12],
      ],
    );
    const heat = await run([
      'heat',
      ENV,
      '--table',
      '$SCORES_TABLE_NAME',
      '--map-table',
      'SCORES_TABLE_NAME=scores-prod',
      '--endpoint',
      proxy.url,
      '--window',
      '15m',
      '--format',
      'json',
    ]);
    assert.equal(heat.code, 0, heat.stderr);
    const report = JSON.parse(heat.stdout) as JsonHeatReport;
    assertValid(report);
    assert.equal(report.table, 'scores-prod');
    assert.deepEqual(
      report.keys.map((k) => [k.logicalKey, k.operations.write.throttles, k.operations.read.throttles]),
      [['$SCORES_TABLE_NAME · PK = BOARD#global', hot.throttled, 0]],
    );
    assert.deepEqual(
      report.keys[0].sites.map((x) => [path.basename(x.file), x.kind, x.line]),
      [
        ['handler.ts', 'write', 12],
        ['handler.ts', 'read', 22],
        ['backfill.ts', 'write', 12],
      ],
    );
    assert.deepEqual(placeholder(), []);
  });
});
