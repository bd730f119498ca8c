// End-to-end: the side panel in a real VS Code (code-server + Chromium), with the packaged VSIX
// installed. The lab (started here on a loopback port, stopped by PID) holds the leaderboard
// table with Contributor Insights on and traffic written with the real SDK (a hot BOARD#global,
// colder FEED#recent and PLAYER# keys); the workspace's `shardlens.aws.endpoint` points at it.
// "ShardLens: Open Key Heat Panel" opens the panel; inside its webview we select the key
// `leaderboard · PK = BOARD#global`, see its live bars on the heat tab with the hot key first
// and CloudWatch's figures drawn over time, then click one of its call sites and see the
// editor open scores.ts at that line; closed and opened again there, the panel starts on that key.
// Screenshots: test-output/e2e-panel/.
import assert from 'node:assert/strict';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { BatchWriteItemCommand, CreateTableCommand, UpdateContributorInsightsCommand } from '@aws-sdk/client-dynamodb';
import { steps, tearDown } from './steps';
import type { FrameLocator, Page } from 'playwright-core';
import { ROOT } from './vscode';
import { examplesWorkspace, openWorkbench, prepare, type Started } from './workbench';
import {
  READ_UNITS_PER_PARTITION,
  WRITE_UNITS_PER_PARTITION,
  formatUnits,
} from '../../server/src/engine/requests/capacity';
import { labClient, startLab, stopLab, table, type Lab } from './lab';

const SHOTS = path.join(ROOT, 'test-output', 'e2e-panel');
/** Writes sent to BOARD#global: three times what the lab's 100 WCU partition takes in a second. */
const BOARD_WRITES = 300;
const KEY = 'leaderboard · PK = BOARD#global';
/** The key's second call site in `shardlens keys examples` (scores.ts:30:19): not where any editor starts. */
const SITE = { file: 'examples/leaderboard/src/scores.ts', line: 30, column: 19, text: 'PK: `BOARD#global#${shard}`' };

const started: Started = {};
let lab: Lab | undefined;
let page: Page;
const run = steps('e2e-panel', SHOTS, () => page);
const { log, shot, step, explorerRow, statusItem } = run;
let workspace: string;
let sent: Record<string, number> = {};

/** The page inside the panel: VS Code hosts a webview in an iframe that loads the page in another. */
const panel = (): FrameLocator => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

/** Writes `n` small items under one partition key; returns how many the lab accepted (the rest throttled). */
async function write(url: string, pk: string, n: number): Promise<number> {
  const ddb = labClient(url);
  try {
    let accepted = 0;
    for (let i = 0; i < n; i += 25) {
      const items = Array.from({ length: Math.min(25, n - i) }, (_, j) => ({
        PutRequest: { Item: { PK: { S: pk }, SK: { S: `SCORE#${i + j}` } } },
      }));
      const r = await ddb
        .send(new BatchWriteItemCommand({ RequestItems: { leaderboard: items } }))
        .catch(() => ({ UnprocessedItems: { leaderboard: items } }));
      accepted += items.length - (r.UnprocessedItems?.leaderboard?.length ?? 0);
    }
    return accepted;
  } finally {
    ddb.destroy();
  }
}

/** The leaderboard table with Contributor Insights on, and traffic where BOARD#global is the hottest key. */
async function driveTraffic(url: string): Promise<Record<string, number>> {
  const ddb = labClient(url);
  try {
    await ddb.send(new CreateTableCommand(table('leaderboard')));
    await ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'leaderboard', ContributorInsightsAction: 'ENABLE' }),
    );
  } finally {
    ddb.destroy();
  }
  await sleep(500);
  const out: Record<string, number> = {};
  out['BOARD#global'] = await write(url, 'BOARD#global', BOARD_WRITES);
  out['FEED#recent'] = await write(url, 'FEED#recent', 40);
  for (let p = 1; p <= 3; p++) out[`PLAYER#${p}`] = await write(url, `PLAYER#${p}`, 10);
  await sleep(1200); // the last one-second period closes
  return out;
}

