// End-to-end: the packaged VSIX installed into a real VS Code (code-server 4.100.3 = VS Code
// 1.100.3), a copy of examples/ opened in Chromium, and assertions on what a user sees.
// Screenshots go to test-output/e2e/. See docs/testing.md.
//
//   npm run test:e2e                         (packages dist/shardlens.vsix first)
//   SHARDLENS_VSIX=/path/x.vsix npm run test:e2e   (test a VSIX built elsewhere)
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { steps, tearDown } from './steps';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  ROOT,
  ensureCodeServer,
  installVsix,
  launchChromium,
  makeStateDir,
  packageVsix,
  sizeKb,
  startCodeServer,
  type CodeServer,
} from './vscode';

const SHOTS = path.join(ROOT, 'test-output', 'e2e');
const SL001_MESSAGE =
  'Partition key "BOARD#global" on table "leaderboard" is a constant: all writes of it hit one partition';
const UI_TIMEOUT = 60_000;

let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;
const run = steps('e2e', SHOTS, () => page);
const { log, shot, step, explorerRow, statusItem } = run;
let workspace: string;

const boardToken = () => page.locator('.monaco-editor .view-line span span', { hasText: "'BOARD#global'" }).first();
const problemsBadge = () => page.locator('.badge[aria-label^="Problems"] .badge-content');

