// The real panel bundle in headless Chromium (playwright-core, the system's chromium):
// rendering of a keys report recorded from `shardlens keys examples --format json`,
// selection and call-site links, live heat with alerts and empty states, the generator
// (its code equals what `shardlens expr` prints), the partition visualizer, state
// restore, malformed messages, and hostile strings that must stay inert text.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { JsonKeysReport } from '../../protocol/src/report';
import type { PanelMessage } from '../../protocol/src/panel';
import { formatExpr } from '../../server/src/features/expressions/index';
import { HOSTILE_IMG, HOSTILE_JS, HOT_REPORT, INSIGHTS_OFF, NOT_CONNECTED, NO_TRAFFIC, SERIES } from './fixtures/heat';
import { buildBundle, cspViolations, launch, openPanel, OUTPUT, type Bundle, type PanelPage } from './harness';

const KEYS = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures/keys.json'), 'utf8')) as JsonKeysReport;
const BOARD = 'leaderboard · PK = BOARD#global';

let bundle: Bundle;
let browser: Awaited<ReturnType<typeof launch>>;

before(async () => {
  bundle = await buildBundle();
  browser = await launch();
  fs.mkdirSync(OUTPUT, { recursive: true });
});
after(async () => browser?.close());

const keysMsg = (report: JsonKeysReport | null = KEYS, problem: string | null = null) => ({
  type: 'keys' as const,
  report,
  problem,
});

async function lastPosted<T extends PanelMessage['type']>(p: PanelPage, type: T) {
  const all = await p.posted();
  return all.filter((m) => m.type === type).at(-1) as Extract<PanelMessage, { type: T }> | undefined;
}

async function tab(p: PanelPage, id: string) {
  await p.page.click(`vscode-tab-header[data-tab="${id}"]`);
}

/** Opens the panel, loads the keys and selects the sharded board key. */
async function withBoard(theme: 'light' | 'dark' = 'light') {
  const p = await openPanel(browser.context, bundle, { theme });
  await p.send(keysMsg());
  await p.page.click(`li.key[data-key="${BOARD}"] > button.key-button`);
  return p;
}

test('the keys report renders as tables → indexes → keys; a call site asks the extension to reveal it', async () => {
  const p = await openPanel(browser.context, bundle);
  assert.deepEqual((await p.posted())[0], { type: 'ready' });
  await p.send(keysMsg());
  const total = KEYS.tables.reduce((n, t) => n + t.indexes.reduce((m, i) => m + i.keys.length, 0), 0);
  assert.equal(await p.page.locator('li.key').count(), total);
  assert.equal(await p.page.locator('details.table').count(), KEYS.tables.length);
  await p.page.click(`li.key[data-key="${BOARD}"] > button.key-button`);
  const heat = await lastPosted(p, 'heat');
  assert.deepEqual(heat, {
    type: 'heat',
    requestId: 1,
    table: 'leaderboard',
    index: null,
    window: '1h',
    refresh: false,
  });
  const board = KEYS.tables.flatMap((t) => t.indexes.flatMap((i) => i.keys)).find((k) => k.logicalKey === BOARD)!;
  const sites = p.page.locator('li.key.selected button.site');
  assert.equal(await sites.count(), board.sites.length);
  // Keyboard: focus the second site and press Enter.
  await sites.nth(1).focus();
  await p.page.keyboard.press('Enter');
  const s = board.sites[1];
  assert.deepEqual(await lastPosted(p, 'reveal'), { type: 'reveal', file: s.file, line: s.line, column: s.column });
  assert.deepEqual(p.incidents, []);
  await p.page.close();
});

test('the cursor follows the editor: a cursor message selects its key', async () => {
  const p = await openPanel(browser.context, bundle);
  await p.send(keysMsg());
  await p.send({ type: 'cursor', logicalKey: 'events · pk = {time}' });
  assert.equal(await p.page.locator('li.key.selected').getAttribute('data-key'), 'events · pk = {time}');
  assert.deepEqual(await lastPosted(p, 'heat'), {
    type: 'heat',
    requestId: 1,
    table: 'events',
    index: null,
    window: '1h',
    refresh: false,
  });
  await p.page.close();
});

