// End-to-end: the cache fix on an ElectroDB read in a real VS Code (code-server + Chromium),
// with the packaged VSIX installed, on a copy of test/fixes/fixtures/cache/electrodb-ts (an
// upload service whose every upload reads its pricing tier's plan). Ctrl+. on `Plan.get` →
// "Cache reads of '$uploads#tier_{tier}'…" → the read wrapped in the cache helper, the helper
// and its TTL constant added once, the warning turned into a note; a `.where()` read says why it
// gets no cache fix. Screenshots: test-output/e2e-cache-library/.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { steps, tearDown } from './steps';
import { ROOT } from './vscode';
import {
  chooseAction,
  goToLine,
  hoverUntilShown,
  openWorkbench,
  prepare,
  quickFixMenu as quickFixMenuOf,
  tokenOn,
  untilOnDisk,
  viewLine as viewLineOf,
  type Started,
} from './workbench';

const SHOTS = path.join(ROOT, 'test-output', 'e2e-cache-library');
const FIXTURE = path.join(ROOT, 'test', 'fixes', 'fixtures', 'cache', 'electrodb-ts');
const CACHE_FIX =
  "Cache reads of '$uploads#tier_{tier}' for 30 s, one entry per value (readers may see values up to 30 s old)";
const REFUSED = 'No cache fix: its .where() filter may differ per call: one cache entry would serve other items';

const started: Started = {};
let page: Page;
const run = steps('e2e-cache-library', SHOTS, () => page);
const { log, shot, step, explorerRow } = run;
let workspace: string;

const viewLine = (text: string) => viewLineOf(page, text);
const token = (line: string, text: string) => tokenOn(page, line, text);

const quickFixMenu = (title: string) => quickFixMenuOf(page, title, log);

describe('the cache fix on an ElectroDB read in a real VS Code', { timeout: 600_000 }, () => {
  before(async () => {
    const vsix = await prepare(SHOTS);
    workspace = mkdtempSync(path.join(os.tmpdir(), 'shardlens-e2e-cache-'));
    cpSync(FIXTURE, workspace, { recursive: true });
    page = await openWorkbench(started, { label: 'shardlens-e2e-cache', vsix, workspace });
    await explorerRow('settings.ts').click();
    await viewLine('Plan.get({ tier })').waitFor();
    log('settings.ts open');
  });

  after(async () => {
    await tearDown(run, SHOTS, { ...started, workspace });
  });

  it('a .where() read says in the light bulb why it gets no cache fix', () =>
    step('refused', async () => {
      // The finding sits on the key the query is given: the tier, on the line before `.where(`.
      await token(".byTier({ tier: 'team' })", "'team'").click();
      const menu = await quickFixMenu(REFUSED);
      await shot('01-refused');
      assert.equal(await menu.locator('.monaco-list-row.action', { hasText: 'Cache reads' }).count(), 0);
      await page.keyboard.press('Escape');
    }));

  it('"Cache reads of …" wraps the plan read where it stands, adds the helper once, and the warning becomes a note', () =>
    step('cache', async () => {
      const warning = page.locator('.monaco-hover', { hasText: 'takes only a few distinct values' }).first();
      await hoverUntilShown(
        page,
        () => token('Plan.get({ tier }).go();', 'tier'),
        warning,
        'the SL003 hover of Plan.get',
      );
      assert.match(await warning.innerText(), /read-hot/);
      await page.mouse.move(150, 600);
      await page.keyboard.press('Escape');
      await token('Plan.get({ tier }).go();', 'tier').click();
      const menu = await quickFixMenu(CACHE_FIX);
      await shot('02-fix-menu');
      await chooseAction(page, menu, CACHE_FIX);
      // The helper goes above the read: the editor keeps its top lines in view, the read below them.
      await viewLine('const PLAN_CACHE_TTL_MS = 30 * 1000;').waitFor();
      await page.keyboard.press('Control+S');
      const text = await untilOnDisk(
        path.join(workspace, 'settings.ts'),
        /PLAN_CACHE_TTL_MS,\s*\(\) => Plan\.get\(\{ tier \}\)\.go\(\)/,
      );
      assert.equal((text.match(/async function shardlensCached/g) ?? []).length, 1);
      assert.match(text, /const PLAN_CACHE_TTL_MS = 30 \* 1000;/);
      await shot('03-fixed');
      // Read again by the server: the same read is served from memory now (Ctrl+G brings its line into view).
      const line = text.slice(0, text.indexOf('() => Plan.get({ tier })')).split('\n').length;
      await goToLine(page, line);
      await viewLine('() => Plan.get({ tier })').waitFor();
      const note = page.locator('.monaco-hover', { hasText: 'served from memory' }).first();
      await hoverUntilShown(page, () => token('() => Plan.get({ tier })', 'tier'), note, 'the note on the cached read');
      assert.match(await note.innerText(), /about once per value and TTL/);
      await shot('04-note');
      log('the plan read is cached; its finding is a note');
    }));
});