describe('ShardLens in a real VS Code (code-server + Chromium)', { timeout: 900_000 }, () => {
  before(async () => {
    await ensureCodeServer();
    log('code-server ready');
    const vsix = process.env.SHARDLENS_VSIX ? path.resolve(process.env.SHARDLENS_VSIX) : packageVsix();
    log(`VSIX ${path.relative(ROOT, vsix) || vsix} (${sizeKb(vsix)} KB)`);

    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    workspace = mkdtempSync(path.join(os.tmpdir(), 'shardlens-e2e-ws-'));
    cpSync(path.join(ROOT, 'examples'), workspace, { recursive: true });

    const stateDir = makeStateDir('shardlens-e2e-');
    installVsix(vsix, path.join(stateDir, 'ext'), path.join(stateDir, 'ud'));
    log('VSIX installed');
    server = await startCodeServer({
      stateDir,
      // The examples have no node_modules, so TypeScript would add "Cannot find module" errors of
      // its own to the Problems view; turn its validation off to count ShardLens's findings only.
      settings: { 'typescript.validate.enable': false, 'javascript.validate.enable': false },
    });
    log(`code-server at ${server.baseUrl}`);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.setDefaultTimeout(UI_TIMEOUT);
    await page.goto(server.workbenchUrl(workspace));
    await page.waitForSelector('.monaco-workbench');
    await explorerRow('leaderboard').waitFor();
    log('workbench loaded');

    // Open leaderboard/src/scores.ts from the explorer, as a user would; this activates the extension.
    await explorerRow('leaderboard').click();
    await explorerRow('src').click();
    await explorerRow('scores.ts').click();
    await page.locator('.monaco-editor .view-line', { hasText: 'BOARD#global' }).first().waitFor();
    log('scores.ts open');
  });

  after(async () => {
    await tearDown(run, SHOTS, { browser, server, workspace });
    log(`done; screenshots in ${path.relative(ROOT, SHOTS)}/`);
  });

  it('(d) the status bar shows "ShardLens: 14" with the counts in its tooltip', () =>
    step('status-bar', async () => {
      const item = statusItem();
      await item.filter({ hasText: 'ShardLens: 14' }).waitFor();
      log('status bar: ShardLens: 14');
      assert.equal((await item.innerText()).trim(), 'ShardLens: 14');
      assert.equal(await item.locator('.codicon-warning').count(), 1, 'the $(warning) icon');
      const label = (await item.getAttribute('aria-label')) ?? '';
      assert.match(label, /5 errors · 7 warnings · 2 info/, `tooltip: ${label}`);
      // Show the tooltip as a user would, by pointing at the item.
      await item.hover();
      await page.locator('.monaco-hover, .workbench-hover', { hasText: '5 errors' }).first().waitFor();
      await shot('01-status-bar');
      await page.mouse.move(150, 600);
    }));

  it('(a) clicking the status bar item opens the Problems view with the 14 ShardLens findings', () =>
    step('problems', async () => {
      await statusItem().click();
      await page.locator('.markers-panel .monaco-list-row').first().waitFor();
      await problemsBadge().filter({ hasText: /^14$/ }).waitFor();
      const problems = await page.locator('[id="status.problems"]').getAttribute('aria-label');
      assert.equal(problems, 'Errors: 5, Warnings: 7, Infos: 2');

      const row = page.locator('.markers-panel .monaco-list-row', { hasText: SL001_MESSAGE });
      if ((await row.count()) === 0) {
        // The list is virtualised: narrow it to the row we want.
        await page
          .locator('.markers-panel-container, .panel')
          .locator('input[aria-label="Filter Problems"]')
          .fill('BOARD#global');
      }
      await row.first().waitFor();
      const text = await row.first().innerText();
      assert.match(text, /shardlens/);
      assert.match(text, /SL001/);
      assert.match(text, /\[Ln 19, Col 19\]/);
      const aria = (await row.first().getAttribute('aria-label')) ?? '';
      assert.match(aria, /^Error: /, aria);
      assert.match(aria, /generated by shardlens$/, aria);
      const scoresGroup = page.locator('.markers-panel .monaco-list-row', { hasText: 'scores.ts' }).first();
      assert.match((await scoresGroup.getAttribute('aria-label')) ?? '', /4 problems in file scores\.ts/);
      await shot('02-problems');
      const markerRows = await page
        .locator('.markers-panel .monaco-list-row[aria-label$="generated by shardlens"]')
        .allInnerTexts();
      log(`Problems view: badge 14, ${markerRows.length} ShardLens rows rendered`);
    }));

  it("(b) hovering 'BOARD#global' shows the ShardLens hover", () =>
    step('hover', async () => {
      await boardToken().hover();
      const md = page.locator('.monaco-hover .markdown-hover', { hasText: 'ShardLens' }).first();
      await md.waitFor();
      const text = await md.innerText();
      assert.ok(text.startsWith('ShardLens'), `hover starts with: ${text.slice(0, 80)}`);
      assert.equal(
        await md.locator('p').first().locator('strong').first().innerText(),
        'ShardLens',
        'bold **ShardLens**',
      );
      assert.match(text, /BOARD#global/);
      assert.match(text, /1,000 WCU\/s/);
      log('hover shown');
      await shot('03-hover');
      await run.readmeShot('hover', page.locator('.part.editor'));
      await page.mouse.move(150, 600); // an empty part of the explorer: no hover there
      await page.keyboard.press('Escape');
    }));

  it('(c) Ctrl+. on line 19 lists "Ignore SL001 on this line", and choosing it inserts the comment', () =>
    step('quick-fix', async () => {
      await boardToken().click(); // the cursor on line 19, inside the finding
      await page.mouse.move(150, 600); // an empty part of the explorer: no hover there
      await page.keyboard.press('Escape');
      await page.locator('.monaco-hover').first().waitFor({ state: 'hidden' });
      const menu = await openQuickFixMenu();
      const rows = await menu.locator('.monaco-list-row.action').allInnerTexts();
      assert.ok(rows.includes('Ignore SL001 on this line'), `quick fixes: ${JSON.stringify(rows)}`);
      assert.ok(rows.includes('Open documentation for SL001'), `quick fixes: ${JSON.stringify(rows)}`);
      log(`quick-fix menu: ${rows.slice(0, 3).join(' | ')} ...`);
      await shot('04-quick-fix');

      // Choose it with the keyboard (the menu is a list; the pointer is blocked by an overlay).
      const focused = menu.locator('.monaco-list-row.action.focused');
      for (let i = 0; i < rows.length && (await focused.innerText()) !== 'Ignore SL001 on this line'; i++) {
        await page.keyboard.press('ArrowDown');
      }
      assert.equal(await focused.innerText(), 'Ignore SL001 on this line');
      await page.keyboard.press('Enter');
      await page.locator('.monaco-editor .view-line', { hasText: '// shardlens-ignore SL001' }).waitFor();
      await problemsBadge().filter({ hasText: /^13$/ }).waitFor();
      await statusItem().filter({ hasText: 'ShardLens: 13' }).waitFor();
      await page.locator('.markers-panel .monaco-list-row[aria-label^="3 problems in file scores.ts"]').waitFor();
      assert.equal(await page.locator('.markers-panel .monaco-list-row', { hasText: SL001_MESSAGE }).count(), 0);
      log('ignore comment inserted; 13 findings left');
      await shot('05-after-ignore');
    }));

  it('(e) the walkthrough opens from "Welcome: Open Walkthrough...", renders its three steps, and a step ticks when its command runs', () =>
    step('walkthrough', async () => {
      await page.keyboard.press('Escape');
      // The Problems view from (a) closes, so the walkthrough has the editor area to itself.
      if (await page.locator('.part.panel').isVisible()) {
        await page.keyboard.press('Control+J');
        await page.locator('.part.panel').waitFor({ state: 'hidden' });
      }
      // workbench.action.openWalkthrough, from the command palette as a user runs it; it asks
      // which walkthrough in a second pick.
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input.input');
      await input.waitFor();
      await input.fill('>Welcome: Open Walkthrough');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Open Walkthrough' }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with ShardLens' }).waitFor();
      await input.fill('Get Started with ShardLens');
      await page.keyboard.press('Enter');

      const walkthrough = page.locator('.gettingStartedContainer');
      const stepButton = (title: string) => walkthrough.locator('.getting-started-step', { hasText: title }).first();
      for (const title of ['See the findings', 'Apply a fix', 'Start the lab and watch live heat'])
        await stepButton(title).waitFor();
      await walkthrough.locator('.category-title', { hasText: 'Get Started with ShardLens' }).first().waitFor();
      // The first step is open: its page (markdown media, in a webview) is shown beside it.
      const media = page.frameLocator('iframe.webview.ready').first().frameLocator('#active-frame');
      await media.locator('h1', { hasText: 'See the findings' }).waitFor();
      assert.match(await media.locator('body').innerText(), /1,000 write units/);
      // A step's checkbox is a circle until its completion event fires, then a filled tick.
      const ticked = (title: string) => stepButton(title).locator('.codicon.complete');
      assert.equal(await ticked('See the findings').count(), 0);
      await shot('06-walkthrough');
      await run.readmeShot('walkthrough');

      // The step's button runs shardlens.checkWorkspace; its completion event ticks the step.
      await stepButton('See the findings').locator('.monaco-button', { hasText: 'Check the Workspace' }).click();
      await ticked('See the findings').waitFor();
      assert.equal(await ticked('Apply a fix').count(), 0);
      log('walkthrough: three steps shown; "See the findings" ticked by Check the Workspace');
      await shot('07-walkthrough-ticked');
    }));
});

