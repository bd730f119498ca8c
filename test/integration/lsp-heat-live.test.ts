import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { UpdateContributorInsightsCommand } from '@aws-sdk/client-dynamodb';
import { DiagnosticSeverity, type CodeLens, type Diagnostic, type Hover } from 'vscode-languageserver';
import { Commands } from '../../protocol/src/commands';
import type { HeatResult, ListTablesResult } from '../../protocol/src/heat';
import type { HeatStatus } from '../../protocol/src/lsp';
import { statusFollower, type RefreshReason } from '../../client/src/panel/freshness';
import { WRITE_LIMIT, hammer, type Sent } from '../heat/helpers';
import { boardTable, createTable, envWithoutAws, sleep, startTestLab, type TestLab } from '../lab/helpers';
import { countingProxy } from './heat-proxy';
import { startServer, until, type Session } from './lsp-client';

/**
 * Live heat in the language server on code whose table comes from the environment
 * (`process.env.SCORES_TABLE_NAME`), against the lab over real HTTP behind a proxy that
 * keeps every request: the placeholder is never sent; once `shardlens.tables` maps it,
 * the table is read. The key's writer was driven past its ceiling and its reader never
 * ran: the throttles show on the writer only (code lens, hover, diagnostics, SL009). The
 * statuses the server sends after each background refresh and each settings change are
 * what the extension refreshes the panel on (client/src/panel/freshness.ts).
 */

const FIXTURE = path.join(__dirname, '..', 'heat', 'env-tables', 'handler.ts');
const KEY = '$SCORES_TABLE_NAME · PK = BOARD#global';
const HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-heat-live-home-'));

const bareEnv = () => envWithoutAws(HOME);