test('live heat: contributors, the shard balance with its mean line, alerts, series; a late answer is dropped', async () => {
  const p = await withBoard();
  await tab(p, 'heat');
  await p.send({ type: 'heat', requestId: 1, result: { ok: true, report: HOT_REPORT }, series: SERIES });
  const view = p.page.locator('#view-heat');
  const alerts = await view.locator('ul.alerts li').allTextContents();
  assert.equal(alerts.length, 3, alerts.join('\n'));
  // Any throttle is an alert, said with whose calls met it.
  assert.match(alerts[0], /^42 throttle events, all on writes: the key reached a partition's ceiling\.$/);
  assert.match(alerts[1], /BOARD#global#7 peaked at 2,700 units\/s: 90% of one partition's 3,000/);
  assert.match(alerts[2], /Shard 7 took 9,000 units, 6\.3× the mean/);
  assert.equal(await view.locator('.shards li').count(), 10);
  assert.equal(await view.locator('.shards li .col.alert').count(), 1);
  assert.equal(await view.locator('.shards li[data-shard="7"] .col.alert').count(), 1);
  assert.equal(await view.locator('.mean-line').count(), 1);
  const labels = await view.locator('.bars .bar-label').allTextContents();
  assert.deepEqual(labels, ['BOARD#global#7', 'BOARD#global#1', HOSTILE_JS]);
  assert.equal(await view.locator('figure.series canvas').count(), 2, 'capacity and throttle charts');
  // Switch to most throttled: the ranking changes.
  await view.locator('#contributors').evaluate((e: HTMLSelectElement) => {
    e.value = 'throttled';
    e.dispatchEvent(new Event('change'));
  });
  assert.equal(await view.locator('figure.bars figcaption').first().textContent(), 'Most throttled live keys');
  // The window picker asks again; the old answer arriving late changes nothing.
  await view.locator('#window').evaluate((e: HTMLSelectElement) => {
    e.value = '15m';
    e.dispatchEvent(new Event('change'));
  });
  assert.deepEqual(await lastPosted(p, 'heat'), {
    type: 'heat',
    requestId: 2,
    table: 'leaderboard',
    index: null,
    window: '15m',
    refresh: false,
  });
  await p.send({ type: 'heat', requestId: 1, result: NOT_CONNECTED, series: null });
  assert.equal(await view.locator('[data-state="no-credentials"]').count(), 0);
  await p.page.click('#heat-refresh');
  assert.equal((await lastPosted(p, 'heat'))?.refresh, true);
  assert.deepEqual(p.incidents, []);
  await p.page.close();
});

test('empty states: not connected, Contributor Insights off (enable with a mode), no traffic, unmatched keys', async () => {
  const p = await withBoard();
  await tab(p, 'heat');
  const view = p.page.locator('#view-heat');
  await p.send({ type: 'heat', requestId: 1, result: NOT_CONNECTED, series: null });
  assert.match((await view.locator('[data-state="no-credentials"]').textContent()) ?? '', /Not connected to AWS/);
  assert.equal(await view.locator('pre.command').textContent(), 'aws sso login');

  await p.page.click('#heat-refresh');
  await p.send({ type: 'heat', requestId: 2, result: INSIGHTS_OFF, series: null });
  assert.match(
    (await view.locator('[data-state="insights-disabled"]').textContent()) ?? '',
    /Contributor Insights is off/,
  );
  await view.locator('#insights-mode').evaluate((e: HTMLSelectElement) => {
    e.value = 'ACCESSED_AND_THROTTLED_KEYS';
    e.dispatchEvent(new Event('change'));
  });
  await p.page.click('#enable-insights');
  assert.deepEqual(await lastPosted(p, 'enableInsights'), {
    type: 'enableInsights',
    table: 'leaderboard',
    index: null,
    mode: 'ACCESSED_AND_THROTTLED_KEYS',
  });

  await p.page.click('#heat-refresh');
  await p.send({ type: 'heat', requestId: 3, result: NO_TRAFFIC, series: null });
  assert.match((await view.locator('[data-state="no-traffic"]').textContent()) ?? '', /No traffic on leaderboard/);

  await p.page.click('#heat-refresh');
  await p.send({ type: 'heat', requestId: 4, result: { ok: true, report: HOT_REPORT }, series: null });
  assert.match(
    (await view.locator('[data-state="unmatched"] summary').textContent()) ?? '',
    /2 live keys match no key/,
  );
  // Without a series, the window's sums are listed.
  assert.match((await view.locator('dl.metrics').textContent()) ?? '', /WriteKeyRangeThroughputThrottleEvents42/);
  await p.page.close();
});

test('hostile strings from AWS and from code stay text: no element, no script, no link', async () => {
  const hostileKeys: JsonKeysReport = structuredClone(KEYS);
  hostileKeys.tables[0].table = HOSTILE_IMG;
  hostileKeys.tables[0].indexes[0].keys[0].template = HOSTILE_IMG;
  hostileKeys.tables[0].indexes[0].keys[0].sites[0].findings.push({
    rule: 'SL001',
    severity: 'error',
    message: HOSTILE_JS,
  });
  const p = await openPanel(browser.context, bundle);
  await p.send(keysMsg(hostileKeys));
  await p.page.click(`li.key[data-key="${BOARD}"] > button.key-button`);
  await tab(p, 'heat');
  const heatReq = await lastPosted(p, 'heat');
  await p.send({
    type: 'heat',
    requestId: heatReq!.requestId,
    result: { ok: true, report: HOT_REPORT },
    series: SERIES,
  });
  await p.page.click('[data-state="unmatched"] summary');
  await p.page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
  const page = p.page;
  assert.equal(await page.locator('img').count(), 0);
  assert.equal(await page.locator('[onerror]').count(), 0);
  assert.equal(await page.locator('a[href]').count(), 0);
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  const text = (await page.locator('body').textContent()) ?? '';
  assert.ok(text.includes(HOSTILE_IMG), 'the img tag is shown literally');
  assert.ok(text.includes(HOSTILE_JS), 'the backtick/javascript: key is shown literally');
  assert.equal(await page.locator(`.bar-label[title="${HOSTILE_JS}"]`).count(), 1);
  assert.deepEqual(p.incidents, []);
  assert.deepEqual(await cspViolations(p), []);
  await p.page.close();
});

test('malformed host messages are ignored without breaking the panel', async () => {
  const p = await openPanel(browser.context, bundle);
  await p.send(keysMsg());
  for (const junk of [
    null,
    'keys',
    { type: 'keys', report: { version: 2, tables: [] }, problem: null },
    { type: 'keys', report: { version: 1, tables: [{ table: 5, indexes: [] }] }, problem: null },
    { type: 'heat', requestId: 1, result: { ok: true, report: { version: 1 } }, series: null },
    { type: 'cursor', logicalKey: 42 },
    { type: 'evil', html: HOSTILE_IMG },
  ])
    await p.send(junk);
  assert.ok((await p.page.locator('li.key').count()) > 10);
  assert.deepEqual(p.incidents, []);
  await p.page.close();
});

test('the generator fills from the selected key and prints what `shardlens expr` prints', async () => {
  const p = await withBoard();
  await tab(p, 'expr');
  const view = p.page.locator('#view-expr');
  assert.equal(await view.locator('#expr-template').evaluate((e: HTMLInputElement) => e.value), 'BOARD#global#{shard}');
  assert.equal(await view.locator('#expr-shards').evaluate((e: HTMLInputElement) => e.value), '0..9');
  // Type into the real text fields (inside their shadow roots), as a user would.
  await view.locator('#expr-pk input').fill('status');
  await view.locator('#expr-sk-attr input').fill('timestamp');
  await view.locator('#expr-sk-op').evaluate((e: HTMLSelectElement) => {
    e.value = 'between';
    e.dispatchEvent(new Event('change'));
  });
  await view.locator('#expr-sk input').fill('2026-11-30T00');
  await view.locator('#expr-sk2 input').fill('2026-11-30T12');
  const rows = view.locator('#expr-table tbody tr');
  assert.equal(await rows.count(), 10);
  assert.equal(await rows.nth(3).locator('td').nth(1).textContent(), '#pk = :pk AND #sk BETWEEN :sk1 AND :sk2');
  assert.equal(await rows.nth(3).locator('td').nth(2).textContent(), '{"#pk":"status","#sk":"timestamp"}');
  assert.equal(
    await rows.nth(3).locator('td').nth(3).textContent(),
    '{":pk":"BOARD#global#3",":sk1":"2026-11-30T00",":sk2":"2026-11-30T12"}',
  );
  const spec = {
    pkAttribute: 'status',
    template: 'BOARD#global#{shard}',
    shards: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    sort: {
      attribute: 'timestamp',
      op: 'between' as const,
      type: 'S' as const,
      value: '2026-11-30T00',
      value2: '2026-11-30T12',
    },
  };
  assert.equal(await view.locator('#expr-code').textContent(), formatExpr(spec, 'json'));
  await view.locator('button[data-format="python"]').click();
  assert.equal(await view.locator('#expr-code').textContent(), formatExpr(spec, 'python'));
  await view.locator('button[data-format="ts"]').click();
  const ts = formatExpr(spec, 'ts');
  assert.equal(await view.locator('#expr-code').textContent(), ts);
  await p.page.click('#expr-copy');
  assert.deepEqual(await lastPosted(p, 'copy'), { type: 'copy', text: ts });
  await p.page.click('#expr-insert');
  assert.deepEqual(await lastPosted(p, 'insert'), { type: 'insert', text: ts });
  // A key read through a secondary index: every query names it (a Query without IndexName reads the table's key).
  assert.equal(await view.locator('#expr-index').evaluate((e: HTMLInputElement) => e.value), '');
  // Typing keeps the chosen format (TypeScript here), as the other fields do.
  await view.locator('#expr-index input').fill('status-index');
  assert.equal(await view.locator('#expr-code').textContent(), formatExpr({ ...spec, index: 'status-index' }, 'ts'));
  assert.match((await view.locator('#expr-code').textContent()) ?? '', /IndexName: "status-index",/);
  await view.locator('#expr-index input').fill('');
  // A template without {shard} says what to change instead of printing.
  await view.locator('#expr-template input').fill('BOARD#global');
  assert.match((await view.locator('#expr-error').textContent()) ?? '', /\{shard\}/);
  await p.page.close();
});

test('the partition visualizer: one hot key lands on one partition; a suffix spreads it; labelled as a teaching hash', async () => {
  const p = await openPanel(browser.context, bundle);
  await tab(p, 'partitions');
  const view = p.page.locator('#view-partitions');
  assert.match(
    (await view.locator('#teaching-note').textContent()) ?? '',
    /Teaching hash .* not DynamoDB's internal hash/,
  );
  const values = async (i: number) =>
    (await view.locator('.spread').nth(i).locator('.bar-value').allTextContents()).map((v) =>
      Number(v.replace(/,/g, '')),
    );
  const without = await values(0);
  assert.equal(without.length, 8);
  assert.deepEqual(
    without.filter((v) => v > 0),
    [1000],
  );
  const withSuffix = await values(1);
  assert.equal(
    withSuffix.reduce((a, b) => a + b, 0),
    1000,
  );
  assert.ok(Math.max(...withSuffix) <= 400, `spread: ${withSuffix.join(',')}`);
  await view.locator('#part-template input').fill('USER#{n}');
  const distinct = await values(0);
  assert.ok(Math.max(...distinct) < 200, `distinct keys spread: ${distinct.join(',')}`);
  await p.page.close();
});

test('state is restored after a reload: tab, selected key, window, generator fields', async () => {
  const p = await withBoard();
  await tab(p, 'expr');
  await p.page.locator('#expr-sk-attr input').fill('timestamp');
  const saved = await p.state();
  await p.page.close();
  const q = await openPanel(browser.context, bundle, { state: saved });
  // Before any message from the extension: the saved keys and selection are shown.
  assert.equal(await q.page.locator('li.key.selected').getAttribute('data-key'), BOARD);
  assert.equal(
    await q.page.locator('vscode-tabs').evaluate((e) => (e as unknown as { selectedIndex: number }).selectedIndex),
    2,
  );
  assert.equal(await q.page.locator('#expr-sk-attr').evaluate((e: HTMLInputElement) => e.value), 'timestamp');
  // The restored panel asks for the selected key's heat again.
  assert.equal((await lastPosted(q, 'heat'))?.table, 'leaderboard');
  await q.page.close();
});

test('screenshots in light and dark themes (test-output/panel/)', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const p = await withBoard(theme);
    await p.page.screenshot({ path: path.join(OUTPUT, `keys-${theme}.png`), fullPage: true });
    await tab(p, 'heat');
    await p.send({ type: 'heat', requestId: 1, result: { ok: true, report: HOT_REPORT }, series: SERIES });
    await p.page.screenshot({ path: path.join(OUTPUT, `heat-${theme}.png`), fullPage: true });
    await tab(p, 'expr');
    await p.page.locator('#expr-sk-attr input').fill('timestamp');
    await p.page.locator('#expr-sk input').fill('2026-11-30');
    await p.page.locator('#expr-sk-op').evaluate((e: HTMLSelectElement) => {
      e.value = 'begins_with';
      e.dispatchEvent(new Event('change'));
    });
    await p.page.screenshot({ path: path.join(OUTPUT, `generator-${theme}.png`), fullPage: true });
    await tab(p, 'partitions');
    await p.page.screenshot({ path: path.join(OUTPUT, `partitions-${theme}.png`), fullPage: true });
    assert.deepEqual(p.incidents, []);
    assert.ok(fs.statSync(path.join(OUTPUT, `heat-${theme}.png`)).size > 10_000);
    await p.page.close();
  }
});

