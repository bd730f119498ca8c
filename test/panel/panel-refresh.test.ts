// The panel's view-title refresh button (shardlens.panel.refresh): the extension sends the
// keys again and a `refresh` message, and the page asks for its selected key's live heat
// read afresh (refresh: true). Real bundle, headless Chromium.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { PanelMessage } from '../../protocol/src/panel';
import type { JsonKeysReport } from '../../protocol/src/report';
import { buildBundle, launch, openPanel, type Bundle } from './harness';

const KEYS = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures/keys.json'), 'utf8')) as JsonKeysReport;
const BOARD = 'leaderboard · PK = BOARD#global';

let bundle: Bundle;
let browser: Awaited<ReturnType<typeof launch>>;
before(async () => {
  bundle = await buildBundle();
  browser = await launch();
});
after(async () => browser?.close());

test('a refresh message asks again for the selected key’s heat, read afresh; with no key it asks nothing', async () => {
  const p = await openPanel(browser.context, bundle);
  await p.send({ type: 'keys', report: KEYS, problem: null });
  await p.send({ type: 'refresh' });
  const heats = async () =>
    (await p.posted()).filter((m): m is Extract<PanelMessage, { type: 'heat' }> => m.type === 'heat');
  assert.equal((await heats()).length, 0, 'no key selected: nothing to read');
  await p.page.click(`li.key[data-key="${BOARD}"] > button.key-button`);
  assert.equal((await heats()).at(-1)?.refresh, false);
  await p.send({ type: 'refresh' });
  const last = (await heats()).at(-1)!;
  assert.deepEqual(
    { table: last.table, refresh: last.refresh, requestId: last.requestId },
    { table: 'leaderboard', refresh: true, requestId: 2 },
  );
  // The partition visualizer: one distinct key written once.
  await p.page.click('vscode-tab-header[data-tab="partitions"]');
  await p.page.locator('#part-count input').fill('1');
  const captions = await p.page.locator('#view-partitions figcaption').allTextContents();
  assert.match(captions[0], /\(1 distinct key\)$/);
  assert.match((await p.page.locator('#view-partitions').textContent()) ?? '', /hottest partition: 1 of 1 write \(/);
  assert.deepEqual(p.incidents, []);
  await p.page.close();
});

test('counted nouns agree with their numbers: 1 logical key on 1 table, 1 throttle, 1 live key matches', async () => {
  const { HOT_REPORT } = await import('./fixtures/heat');
  const board = KEYS.tables.find((t) => t.table === 'leaderboard')!;
  const one: JsonKeysReport = {
    ...KEYS,
    tables: [
      {
        ...board,
        indexes: [{ ...board.indexes[0], keys: [board.indexes[0].keys.find((k) => k.logicalKey === BOARD)!] }],
      },
    ],
  };
  const p = await openPanel(browser.context, bundle);
  await p.send({ type: 'keys', report: one, problem: null });
  assert.match((await p.page.locator('#view-keys p.muted').first().textContent()) ?? '', /^1 logical key on 1 table$/);
  await p.page.click(`li.key[data-key="${BOARD}"] > button.key-button`);
  const report = {
    ...HOT_REPORT,
    keys: [{ ...HOT_REPORT.keys[0], throttles: 1 }],
    unmatched: [{ key: 'SESSION#42', consumedUnits: 80, throttles: 1, peakUnitsPerSecond: 2 }],
  };
  await p.send({ type: 'heat', requestId: 1, result: { ok: true, report }, series: null });
  const view = p.page.locator('#view-heat');
  assert.match((await view.locator('p.summary').textContent()) ?? '', / · 1 throttle$/);
  assert.equal(
    await view.locator('[data-state="unmatched"] summary').textContent(),
    '1 live key matches no key in the code',
  );
  assert.match((await view.locator('[data-state="unmatched"] li').textContent()) ?? '', / · 1 throttle$/);
  // The partition visualizer: one distinct key written once.
  await p.page.click('vscode-tab-header[data-tab="partitions"]');
  await p.page.locator('#part-count input').fill('1');
  const captions = await p.page.locator('#view-partitions figcaption').allTextContents();
  assert.match(captions[0], /\(1 distinct key\)$/);
  assert.match((await p.page.locator('#view-partitions').textContent()) ?? '', /hottest partition: 1 of 1 write \(/);
  assert.deepEqual(p.incidents, []);
  await p.page.close();
});
