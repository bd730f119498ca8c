// End-to-end: the quick fixes and live heat in a real VS Code (code-server + Chromium), with
// the packaged VSIX installed. On a copy of examples/: Ctrl+. on the constant 'BOARD#global'
// key → "Add a random write-shard suffix" → the key rewritten, the SL001 gone, one undo
// restores the file byte for byte; then "Generate the scatter-gather reader…" through its
// real quick pick. Then the lab (started here on a loopback port, stopped by PID) gets
// traffic from the real SDK, the endpoint is chosen from the connection status bar item,
// and the hover's live line and the code lens appear. Screenshots: test-output/e2e-fixes/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DescribeContributorInsightsCommand,
  UpdateContributorInsightsCommand,
} from '@aws-sdk/client-dynamodb';
import { steps, tearDown } from './steps';
import type { Page } from 'playwright-core';
import { ROOT } from './vscode';
import {
  UI_TIMEOUT,
  chooseAction,
  examplesWorkspace,
  hoverUntilShown,
  openWorkbench,
  prepare,
  quickFixMenu as quickFixMenuOf,
  type Started,
} from './workbench';
import { labClient, startLab, stopLab, table, type Lab } from './lab';

const SHOTS = path.join(ROOT, 'test-output', 'e2e-fixes');
const SCORES = path.join('leaderboard', 'src', 'scores.ts');
const RANDOM_FIX = 'Add a random write-shard suffix (10 shards, BOARD_SHARDS)';
const FIXED_KEY = 'PK: `BOARD#global#${Math.floor(Math.random() * BOARD_SHARDS)}`';

const started: Started = {};
let lab: Lab | undefined;
let page: Page;
const run = steps('e2e-fixes', SHOTS, () => page);
const { log, shot, step, explorerRow, statusItem } = run;
let workspace: string;
let original: string;

const connectionItem = () => page.locator('[id="shardlens.shardlens.shardlens.connection"]');
const viewLine = (text: string) => page.locator('.monaco-editor .view-line', { hasText: text }).first();
const token = (text: string) => page.locator('.monaco-editor .view-line span span', { hasText: text }).first();
const onDisk = () => readFileSync(path.join(workspace, SCORES), 'utf8');

/** Polls a condition on this side (the file on disk) until it holds. */
async function until(what: string, check: () => boolean, ms = UI_TIMEOUT): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** The table scores.ts uses, Contributor Insights on, and traffic: a hot FEED#recent, a sharded board. */
async function driveTraffic(url: string): Promise<{ feed: number; board: number }> {
  const ddb = labClient(url);
  try {
    await ddb.send(new CreateTableCommand(table('leaderboard')));
    await ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'leaderboard', ContributorInsightsAction: 'ENABLE' }),
    );
    await sleep(500);
    const write = async (pk: string, n: number) => {
      let accepted = 0;
      for (let i = 0; i < n; i += 25) {
        const items = Array.from({ length: Math.min(25, n - i) }, (_, j) => ({
          PutRequest: { Item: { PK: { S: pk }, SK: { S: `ACT#${i + j}` } } },
        }));
        const r = await ddb
          .send(new BatchWriteItemCommand({ RequestItems: { leaderboard: items } }))
          .catch(() => ({ UnprocessedItems: { leaderboard: items } }));
        accepted += items.length - (r.UnprocessedItems?.leaderboard?.length ?? 0);
      }
      return accepted;
    };
    const feed = await write('FEED#recent', 400);
    let board = 0;
    for (let shard = 0; shard < 10; shard++) board += await write(`BOARD#global#${shard}`, 10);
    await sleep(1200); // the last one-second period closes
    return { feed, board };
  } finally {
    ddb.destroy();
  }
}

const quickFixMenu = (title: string) => quickFixMenuOf(page, title, log);
const choose = (menu: ReturnType<Page['locator']>, title: string) => chooseAction(page, menu, title);