/**
 * Presses Ctrl+. until the code action menu lists ShardLens's fix. Right after the window opens
 * another provider (TypeScript's, still loading its project) can make the first request come
 * back empty ("No code actions available"); a user would press again, and so do we.
 */
async function openQuickFixMenu(): Promise<Locator> {
  const menu = page.locator('.action-widget');
  const deadline = Date.now() + UI_TIMEOUT;
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+.');
    const outcome = await Promise.race([
      menu
        .locator('.monaco-list-row.action', { hasText: 'Ignore SL001' })
        .first()
        .waitFor({ timeout: 20_000 })
        .then(() => 'menu'),
      page
        .locator('.monaco-editor-overlaymessage', { hasText: /No (code actions|quick fixes) available/ })
        .first()
        .waitFor({ timeout: 20_000 })
        .then(() => 'none'),
    ]).catch(() => 'timeout');
    if (outcome === 'menu') return menu;
    if (Date.now() > deadline) throw new Error(`no quick-fix menu after ${attempt} Ctrl+. presses (last: ${outcome})`);
    log(`Ctrl+. attempt ${attempt}: ${outcome}; pressing again`);
    await page.keyboard.press('Escape');
    await page
      .locator('.monaco-editor-overlaymessage')
      .first()
      .waitFor({ state: 'hidden' })
      .catch(() => undefined);
    await page
      .locator('.action-widget')
      .first()
      .waitFor({ state: 'hidden' })
      .catch(() => undefined);
  }
}
