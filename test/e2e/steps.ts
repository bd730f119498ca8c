import { cpSync, mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import type { CodeServer } from './vscode';

/**
 * What every end-to-end test in a real VS Code does around its steps: a timed log, a
 * screenshot per step into its own folder, a screenshot of the page when a step fails
 * (and a flag the test's teardown reads to keep the server log), and the workbench
 * elements every test looks at.
 */
export interface Steps {
  log(msg: string): void;
  shot(name: string): Promise<void>;
  /**
   * With SHARDLENS_README_SHOTS=1, also saves the page as docs/images/<name>.png: the pictures
   * the README shows are taken by this run. `area` crops to an element.
   */
  readmeShot(name: string, area?: Locator): Promise<void>;
  /** Runs a step; on failure saves `failed-<name>.png` beside the other screenshots. */
  step(name: string, fn: () => Promise<void>): Promise<void>;
  /** Whether a step failed. */
  readonly failed: boolean;
  explorerRow(name: string): Locator;
  /** ShardLens's status bar item. */
  statusItem(): Locator;
}

/** `page` is asked for each time: the tests open it after these helpers are made. */
export function steps(label: string, shots: string, page: () => Page): Steps {
  const t0 = Date.now();
  let failed = false;
  const shot = async (name: string) => {
    await page().screenshot({ path: path.join(shots, `${name}.png`) });
  };
  return {
    log: (msg) => console.log(`[${label} ${((Date.now() - t0) / 1000).toFixed(1)} s] ${msg}`),
    shot,
    async readmeShot(name, area) {
      if (!process.env.SHARDLENS_README_SHOTS) return;
      const dir = path.resolve(__dirname, '..', '..', 'docs', 'images');
      mkdirSync(dir, { recursive: true });
      const box = area ? await area.boundingBox() : null;
      const view = page().viewportSize();
      const clip =
        box && view
          ? (() => {
              const x = Math.max(0, box.x);
              const y = Math.max(0, box.y);
              return {
                x,
                y,
                width: Math.min(view.width - x, box.width),
                height: Math.min(view.height - y, box.height),
              };
            })()
          : undefined;
      // Notification toasts (e.g. the question about unmapped tables) would cover the picture.
      const hide = await page().addStyleTag({ content: '.notifications-toasts { visibility: hidden !important; }' });
      try {
        await page().screenshot({ path: path.join(dir, `${name}.png`), ...(clip ? { clip } : {}) });
      } finally {
        await hide.evaluate((e) => e.remove());
      }
    },
    async step(name, fn) {
      try {
        await fn();
      } catch (e) {
        failed = true;
        await shot(`failed-${name}`).catch(() => undefined);
        throw e;
      }
    },
    get failed() {
      return failed;
    },
    explorerRow: (name) => page().locator(`.explorer-folders-view .monaco-list-row[aria-label="${name}"]`),
    statusItem: () => page().locator('[id="shardlens.shardlens.shardlens.status"]'),
  };
}

/**
 * Closes the browser and stops the server; after a failed step the server's logs are
 * kept beside the screenshots. The server's state and the workspace copy are removed.
 */
export async function tearDown(
  run: Steps,
  shots: string,
  { browser, server, workspace }: { browser?: Browser; server?: CodeServer; workspace?: string },
): Promise<void> {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  if (server && run.failed) {
    cpSync(server.logFile, path.join(shots, 'code-server.log'));
    cpSync(path.join(server.userDataDir, 'logs'), path.join(shots, 'logs'), { recursive: true });
  }
  if (server) rmSync(server.stateDir, { recursive: true, force: true });
  if (workspace) rmSync(workspace, { recursive: true, force: true });
}
