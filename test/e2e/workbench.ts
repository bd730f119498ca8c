import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