test('live heat: a sharded key whose shards had no traffic says so instead of drawing an empty chart', async () => {
  const p = await withBoard();
  await tab(p, 'heat');
  const key = HOT_REPORT.keys[0];
  const quiet = {
    ...HOT_REPORT,
    keys: [
      {
        ...key,
        shards: key.shards!.map((s) => ({ ...s, consumedUnits: 0, throttles: 0 })),
        shardBalance: { maxShard: 0, max: 0, mean: 0, ratio: 0 },
      },
    ],
  };
  await p.send({ type: 'heat', requestId: 1, result: { ok: true, report: quiet }, series: null });
  const view = p.page.locator('#view-heat');
  await view.locator('figure.shards.empty').waitFor();
  assert.equal(await view.locator('.shards li').count(), 0);
  assert.match(await view.locator('figure.shards .empty-state').innerText(), /No live traffic on any of the 10 shards/);
  await p.page.close();
});

test('fresh data: a refresh from the extension asks for the selected key again, from the cache unless forced', async () => {
  const p = await withBoard();
  await tab(p, 'heat');
  await p.send({ type: 'heat', requestId: 1, result: { ok: true, report: HOT_REPORT }, series: SERIES });
  const asked = async () => (await p.posted()).filter((m) => m.type === 'heat').length;
  const before = await asked();
  // Shown again, a new connection, a background refresh: the server's fresh cache answers.
  for (const [i, reason] of (['visible', 'connection', 'poll'] as const).entries()) {
    await p.send({ type: 'refresh', reason });
    assert.deepEqual(await lastPosted(p, 'heat'), {
      type: 'heat',
      requestId: 2 + i,
      table: 'leaderboard',
      index: null,
      window: '1h',
      refresh: false,
    });
  }
  // The refresh button: read afresh from AWS.
  await p.send({ type: 'refresh' });
  assert.equal((await lastPosted(p, 'heat'))?.refresh, true);
  assert.equal((await asked()) - before, 4);
  // A reason the protocol does not know is dropped, not taken as a forced refresh.
  await p.send({ type: 'refresh', reason: 'later' } as never);
  assert.equal((await asked()) - before, 4);
  await p.page.close();
});

test('an environment-named table with no mapping: the panel says so and offers to choose its table', async () => {
  const p = await withBoard();
  await tab(p, 'heat');
  const message =
    'Table $SCORES_TABLE_NAME is named by an environment variable in the code, and ShardLens never sends such a name to AWS: map it to a table of this account.';
  await p.send({
    type: 'heat',
    requestId: 1,
    result: { ok: false, problem: { code: 'table-unmapped', message, command: null } },
    series: null,
  });
  const box = p.page.locator('#view-heat [data-state="table-unmapped"]');
  assert.equal(await box.locator('p').textContent(), message);
  await box.locator('#map-tables').click();
  assert.deepEqual(await lastPosted(p, 'mapTables'), { type: 'mapTables' });
  await p.page.close();
});
