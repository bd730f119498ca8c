// The panel's time window follows the `shardlens.heat.window` setting: the extension sends
// it (`{ type: 'window' }`) when the page is ready and each time the setting changes, and
// the page reads its key's heat over it. The real bundle in headless Chromium.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { JsonKeysReport } from '../../protocol/src/report';
import type { PanelMessage } from '../../protocol/src/panel';
import { buildBundle, launch, openPanel, type Bundle, type PanelPage } from './harness';

const KEYS = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures/keys.json'), 'utf8')) as JsonKeysReport;
const BOARD = 'leaderboard · PK = BOARD#global';

let bundle: Bundle;
let browser: Awaited<ReturnType<typeof launch>>;

before(async () => {
  bundle = await buildBundle();
  browser = await launch();
});
after(async () => browser?.close());

const heatAsks = async (p: PanelPage) =>
  (await p.posted()).filter((m): m is Extract<PanelMessage, { type: 'heat' }> => m.type === 'heat');
const picker = (p: PanelPage) => p.page.locator('#view-heat #window').evaluate((e: HTMLSelectElement) => e.value);

test("the page starts from the setting's window and follows its changes", async () => {
  const p = await openPanel(browser.context, bundle);
  await p.send({ type: 'window', window: '15m' });
  await p.send({ type: 'keys', report: KEYS, problem: null });
  await p.page.click(`li.key[data-key="${BOARD}"] > button.key-button`);
  assert.deepEqual(
    (await heatAsks(p)).map((m) => m.window),
    ['15m'],
    'the first read is over the setting, not the default 1h',
  );
  await p.page.click('vscode-tab-header[data-tab="heat"]');
  assert.equal(await picker(p), '15m');

  // The setting changes: the picker shows it and the key is read again over it.
  await p.send({ type: 'window', window: '3h' });
  assert.deepEqual(
    (await heatAsks(p)).map((m) => [m.window, m.refresh]),
    [
      ['15m', false],
      ['3h', false],
    ],
  );
  assert.equal(await picker(p), '3h');
  // The same window again asks nothing; a window the setting cannot hold is dropped.
  await p.send({ type: 'window', window: '3h' });
  await p.send({ type: 'window', window: '2h' });
  assert.equal((await heatAsks(p)).length, 2);
  assert.equal(await picker(p), '3h');

  // A reloaded page restores the window it had until the extension says the setting's.
  const saved = await p.state();
  await p.page.close();
  const q = await openPanel(browser.context, bundle, { state: saved });
  await q.send({ type: 'window', window: '15m' });
  assert.deepEqual(
    (await heatAsks(q)).map((m) => m.window),
    ['3h', '15m'],
  );
  await q.page.close();
});

test('an enable answer is shown as text in the status line', async () => {
  const p = await openPanel(browser.context, bundle);
  const message = 'Contributor Insights was not enabled on orders: Table "orders" was not found <b>here</b>.';
  await p.send({ type: 'notice', level: 'error', message });
  const status = p.page.locator('#status');
  assert.equal(await status.textContent(), message);
  assert.equal(await status.locator('b').count(), 0);
  assert.match((await status.getAttribute('class'))!, /error/);
  await p.page.close();
});
