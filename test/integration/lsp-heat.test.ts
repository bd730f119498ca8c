import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { UpdateContributorInsightsCommand } from '@aws-sdk/client-dynamodb';
import type { CodeLens, Hover } from 'vscode-languageserver';
import type { HeatResult } from '../../protocol/src/heat';
import type { JsonKeysReport } from '../../protocol/src/report';
import { FIXTURE, WRITE_LIMIT, hammer, writeItems, type Sent } from '../heat/helpers';
import { boardTable, createTable, envWithoutAws, sleep, startTestLab, type TestLab } from '../lab/helpers';
import { countingProxy } from './heat-proxy';
import { startServer, until, type Session } from './lsp-client';

/**
 * Live heat in the language server, against the lab over real HTTP: traffic is driven
 * with the real SDK (a constant key past its ceiling, a key sharded four ways with one
 * shard hot), the server's settings point at the lab through a counting proxy, and the
 * hover, code lens, diagnostics and the panel's requests must show it. An untrusted
 * workspace must not send the lab a single request.
 */

const GLOBAL = 'scores · PK = BOARD#global';
const DAILY = 'scores · PK = DAILY#{time}';
const HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-heat-home-'));

/** No AWS configuration at all: the server must work against the lab without credentials. */
const bareEnv = () => envWithoutAws(HOME);