describe('live heat on an environment-named table, blamed on the call that made it', () => {
  let t: TestLab;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let folder: string;
  let uri: string;
  let text: string;
  let hot: Sent;
  let s: Session;
  const statuses = () => s.heatStatuses as unknown as HeatStatus[];
  const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle));
  const writerLine = () => lineOf("Item: { PK: 'BOARD#global'");
  const readerLine = () => lineOf("':pk': 'BOARD#global'");
  const settings = (extra: Record<string, unknown> = {}) => ({
    aws: { endpoint: proxy.url },
    heat: { window: '15m', refreshSeconds: 0 },
    ...extra,
  });
  const hover = async (line: number) => {
    const character = text.split('\n')[line].indexOf('BOARD#global') + 2;
    const h = (await s.conn.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: { line, character },
    })) as Hover;
    return (h.contents as { value: string }).value.replace(/\\(.)/g, '$1');
  };
  const lenses = () => s.conn.sendRequest('textDocument/codeLens', { textDocument: { uri } }) as Promise<CodeLens[]>;
  /** Requests that named the placeholder: must stay none. */
  const placeholderRequests = () => proxy.bodies().filter((b) => b.includes('SCORES_TABLE_NAME'));

  before(async () => {
    t = await startTestLab({ writeLimit: WRITE_LIMIT });
    await createTable(t.ddb, boardTable('scores-prod'));
    await t.ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'scores-prod', ContributorInsightsAction: 'ENABLE' }),
    );
    await sleep(150);
    hot = await hammer(t.ddbNoRetry, 'scores-prod', 'BOARD#global', 1200);
    await sleep(1100);
    proxy = await countingProxy(t.lab.url);
    folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-heat-live-')));
    fs.copyFileSync(FIXTURE, path.join(folder, 'handler.ts'));
    text = fs.readFileSync(path.join(folder, 'handler.ts'), 'utf8');
    uri = pathToFileURL(path.join(folder, 'handler.ts')).toString();
    s = startServer(folder, { env: bareEnv() });
    s.settings = settings();
    await s.initialize({
      initializationOptions: { workspaceTrusted: true },
      workspace: { codeLens: { refreshSupport: true } },
    });
    await s.conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'typescript', version: 1, text },
    });
  });

  after(async () => {
    s?.stop();
    await proxy?.close();
    await t?.close();
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(HOME, { recursive: true, force: true });
  });

  test('the premise: the writer throttled', () => {
    assert.ok(hot.throttled > 100, `throttled ${hot.throttled}`);
  });

  test('unmapped: the status warns and names it, the panel is told so, and the placeholder never reaches AWS', async () => {
    const status = await until(
      'the first refresh',
      () => statuses().find((x) => x.state === 'ok' || x.state === 'problem'),
      () => statuses(),
    );
    assert.deepEqual([status.state, status.tables, status.unmapped], ['ok', [], ['$SCORES_TABLE_NAME']]);
    assert.equal(status.problem?.code, 'table-unmapped');
    assert.match(status.problem!.message, /\$SCORES_TABLE_NAME is named by an environment variable/);
    const heat = (await s.conn.sendRequest('shardlens/heat', { table: '$SCORES_TABLE_NAME' })) as HeatResult;
    assert.equal(heat.ok ? 'ok' : heat.problem.code, 'table-unmapped');
    assert.deepEqual(await lenses(), []);
    // Enabling Contributor Insights on it is refused before any call, too.
    const enabled = (await s.conn.sendRequest('workspace/executeCommand', {
      command: Commands.enableInsights,
      arguments: [{ table: '$SCORES_TABLE_NAME', index: null, mode: 'THROTTLED_KEYS' }],
    })) as { ok: boolean; message: string | null };
    assert.equal(enabled.ok, false);
    assert.match(enabled.message!, /never sends such a name to AWS/);
    assert.deepEqual(placeholderRequests(), []);
    assert.equal(proxy.count(), 0, 'no table to read: no request at all');
  });

  test("listTables gives the account's tables for the pick", async () => {
    const listed = (await s.conn.sendRequest('shardlens/listTables', {})) as ListTablesResult;
    assert.ok(listed.ok, JSON.stringify(listed));
    assert.deepEqual(listed.tables, ['scores-prod']);
  });

  describe('mapped through shardlens.tables', () => {
    before(async () => {
      s.settings = settings({ tables: { $SCORES_TABLE_NAME: 'scores-prod' } });
      await s.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
      await until(
        'a refresh of the mapped table',
        () => statuses().find((x) => x.state === 'ok' && x.tables.includes('scores-prod')),
        () => statuses(),
      );
    });

    test('the mapped table is read, and still no request names the placeholder', async () => {
      const last = statuses().at(-1)!;
      assert.deepEqual([last.tables, last.unmapped, last.problem], [['scores-prod'], [], null]);
      assert.ok(proxy.count() > 0);
      assert.ok(proxy.bodies().some((b) => b.includes('"TableName":"scores-prod"')));
      assert.deepEqual(placeholderRequests(), []);
      // The panel asks by the code's name: answered from the mapped table.
      const heat = (await s.conn.sendRequest('shardlens/heat', { table: '$SCORES_TABLE_NAME' })) as HeatResult;
      assert.ok(heat.ok, JSON.stringify(heat));
      assert.equal(heat.report.table, 'scores-prod');
      const key = heat.report.keys.find((k) => k.logicalKey === KEY)!;
      assert.deepEqual(
        [
          key.throttles,
          key.operations.write.throttles,
          key.operations.read.throttles,
          key.operations.unknown.throttles,
        ],
        [hot.throttled, hot.throttled, 0, 0],
      );
      assert.deepEqual(
        key.sites.map((x) => [x.kind, x.operation, x.line]),
        [
          ['write', 'PutItem', writerLine() + 1],
          ['read', 'Query', readerLine() + 1],
        ],
      );
      assert.deepEqual(placeholderRequests(), []);
    });

    test('the code lens sits on the writer with its throttles; the reader that never ran has none', async () => {
      const found = await lenses();
      const n = hot.throttled.toLocaleString('en-US');
      assert.deepEqual(
        found.map((l) => [l.range.start.line, l.command!.title.replace(/\d+%/, 'P%')]),
        [[writerLine(), `writes: P% of table traffic · ${n} throttles (15m)`]],
      );
    });

    test('hovers: the writer shows its throttles, the reader says it had none of its own', async () => {
      const n = hot.throttled.toLocaleString('en-US');
      assert.match(
        await hover(writerLine()),
        new RegExp(`\\*\\*Live \\(15m\\), writes\\*\\*: #1 of 1 key · 100% of consumed units · ${n} throttles`),
      );
      assert.match(
        await hover(readerLine()),
        new RegExp(
          `\\*\\*Live \\(15m\\), reads\\*\\*: none attributed in the window \\(its writes: 100% of consumed units · ${n} throttles\\)`,
        ),
      );
    });

    test('diagnostics: live evidence and SL009 on the writer only', async () => {
      const ds = await until('SL009', () => {
        const d = s.diagnostics.get(uri) as Diagnostic[] | undefined;
        return d?.some((x) => x.code === 'SL009') ? d : undefined;
      });
      const msg = (d: Diagnostic) =>
        typeof d.message === 'string' ? d.message : (d.message as { value: string }).value;
      const sl001 = ds.filter((d) => d.code === 'SL001').sort((a, b) => a.range.start.line - b.range.start.line);
      assert.deepEqual(
        sl001.map((d) => d.range.start.line),
        [writerLine(), readerLine()],
      );
      assert.match(
        msg(sl001[0]),
        new RegExp(`Live \\(15m\\), writes: ${hot.throttled.toLocaleString('en-US')} throttle events`),
      );
      assert.doesNotMatch(msg(sl001[1]), /Live|throttle/);
      assert.deepEqual(
        ds.filter((d) => d.code === 'SL009').map((d) => [d.range.start.line, d.severity]),
        [[writerLine(), DiagnosticSeverity.Warning]],
        'throttled: requests were refused, a warning',
      );
    });

    test("SL009 obeys the user's severity: off removes it, a level replaces the default", async () => {
      const tables = { $SCORES_TABLE_NAME: 'scores-prod' };
      const sl009 = () => ((s.diagnostics.get(uri) ?? []) as Diagnostic[]).filter((d) => d.code === 'SL009');
      const withRules = async (rules: Record<string, string>, want: (ds: Diagnostic[]) => boolean) => {
        s.settings = settings({ tables, rules });
        await s.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
        return until(`SL009 with ${JSON.stringify(rules)}`, () => (want(sl009()) ? sl009() : undefined), sl009);
      };
      const off = await withRules({ SL009: 'off' }, (ds) => ds.length === 0);
      assert.deepEqual(off, []);
      // Only SL009 went: the writer's SL001 stays, with its live evidence.
      const sl001 = ((s.diagnostics.get(uri) ?? []) as Diagnostic[]).filter((d) => d.code === 'SL001');
      assert.equal(sl001.length, 2);
      const error = await withRules({ SL009: 'error' }, (ds) => ds.length > 0);
      assert.deepEqual(
        error.map((d) => [d.range.start.line, d.severity]),
        [[writerLine(), DiagnosticSeverity.Error]],
      );
      const back = await withRules({}, (ds) => ds[0]?.severity === DiagnosticSeverity.Warning);
      assert.deepEqual(
        back.map((d) => d.range.start.line),
        [writerLine()],
      );
    });

    test('the statuses tell the panel when to refresh: after the mapping changed, and after each background refresh', async () => {
      s.settings = settings({
        tables: { $SCORES_TABLE_NAME: 'scores-prod' },
        heat: { window: '15m', refreshSeconds: 1 },
      });
      await s.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
      const since = statuses().length;
      const finished = () =>
        statuses()
          .slice(since)
          .filter((x) => x.state === 'ok');
      await until(
        'two background refreshes',
        () => finished().length >= 2 || undefined,
        () => statuses().slice(since),
      );
      s.settings = settings({ tables: { $SCORES_TABLE_NAME: 'scores-prod' } });
      await s.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
      // What the extension does with each status as it arrives: the real sequence, replayed.
      const reasons: RefreshReason[] = [];
      const follow = statusFollower((r) => reasons.push(r));
      for (const x of statuses()) follow(x);
      const first = reasons.indexOf('connection');
      assert.ok(first >= 0, `reasons ${reasons.join()}`);
      assert.ok(reasons.filter((r) => r === 'connection').length >= 2, 'the first refresh, then the mapping');
      assert.ok(reasons.filter((r) => r === 'poll').length >= 2, `reasons ${reasons.join()}`);
      // A status while refreshing never triggers one.
      const quiet: RefreshReason[] = [];
      const f2 = statusFollower((r) => quiet.push(r));
      for (const x of statuses().filter((y) => y.state === 'refreshing')) f2(x);
      assert.deepEqual(quiet, []);
    });
  });

  test('a table the code names while a slow refresh runs is read (and said unmapped) once it ends', async () => {
    // Polling is off and the client asks for no code lens: nothing but the end of the
    // refresh can notice that the code now names a table it did not set out to read.
    const slow = await countingProxy(t.lab.url, { delayMs: 700 });
    const late = startServer(folder, { env: bareEnv() });
    try {
      late.settings = settings({ aws: { endpoint: slow.url }, tables: { SCORES_TABLE_NAME: 'scores-prod' } });
      await late.initialize({ initializationOptions: { workspaceTrusted: true } });
      const seen = () => late.heatStatuses as unknown as HeatStatus[];
      await until('the first refresh under way', () => seen().find((x) => x.state === 'refreshing'), seen);
      const orders = pathToFileURL(path.join(folder, 'orders.ts')).toString();
      await late.conn.sendNotification('textDocument/didOpen', {
        textDocument: {
          uri: orders,
          languageId: 'typescript',
          version: 1,
          text: [
            "import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';",
            'const doc = DynamoDBDocumentClient.from(client);',
            'export async function countOrder() {',
            "  await doc.send(new PutCommand({ TableName: process.env.ORDERS_TABLE, Item: { PK: 'ORDERS#all' } }));",
            '}',
            '',
          ].join('\n'),
        },
      });
      const status = await until(
        'a status naming the new table unmapped',
        () => seen().find((x) => x.state !== 'refreshing' && (x.unmapped ?? []).includes('$ORDERS_TABLE')),
        seen,
      );
      assert.deepEqual(status.tables, ['scores-prod']);
      assert.ok(slow.count() > 0, 'the mapped table was read through the slow proxy');
    } finally {
      late.stop();
      await slow.close();
    }
  });

  test('a settings change that lands while the workspace is still being indexed still reads the mapped table', async () => {
    // The change refreshes before the index holds any key; the tables the code then turns
    // out to use are read without waiting for a poll (polling is off here).
    const early = startServer(folder, { env: bareEnv() });
    try {
      early.settings = settings();
      await early.initialize({ initializationOptions: { workspaceTrusted: true } });
      early.settings = settings({ tables: { SCORES_TABLE_NAME: 'scores-prod' } });
      await early.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
      const status = await until(
        'the mapped table read',
        () =>
          (early.heatStatuses as unknown as HeatStatus[]).find(
            (x) => x.state === 'ok' && x.tables.includes('scores-prod'),
          ),
        () => early.heatStatuses,
      );
      assert.deepEqual(status.unmapped, []);
      assert.deepEqual(placeholderRequests(), []);
    } finally {
      early.stop();
    }
  });
});
