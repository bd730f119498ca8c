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
  assert.deepEqual(p.incidents, []);
  await p.page.close();
});