describe('live heat in the language server', () => {
  let t: TestLab;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let folder: string;
  let uri: string;
  let text: string;
  let hot: Sent;
  const sessions: Session[] = [];

  const settings = () => ({ aws: { endpoint: proxy.url }, heat: { window: '15m', refreshSeconds: 0 } });
  const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle));
  const columnOf = (needle: string) => text.split('\n')[lineOf(needle)].indexOf(needle);

  async function open(trusted: boolean | undefined): Promise<Session> {
    const s = startServer(folder, { env: bareEnv() });
    sessions.push(s);
    s.settings = settings();
    await s.initialize({
      initializationOptions: trusted === undefined ? {} : { workspaceTrusted: trusted },
      workspace: { codeLens: { refreshSupport: true } },
    });
    await s.conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'typescript', version: 1, text },
    });
    return s;
  }
  const hover = async (s: Session, needle: string) =>
    (
      (await s.conn.sendRequest('textDocument/hover', {
        textDocument: { uri },
        position: { line: lineOf(needle), character: columnOf(needle) + 2 },
      })) as Hover
    ).contents as { value: string };
  const lenses = (s: Session) =>
    s.conn.sendRequest('textDocument/codeLens', { textDocument: { uri } }) as Promise<CodeLens[]>;
  /** Markdown with its backslash escapes taken out, to read as the user does. */
  const plain = (md: string) => md.replace(/\\(.)/g, '$1');

  before(async () => {
    // A low ceiling, so the hot key throttles however busy the machine is.
    t = await startTestLab({ writeLimit: WRITE_LIMIT });
    await createTable(t.ddb, boardTable('scores'));
    await t.ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'scores', ContributorInsightsAction: 'ENABLE' }),
    );
    await sleep(150);
    hot = await hammer(t.ddbNoRetry, 'scores', 'BOARD#global', 1500);
    for (const [shard, n] of [4, 4, 4, 80].entries()) {
      assert.deepEqual(await writeItems(t.ddbNoRetry, 'scores', `DAILY#2026-11-30#${shard}`, n), {
        accepted: n,
        throttled: 0,
      });
    }
    await sleep(1100); // the last period closes
    proxy = await countingProxy(t.lab.url);
    folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-heat-')));
    fs.copyFileSync(path.join(FIXTURE, 'scores.ts'), path.join(folder, 'scores.ts'));
    text = fs.readFileSync(path.join(folder, 'scores.ts'), 'utf8');
    uri = pathToFileURL(path.join(folder, 'scores.ts')).toString();
  });

  after(async () => {
    for (const s of sessions) s.stop();
    await proxy?.close();
    await t?.close();
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(HOME, { recursive: true, force: true });
  });

  test('the premise: the hot key was throttled', () => {
    assert.ok(hot.throttled > 100, `throttled ${hot.throttled}`);
  });

  describe('a trusted workspace with the lab configured', () => {
    let s: Session;
    before(async () => {
      s = await open(true);
      const status = await until(
        'the first live refresh',
        () => s.heatStatuses.find((x) => x.state === 'ok' || x.state === 'problem'),
        () => s.heatStatuses,
      );
      assert.equal(status.state, 'ok', JSON.stringify(status));
    });

    test('the status names the lab connection, the window and the last refresh', () => {
      const status = s.heatStatuses.at(-1)!;
      assert.equal(status.label, 'lab');
      assert.deepEqual(
        { window: (status as { window?: string }).window, tables: (status as { tables?: string[] }).tables },
        {
          window: '15m',
          tables: ['scores'],
        },
      );
      assert.ok(Date.parse(status.lastRefresh!) > Date.now() - 60_000);
      assert.ok(proxy.count() > 0);
    });

    test('the hover grows the live line', async () => {
      const md = plain((await hover(s, "'BOARD#global'")).value);
      assert.match(md, /^\*\*ShardLens\*\* · PutItem/);
      const share = (3 * hot.accepted) / (3 * hot.accepted + 3 * 92);
      assert.match(
        md,
        new RegExp(
          `\\*\\*Live \\(15m\\), writes\\*\\*: #1 of 2 keys · ${Math.round(share * 100)}% of consumed units · ${hot.throttled.toLocaleString('en-US')} throttles`,
        ),
      );
      const daily = plain((await hover(s, 'DAILY#${day}#${shard}')).value);
      assert.match(
        daily,
        /Live \(15m\), writes\*\*: #2 of 2 keys · \d+% of consumed units · 0 throttles · shards: max 3\.5× mean \(shard 3\)/,
      );
    });

    test('a code lens sits above each key with live data', async () => {
      const found = await lenses(s);
      const byLine = new Map(found.map((l) => [l.range.start.line, l]));
      const global = byLine.get(lineOf("'BOARD#global'"))!;
      assert.ok(global, JSON.stringify(found));
      assert.match(
        global.command!.title,
        new RegExp(`^writes: \\d+% of table traffic · ${hot.throttled.toLocaleString('en-US')} throttles \\(15m\\)$`),
      );
      assert.equal(global.command!.command, 'shardlens.heat.showKey');
      assert.deepEqual(
        { ...global.command!.arguments![0], range: undefined },
        { logicalKey: GLOBAL, table: 'scores', index: null, uri, range: undefined },
      );
      assert.ok(byLine.get(lineOf('DAILY#${day}#${shard}')), 'the sharded writer has one too');
      // The per-player read had no traffic: no lens.
      assert.equal(byLine.get(lineOf('PLAYER#${playerId}')), undefined);
    });

    test('diagnostics gain the live evidence, and SL009 is published on the uneven shard set', async () => {
      const ds = await until('SL009', () => {
        const d = s.diagnostics.get(uri);
        return d?.some((x) => x.code === 'SL009') ? d : undefined;
      });
      const sl001 = ds.find((d) => d.code === 'SL001')!;
      assert.match(
        sl001.message as string,
        new RegExp(
          `Live \\(15m\\), writes: ${hot.throttled.toLocaleString('en-US')} throttle events, \\d+% of table scores's consumed units\\.$`,
        ),
      );
      const sl009 = ds.filter((d) => d.code === 'SL009').sort((a, b) => a.range.start.line - b.range.start.line);
      // The hot key throttled (any throttle is an alert, whatever a minute's average) and the
      // sharded key is uneven: each at its writer, where a shard suffix goes.
      assert.deepEqual(
        sl009.map((d) => d.range.start.line),
        [lineOf("'BOARD#global'"), lineOf('DAILY#${day}#${shard}')],
        'at the writers',
      );
      assert.match(
        sl009[0].message as string,
        new RegExp(`${hot.throttled.toLocaleString('en-US')} throttle events, all on writes`),
      );
      assert.match(sl009[1].message as string, /shard 3 took 240 units, 3\.5× the mean of its 4 shards/);
    });

    test('shardlens/heat answers with the linked report; shardlens/keys with the code keys', async () => {
      const heat = (await s.conn.sendRequest('shardlens/heat', { table: 'scores' })) as HeatResult;
      assert.ok(heat.ok, JSON.stringify(heat));
      // Beside the report, its CloudWatch figures per period: they add up to the report's sums.
      const sum = (xs: number[] = []) => xs.reduce((x, y) => x + y, 0);
      assert.ok(heat.series && heat.report.metrics && heat.series.times.length > 0, JSON.stringify(heat.series));
      assert.deepEqual(
        [sum(heat.series.consumedWriteUnits), sum(heat.series.throttlesByReason.WriteKeyRangeThroughputThrottleEvents)],
        [heat.report.metrics.consumedWriteUnits, hot.throttled],
      );
      assert.ok(hot.throttled > 0);
      assert.deepEqual(
        heat.report.keys.map((k) => [k.rank, k.logicalKey, k.throttles, k.sites.map((x) => x.file)]),
        [
          [1, GLOBAL, hot.throttled, ['scores.ts']],
          [2, DAILY, 0, ['scores.ts', 'scores.ts']],
        ],
      );
      const keys = (await s.conn.sendRequest('shardlens/keys', {})) as JsonKeysReport;
      assert.deepEqual(
        keys.tables.map((x) => x.table),
        ['scores'],
      );
      const ids = keys.tables[0].indexes[0].keys.map((k) => k.logicalKey);
      assert.ok(ids.includes(GLOBAL) && ids.includes(DAILY), ids.join());
      const site = keys.tables[0].indexes[0].keys.find((k) => k.logicalKey === GLOBAL)!.sites[0];
      assert.deepEqual(
        [site.file, site.line, site.findings.map((f) => f.rule)],
        ['scores.ts', lineOf("'BOARD#global'") + 1, ['SL001']],
      );
      // The panel's key view says where the verdict came from: here the window's throttled writes.
      const use = site.findings[0].keyUse;
      assert.equal(use?.source, 'live', JSON.stringify(use));
      assert.ok(use?.live && use.live.writeThrottles > 0, JSON.stringify(use));
    });

    test('shardlens/cursor names the logical key under the cursor, null elsewhere', async () => {
      const at = (line: number, character: number) =>
        s.conn.sendRequest('shardlens/cursor', { textDocument: { uri }, position: { line, character } });
      assert.deepEqual(await at(lineOf("'BOARD#global'"), columnOf("'BOARD#global'") + 3), {
        logicalKey: GLOBAL,
        table: 'scores',
        index: null,
        attribute: 'PK',
      });
      assert.equal(await at(0, 0), null);
    });

    test('shardlens.heat.refresh asks the lab again', async () => {
      const before = proxy.count();
      const status = (await s.conn.sendRequest('workspace/executeCommand', {
        command: 'shardlens.heat.refresh',
        arguments: [],
      })) as {
        state: string;
      };
      assert.equal(status.state, 'ok');
      assert.ok(proxy.count() > before, `${proxy.count()} requests after ${before}`);
    });
  });

  test('an endpoint nobody answers on is a problem in the status, not a crash', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const s = startServer(folder, { env: bareEnv() });
    sessions.push(s);
    s.settings = { aws: { endpoint: `http://127.0.0.1:${port}` }, heat: { window: '1h', refreshSeconds: 0 } };
    await s.initialize({ initializationOptions: { workspaceTrusted: true } });
    const status = await until(
      'the failed refresh',
      () => s.heatStatuses.find((x) => x.state === 'problem'),
      () => s.heatStatuses,
    );
    assert.equal((status.problem as { code: string }).code, 'endpoint-unreachable');
    assert.match((status.problem as { message: string }).message, new RegExp(`127\\.0\\.0\\.1:${port}`));
    await s.conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'typescript', version: 1, text },
    });
    assert.doesNotMatch((await hover(s, "'BOARD#global'")).value, /Live/);
    assert.deepEqual(await lenses(s), []);
    assert.equal(s.exited, null);
  });

  test('an untrusted workspace makes no AWS call, until trust is granted', async () => {
    const s = await open(undefined);
    const status = await until(
      'the heat status',
      () => s.heatStatuses.find((x) => x.state !== 'refreshing'),
      () => s.heatStatuses,
    );
    assert.equal(status.state, 'untrusted');
    const before = proxy.count();
    assert.doesNotMatch((await hover(s, "'BOARD#global'")).value, /Live/);
    assert.deepEqual(await lenses(s), []);
    const heat = (await s.conn.sendRequest('shardlens/heat', { table: 'scores' })) as HeatResult;
    assert.deepEqual(heat.ok ? null : heat.problem.code, 'untrusted');
    const refreshed = (await s.conn.sendRequest('workspace/executeCommand', {
      command: 'shardlens.heat.refresh',
      arguments: [],
    })) as {
      state: string;
    };
    assert.equal(refreshed.state, 'untrusted');
    assert.ok(!s.diagnostics.get(uri)?.some((d) => d.code === 'SL009'));
    assert.equal(proxy.count(), before, 'no request reached the lab');

    // The same session once trusted: the counter is not blind.
    await s.conn.sendNotification('shardlens/trust', { trusted: true });
    await until(
      'a refresh after trust',
      () => s.heatStatuses.at(-1)?.state === 'ok',
      () => s.heatStatuses,
    );
    assert.ok(proxy.count() > before);
    assert.match((await hover(s, "'BOARD#global'")).value, /Live/);
  });
});