describe('quick fixes and live heat in a real VS Code', { timeout: 600_000 }, () => {
  before(async () => {
    const vsix = await prepare(SHOTS);
    workspace = examplesWorkspace('shardlens-e2e-fixes-', { 'shardlens.heat.window': '15m' }, '.');
    original = onDisk();

    lab = await startLab();
    log(`lab at ${lab.url} (pid ${lab.child.pid})`);
    page = await openWorkbench(started, { label: 'shardlens-e2e-fixes', vsix, workspace });
    await explorerRow('leaderboard').waitFor();
    await explorerRow('leaderboard').click();
    await explorerRow('src').click();
    await explorerRow('scores.ts').click();
    await viewLine('BOARD#global').waitFor();
    await statusItem().filter({ hasText: 'ShardLens: 14' }).waitFor();
    log('scores.ts open, 14 findings');
  });

  after(async () => {
    await tearDown(run, SHOTS, { ...started, workspace });
    await stopLab(lab);
  });

  it('"Add a random write-shard suffix" from the quick-fix menu rewrites the key; one undo restores the file exactly', () =>
    step('random-shard', async () => {
      await token("'BOARD#global'").click();
      await page.keyboard.press('Escape');
      const menu = await quickFixMenu(RANDOM_FIX);
      await shot('01-fix-menu');
      await run.readmeShot('quick-fix', page.locator('.part.editor'));
      await choose(menu, RANDOM_FIX);
      await viewLine(FIXED_KEY).waitFor();
      await statusItem().filter({ hasText: 'ShardLens: 13' }).waitFor(); // the SL001 on line 19 is gone
      await shot('02-fixed');
      await page.keyboard.press('Control+S');
      const fixed = original.replace("PK: 'BOARD#global'", FIXED_KEY);
      await until('the fixed text on disk', () => onDisk() === fixed);
      log('fix applied and saved; 13 findings');

      await page.keyboard.press('Control+Z');
      await viewLine("PK: 'BOARD#global'").waitFor();
      await page.keyboard.press('Control+S');
      await until('the original text on disk after one undo', () => onDisk() === original);
      await statusItem().filter({ hasText: 'ShardLens: 14' }).waitFor();
      await shot('03-undone');
      log('one undo restored the file byte for byte; 14 findings');
    }));

  it('"Generate the scatter-gather reader…" asks where in a quick pick and writes the reader beside the writer', () =>
    step('reader', async () => {
      await page.keyboard.press('Control+Shift+Z'); // redo: the writer is sharded again
      await viewLine(FIXED_KEY).waitFor();
      const title = 'Generate the scatter-gather reader queryBoardGlobalShards() for leaderboard · PK = BOARD#global…';
      const menu = await quickFixMenu(title);
      await choose(menu, title);
      const pick = page.locator('.quick-input-widget');
      await pick.locator('.monaco-list-row', { hasText: 'Beside the writer' }).waitFor();
      await shot('04-reader-pick');
      assert.match(await pick.innerText(), /In a new file…/);
      await page.keyboard.press('Enter'); // the first row: beside the writer
      await viewLine('async function queryBoardGlobalShards(').waitFor();
      await page.keyboard.press('Control+S');
      await until('the reader on disk', () => /async function queryBoardGlobalShards\(/.test(onDisk()));
      assert.match(onDisk(), /Promise\.all\(/);
      await shot('05-reader');
      log('reader generated and revealed');
    }));

  it('with the lab endpoint chosen in the status bar, the hover shows the live line and a code lens appears', () =>
    step('heat', async () => {
      const sent = await driveTraffic(lab!.url);
      log(`traffic: ${sent.feed} FEED#recent writes, ${sent.board} over BOARD#global's 10 shards`);
      assert.ok(sent.feed > 0 && sent.board === 100, JSON.stringify(sent));

      await connectionItem().click();
      const pick = page.locator('.quick-input-widget');
      await pick.locator('.monaco-list-row', { hasText: 'Another endpoint URL' }).waitFor();
      await shot('06-connection-pick');
      await page.keyboard.type('Another endpoint');
      await page.keyboard.press('Enter');
      const box = pick.locator('input.input');
      await box.waitFor();
      await box.fill(lab!.url);
      await page.keyboard.press('Enter');
      await connectionItem().filter({ hasText: 'ShardLens: lab' }).waitFor();
      log('connection: lab');

      // The feed's writer is below the reader now: go to its line as a user would (Ctrl+G).
      const feedLine =
        onDisk()
          .split('\n')
          .findIndex((l) => l.includes("PK: 'FEED#recent'")) + 1;
      assert.ok(feedLine > 0);
      await page.keyboard.press('Control+G');
      await page.locator('.quick-input-widget input.input').waitFor();
      await page.keyboard.type(String(feedLine));
      await page.keyboard.press('Enter');
      // The first refresh may still be under way when the pointer arrives: point again, as a
      // user would, until the hover carries the live line (bounded).
      const hover = page.locator('.monaco-hover .markdown-hover', { hasText: 'Live (15m)' }).first();
      await hoverUntilShown(page, () => token("'FEED#recent'"), hover, 'live line in the hover of FEED#recent');
      const text = await hover.innerText();
      // The writer's hover: what writes did (its readers show their own figures).
      assert.match(text, /Live \(15m\), writes: #1 of \d+ keys · \d+% of consumed units/);
      log(`hover: ${/Live \(15m\)[^\n]*/.exec(text)?.[0]}`);
      await shot('07-live-hover');
      await page.mouse.move(150, 600);
      await page.keyboard.press('Escape');

      // The lens above the feed's writer (the line before it): the hot key, with its throttles.
      // Visible lenses only: the one above the sharded board writer is scrolled out of view.
      const lens = page.locator('.monaco-editor .codelens-decoration:visible', { hasText: /of table traffic/ });
      await lens.first().waitFor();
      const lenses = await lens.allInnerTexts();
      for (const l of lenses)
        assert.match(l, /^(writes|reads): \d+% of table traffic · [\d,]+ throttles?( · .+)? \(15m\)$/);
      assert.ok(
        lenses.some((l) => !/ 0 throttles/.test(l)),
        `no lens with throttles: ${JSON.stringify(lenses)}`,
      );
      await connectionItem().hover();
      await page.locator('.monaco-hover, .workbench-hover', { hasText: 'live heat' }).first().waitFor();
      await shot('08-code-lens');
      log(`code lenses: ${JSON.stringify(lenses)}`);
    }));

  it('the connection pick enables Contributor Insights on a table the code uses, in the mode chosen', () =>
    step('insights', async () => {
      // The event-log example's table, created without Contributor Insights.
      const ddb = labClient(lab!.url);
      const mode = () =>
        ddb
          .send(new DescribeContributorInsightsCommand({ TableName: 'events' }))
          .then((r) => `${r.ContributorInsightsStatus} ${r.ContributorInsightsMode ?? ''}`.trim());
      try {
        await ddb.send(new CreateTableCommand(table('events')));
        assert.equal(await mode(), 'DISABLED');
        await connectionItem().click();
        const pick = page.locator('.quick-input-widget');
        await pick.locator('.monaco-list-row', { hasText: 'Enable Contributor Insights' }).waitFor();
        await page.keyboard.type('Enable Contributor Insights');
        await page.keyboard.press('Enter');
        // The tables the server read; filter to "events" and take exactly that row.
        await pick.locator('.monaco-list-row', { hasText: 'user-events' }).waitFor();
        await page.keyboard.type('events');
        const focused = pick.locator('.monaco-list-row.focused');
        for (let i = 0; i < 5 && (await focused.getAttribute('aria-label')) !== 'events'; i++) {
          await page.keyboard.press('ArrowDown');
        }
        assert.equal(await focused.getAttribute('aria-label'), 'events');
        await page.keyboard.press('Enter');
        await pick.locator('.monaco-list-row', { hasText: 'the cheap always-on choice' }).waitFor();
        await shot('09-insights-mode');
        await page.keyboard.type('Throttled keys only');
        await page.keyboard.press('Enter');
        await page
          .locator('.notifications-toasts', {
            hasText: 'Contributor Insights (THROTTLED_KEYS) is being enabled on events',
          })
          .waitFor();
        const end = Date.now() + 10_000;
        let seen = await mode();
        while (!/^ENABL(ED|ING) THROTTLED_KEYS$/.test(seen) && Date.now() < end) {
          await sleep(100);
          seen = await mode();
        }
        assert.match(seen, /^ENABL(ED|ING) THROTTLED_KEYS$/);
        await shot('10-insights-enabled');
        log(`Contributor Insights on events: ${seen}`);
      } finally {
        ddb.destroy();
      }
    }));
});
