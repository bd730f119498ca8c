import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  ROOT,
  ensureCodeServer,
  installVsix,
  launchChromium,
  makeStateDir,
  packageVsix,
  startCodeServer,
  type CodeServer,
} from './vscode';

/** How long a step waits for the workbench by default (code-server on a busy two-core machine). */
export const UI_TIMEOUT = 60_000;

/**
 * What an end-to-end test has started, filled in as each part comes up, so that its
 * teardown stops what did start when a later part failed.
 */
export interface Started {
  server?: CodeServer;
  browser?: Browser;
}

/**
 * Before the first step of every end-to-end file: code-server installed (once per machine),
 * the VSIX to test (SHARDLENS_VSIX, else packaged from this tree), and an empty screenshot
 * folder. Returns the VSIX's path.
 */
export async function prepare(shots: string): Promise<string> {
  await ensureCodeServer();
  const vsix = process.env.SHARDLENS_VSIX ? path.resolve(process.env.SHARDLENS_VSIX) : packageVsix();
  rmSync(shots, { recursive: true, force: true });
  mkdirSync(shots, { recursive: true });
  return vsix;
}

/**
 * A temporary copy of the project's examples/ (in `examples/` of the folder, or as the folder
 * itself with `at: '.'`) with the workspace settings given in `.vscode/settings.json`.
 */
export function examplesWorkspace(
  prefix: string,
  settings: Record<string, unknown> | null,
  at: 'examples' | '.' = 'examples',
): string {
  const workspace = mkdtempSync(path.join(os.tmpdir(), prefix));
  cpSync(path.join(ROOT, 'examples'), at === '.' ? workspace : path.join(workspace, 'examples'), { recursive: true });
  if (settings) {
    mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify(settings));
  }
  return workspace;
}

/**
 * The VSIX installed in a fresh code-server state, the server started, Chromium launched and
 * the workbench opened on `workspace`. TypeScript's own validation is off: the workspaces have
 * no node_modules, so it would add "Cannot find module" errors of its own beside ShardLens's.
 */
export async function openWorkbench(
  started: Started,
  opts: { label: string; vsix: string; workspace: string },
): Promise<Page> {
  const stateDir = makeStateDir(`${opts.label}-`);
  installVsix(opts.vsix, path.join(stateDir, 'ext'), path.join(stateDir, 'ud'));
  started.server = await startCodeServer({
    stateDir,
    settings: { 'typescript.validate.enable': false, 'javascript.validate.enable': false },
  });
  started.browser = await launchChromium();
  const page = await started.browser.newPage({ viewport: { width: 1440, height: 1000 } });
  page.setDefaultTimeout(UI_TIMEOUT);
  await page.goto(started.server.workbenchUrl(opts.workspace));
  return page;
}

/**
 * Points at `target` until `hover` shows, as a user points again when a hover does not come:
 * the workbench drops a hover that arrives while a panel or notification is still settling,
 * and the server's answer may come after the first point. Each try waits `perTry` ms, then
 * moves the pointer away and presses Escape. The error names the hover that did show, if any.
 */
export async function hoverUntilShown(
  page: Page,
  target: () => Locator,
  hover: Locator,
  what: string,
  { total = 90_000, perTry = 8_000 } = {},
): Promise<void> {
  const deadline = Date.now() + total;
  for (;;) {
    await target().hover();
    const shown = await hover
      .waitFor({ timeout: perTry })
      .then(() => true)
      .catch(() => false);
    if (shown) return;
    if (Date.now() > deadline) {
      const seen = await page
        .locator('.monaco-hover')
        .allInnerTexts()
        .catch(() => []);
      throw new Error(`no ${what} (hovers shown: ${JSON.stringify(seen.map((t) => t.slice(0, 120)))})`);
    }
    await page.mouse.move(150, 600); // an empty part of the explorer: no hover there
    await page.keyboard.press('Escape');
  }
}

/** The quick-fix menu at the cursor, pressed again until it lists `title` (the server may still be reading). */
export async function quickFixMenu(page: Page, title: string, log: (line: string) => void): Promise<Locator> {
  const menu = page.locator('.action-widget');
  const deadline = Date.now() + UI_TIMEOUT;
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+.');
    const ok = await menu
      .locator('.monaco-list-row.action', { hasText: title })
      .first()
      .waitFor({ timeout: 15_000 })
      .then(() => true)
      .catch(() => false);
    if (ok) return menu;
    if (Date.now() > deadline) throw new Error(`no "${title}" in the quick-fix menu after ${attempt} tries`);
    log(`Ctrl+. attempt ${attempt}: no "${title}" yet; pressing again`);
    await page.keyboard.press('Escape');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Moves the menu's focus to the row whose text is `title` (the menu is keyboard-driven) and takes it. */
export async function chooseAction(page: Page, menu: Locator, title: string): Promise<void> {
  const rows = await menu.locator('.monaco-list-row.action').allInnerTexts();
  const focused = menu.locator('.monaco-list-row.action.focused');
  for (let i = 0; i <= rows.length && (await focused.innerText()) !== title; i++)
    await page.keyboard.press('ArrowDown');
  if ((await focused.innerText()) !== title) throw new Error(`no row "${title}" to choose: ${JSON.stringify(rows)}`);
  await page.keyboard.press('Enter');
}

/** The editor's line that shows `text`. */
export const viewLine = (page: Page, text: string): Locator =>
  page.locator('.monaco-editor .view-line', { hasText: text }).first();

/** The token `text` on the editor's line that shows `line`. */
export const tokenOn = (page: Page, line: string, text: string): Locator =>
  viewLine(page, line).locator('span span', { hasText: text }).first();

/** Brings the editor's line `line` (one-based) into view with Ctrl+G. */
export async function goToLine(page: Page, line: number): Promise<void> {
  await page.keyboard.press('Control+G');
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
}

/** Waits until the file on disk matches `pattern` (a save went through); its text. */
export async function untilOnDisk(file: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    const text = readFileSync(file, 'utf8');
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`${file} on disk does not match ${pattern}:\n${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
