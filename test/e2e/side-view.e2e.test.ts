// End-to-end: the side view (activity bar → ShardLens → Keys & Heat) in a real VS Code
// (code-server + Chromium) with the packaged VSIX, opened before any file, so the click
// activates the extension and the view is resolved while the language server is starting.
// It must list the keys once the server runs without ever saying the server is not running,
// read its key's heat over the workspace's `shardlens.heat.window` (15m, not the default
// 1h), and its "Enable Contributor Insights" must reach the lab and say so as text.
// Screenshots: test-output/e2e-side-view/.
import assert from 'node:assert/strict';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { CreateTableCommand, DescribeContributorInsightsCommand } from '@aws-sdk/client-dynamodb';
import type { FrameLocator, Page } from 'playwright-core';
import { steps, tearDown } from './steps';
import { ROOT } from './vscode';
import { examplesWorkspace, openWorkbench, prepare, type Started } from './workbench';
import { labClient, startLab, stopLab, table, type Lab } from './lab';

const SHOTS = path.join(ROOT, 'test-output', 'e2e-side-view');
const KEY = 'leaderboard · PK = BOARD#global';

const started: Started = {};
let lab: Lab | undefined;
let page: Page;
const run = steps('e2e-side-view', SHOTS, () => page);
const { log, shot, step, explorerRow } = run;
let workspace: string;

/** The view's page: VS Code hosts a webview in an iframe that loads the page in another. */
const view = (): FrameLocator => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

async function insightsStatus(url: string): Promise<string | undefined> {
  const ddb = labClient(url);
  try {
    return (await ddb.send(new DescribeContributorInsightsCommand({ TableName: 'leaderboard' })))
      .ContributorInsightsStatus;
  } finally {
    ddb.destroy();
  }
}

describe('the side view in the activity bar, against the lab', { timeout: 600_000 }, () => {
  before(async () => {
    const vsix = await prepare(SHOTS);
    lab = await startLab();
    log(`lab at ${lab.url} (pid ${lab.child.pid})`);
    // The table, with Contributor Insights off: the view offers to enable it.
    const ddb = labClient(lab.url);
    try {
      await ddb.send(new CreateTableCommand(table('leaderboard')));
    } finally {
      ddb.destroy();
    }
    assert.equal(await insightsStatus(lab.url), 'DISABLED');

    workspace = examplesWorkspace('shardlens-e2e-side-view-', {
      'shardlens.aws.endpoint': lab.url,
      'shardlens.heat.window': '15m',
    });
    page = await openWorkbench(started, { label: 'shardlens-e2e-side-view', vsix, workspace });
    await explorerRow('examples').waitFor(); // the workbench is up; no file is open
  });

  after(async () => {
    await tearDown(run, SHOTS, { ...started, workspace });
    await stopLab(lab);
  });

  it('opened first, the view lists the keys once the server runs and never says it is not running', () =>
    step('keys', async () => {
      // The view container's item in the activity bar (a tab named by its title).
      await page.locator('.activitybar').getByRole('tab', { name: 'ShardLens' }).first().click();
      const key = view().locator(`li.key[data-key="${KEY}"]`);
      const keysView = view().locator('#view-keys');
      const said: string[] = [];
      const deadline = Date.now() + 120_000;
      while (!(await key.isVisible().catch(() => false))) {
        if (Date.now() > deadline) throw new Error(`no keys in the view; it said: ${JSON.stringify(said)}`);
        const text = await keysView.innerText({ timeout: 1_000 }).catch(() => '');
        if (text && !said.includes(text)) said.push(text);
        await sleep(200);
      }
      log(`the view said, before the keys: ${JSON.stringify(said)}`);
      assert.deepEqual(
        said.filter((t) => /not running/.test(t)),
        [],
      );
      await shot('01-keys');
    }));

  it("its key's heat is read over the setting's window (15m)", () =>
    step('window', async () => {
      await view().locator(`li.key[data-key="${KEY}"] > button.key-button`).click();
      await view().locator('vscode-tab-header[data-tab="heat"]').click();
      const picker = view().locator('#view-heat #window');
      await picker.waitFor();
      assert.equal(await picker.evaluate((e) => (e as unknown as { value: string }).value), '15m');
      await shot('02-window');
    }));

  it('"Enable Contributor Insights" reaches the lab and says so in the status line', () =>
    step('enable', async () => {
      const enable = view().locator('#enable-insights');
      await enable.waitFor({ timeout: 90_000 }); // the heat answer says it is off
      await enable.click();
      const status = view().locator('#status');
      await status.filter({ hasText: 'is being enabled on leaderboard' }).waitFor();
      log(`status line: ${await status.innerText()}`);
      assert.match(String(await insightsStatus(lab!.url)), /^(ENABLING|ENABLED)$/);
      await shot('03-enabled');
    }));
});