describe('the side panel in a real VS Code, against the lab', { timeout: 600_000 }, () => {
  before(async () => {
    const vsix = await prepare(SHOTS);
    lab = await startLab();
    log(`lab at ${lab.url} (pid ${lab.child.pid})`);
    // Traffic first: the server's first refresh, right after indexing, already sees it.
    sent = await driveTraffic(lab.url);
    log(`traffic accepted: ${JSON.stringify(sent)}`);
    assert.ok(sent['BOARD#global'] > sent['FEED#recent'] && sent['FEED#recent'] > 0, JSON.stringify(sent));

    workspace = examplesWorkspace('shardlens-e2e-panel-', {
      'shardlens.aws.endpoint': lab.url,
      'shardlens.heat.window': '15m',
    });
    page = await openWorkbench(started, { label: 'shardlens-e2e-panel', vsix, workspace });
    // Another file of the project activates the extension; scores.ts stays closed until the reveal.
    for (const row of ['examples', 'leaderboard', 'src', 'top-players.ts']) {
      await explorerRow(row).waitFor();
      await explorerRow(row).click();
    }
    // The examples' 14 findings (indexing is done), or 16 once the live heat has been read: the
    // lab throttled keys of the examples, and any throttle is now an SL009 (2 here).
    await statusItem()
      .filter({ hasText: /ShardLens: 1[46]\b/ })
      .waitFor();
    log(`extension active: ${await statusItem().innerText()}`);
  });

  after(async () => {
    await tearDown(run, SHOTS, { ...started, workspace });
    await stopLab(lab);
  });

  it('"Open Key Heat Panel" lists the tables and keys; selecting BOARD#global shows its call sites', () =>
    step('keys', async () => {
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input.input').waitFor();
      await page.keyboard.type('ShardLens: Open Key Heat Panel');
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Open Key Heat Panel' }).first().waitFor();
      await page.keyboard.press('Enter');

      const key = panel().locator(`li.key[data-key="${KEY}"]`);
      await key.waitFor(); // the keys report arrived from the language server
      const tables = await panel().locator('details.table > summary').allInnerTexts();
      assert.ok(tables.includes('table leaderboard'), JSON.stringify(tables));
      await key.locator('> button.key-button').click();
      await key.locator('button.site').first().waitFor();
      const sites = await key.locator('button.site .where').allInnerTexts();
      assert.deepEqual(
        sites,
        [19, 30, 46].map((l) => `${SITE.file}:${l}`),
      );
      assert.equal(await key.locator('> button.key-button').getAttribute('aria-pressed'), 'true');
      await shot('01-keys');
      log(`panel open; ${KEY} selected, sites ${JSON.stringify(sites)}`);
    }));

  it('the heat tab shows the live bars of the selected key, the hot key first', () =>
    step('heat', async () => {
      await panel().locator('vscode-tab-header[data-tab="heat"]').click();
      // The heat view's first bar chart: the key's top contributors (the Partitions tab has its own).
      const heat = panel().locator('#view-heat');
      const contributors = heat.locator('figure.bars').first();
      const bars = contributors.locator('li');
      // The server's first refresh may still be under way: press the panel's refresh, bounded.
      const deadline = Date.now() + 90_000;
      while (!(await bars.first().isVisible())) {
        if (Date.now() > deadline) throw new Error('no live bars on the heat tab');
        const refresh = heat.locator('#heat-refresh');
        if (await refresh.isVisible()) await refresh.click().catch(() => undefined);
        await bars
          .first()
          .waitFor({ timeout: 5_000 })
          .catch(() => undefined);
      }
      assert.equal(await contributors.locator('figcaption').innerText(), 'Most accessed live keys');
      const labels = await bars.locator('.bar-label').allInnerTexts();
      const values = await bars.locator('.bar-value').allInnerTexts();
      log(`bars: ${JSON.stringify(labels)} ${JSON.stringify(values)}`);
      assert.equal(labels[0], 'BOARD#global');
      const summary = await heat.locator('p.summary').innerText();
      log(`summary: ${summary}`);
      // The hottest key of the table. Contributor Insights counts consumed throughput units, in
      // which a write unit weighs 3 (a partition's 3,000 read units = its 1,000 write units): the
      // bar is the accepted writes × 3, and every write the lab refused is a throttle.
      const units = sent['BOARD#global'] * (READ_UNITS_PER_PARTITION / WRITE_UNITS_PER_PARTITION);
      assert.equal(Number(values[0].replace(/,/g, '')), units);
      const throttles = BOARD_WRITES - sent['BOARD#global'];
      assert.ok(throttles > 0, 'the hot key was meant to throttle');
      assert.match(
        summary,
        new RegExp(`^#1 on the table · ${formatUnits(units)} units .* · ${formatUnits(throttles)} throttles$`),
      );
      // CloudWatch's figures over the window as time series (uPlot), not the window's sums.
      const charts = heat.locator('figure.series');
      await charts.first().waitFor();
      assert.deepEqual(await charts.locator('figcaption').allInnerTexts(), [
        'Consumed capacity (units per period)',
        'Throttle events per reason',
      ]);
      const legend = await charts.locator('.u-legend .u-label').allInnerTexts();
      assert.ok(legend.includes('write') && legend.includes('WriteKeyRangeThroughput'), legend.join());
      assert.equal(await heat.locator('dl.metrics').count(), 0);
      await shot('02-heat');
      await run.readmeShot('panel-heat');
    }));

  it('clicking a call site reveals that file and line in the editor', () =>
    step('reveal', async () => {
      await panel().locator('vscode-tab-header[data-tab="keys"]').click();
      const site = panel()
        .locator(`li.key[data-key="${KEY}"] button.site`)
        .filter({ hasText: `${SITE.file}:${SITE.line}` });
      await site.click();
      await page.locator('.tabs-container .tab.active', { hasText: 'scores.ts' }).waitFor();
      await page
        .locator('[id="status.editor.selection"]', { hasText: `Ln ${SITE.line}, Col ${SITE.column}` })
        .waitFor();
      await page.locator('.monaco-editor .view-line', { hasText: SITE.text }).first().waitFor();
      await shot('03-revealed');
      log(`scores.ts revealed at Ln ${SITE.line}, Col ${SITE.column}`);
    }));

  it('opened again with the cursor resting on a key, the panel starts on that key', () =>
    step('cursor-on-open', async () => {
      // The reveal left the cursor on BOARD#global's call site; no selection event comes
      // while the panel is closed and opened again, and none after.
      const tab = page.locator('.tabs-container .tab', { hasText: 'ShardLens' });
      await tab.click();
      await tab.locator('.action-label.codicon-close').click();
      await page.locator('iframe.webview.ready').waitFor({ state: 'detached' });
      await page
        .locator('[id="status.editor.selection"]', { hasText: `Ln ${SITE.line}, Col ${SITE.column}` })
        .waitFor();
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input.input').waitFor();
      await page.keyboard.type('ShardLens: Open Key Heat Panel');
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Open Key Heat Panel' }).first().waitFor();
      await page.keyboard.press('Enter');
      const button = panel().locator(`li.key[data-key="${KEY}"] > button.key-button`);
      await button.waitFor();
      await panel()
        .locator(`li.key[data-key="${KEY}"] > button.key-button[aria-pressed="true"]`)
        .waitFor({ timeout: 15_000 });
      await shot('04-cursor-on-open');
      log(`reopened on ${KEY}`);
    }));
});
