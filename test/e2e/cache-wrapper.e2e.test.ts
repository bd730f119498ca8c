// End-to-end: the cache fix on a read made through a wrapper, in a real VS Code (code-server +
// Chromium) with the packaged VSIX installed, on a copy of test/fixes/fixtures/cache/wrapper-calls-ts
// (handlers calling `getItem`, `isMember`... of db.ts). Ctrl+. on the flags handler's
// `getItem<Flags>(TABLE, 'FEATURE_FLAGS')` → "Cache reads of 'FEATURE_FLAGS'…" → the call wrapped in
// the cache helper in flags.ts (db.ts untouched) and the error turned into a note; a call passing
// the user to `isMember` says why it gets no cache fix. Screenshots: test-output/e2e-cache-wrapper/.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
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

const SHOTS = path.join(ROOT, 'test-output', 'e2e-cache-wrapper');
const FIXTURE = path.join(ROOT, 'test', 'fixes', 'fixtures', 'cache', 'wrapper-calls-ts');
const CACHE_FIX = "Cache reads of 'FEATURE_FLAGS' for 30 s (readers may see values up to 30 s old)";
const REFUSED =
  'No cache fix: isMember is passed user, which may change per call: cache inside isMember, or where its result is used';

const started: Started = {};
let page: Page;
const run = steps('e2e-cache-wrapper', SHOTS, () => page);
const { log, shot, step, explorerRow } = run;
let workspace: string;

const viewLine = (text: string) => viewLineOf(page, text);
const token = (line: string, text: string) => tokenOn(page, line, text);
const onDisk = (file: string) => readFileSync(path.join(workspace, file), 'utf8');

const quickFixMenu = (title: string) => quickFixMenuOf(page, title, log);

describe('the cache fix on a read through a wrapper in a real VS Code', { timeout: 600_000 }, () => {
  before(async () => {
    const vsix = await prepare(SHOTS);
    workspace = mkdtempSync(path.join(os.tmpdir(), 'shardlens-e2e-cache-wrapper-'));
    cpSync(FIXTURE, workspace, { recursive: true });
    page = await openWorkbench(started, { label: 'shardlens-e2e-cache-wrapper', vsix, workspace });
    log('workbench open');
  });

  after(async () => {
    await tearDown(run, SHOTS, { ...started, workspace });
  });

  it('a call passing the user to the wrapper says in the light bulb why it gets no cache fix', () =>
    step('refused', async () => {
      await explorerRow('admins.ts').click();
      await viewLine("isMember(TABLE, 'ADMINS', user)").waitFor();
      await token("isMember(TABLE, 'ADMINS', user)", 'isMember').click();
      const menu = await quickFixMenu(REFUSED);
      await shot('01-refused');
      assert.equal(await menu.locator('.monaco-list-row.action', { hasText: 'Cache reads' }).count(), 0);
      await page.keyboard.press('Escape');
    }));

  it('"Cache reads of …" wraps the call of the wrapper where it stands, and the error becomes a note', () =>
    step('cache', async () => {
      const db = onDisk('db.ts');
      await explorerRow('flags.ts').click();
      await viewLine("getItem<Flags>(TABLE, 'FEATURE_FLAGS')").waitFor();
      const error = page.locator('.monaco-hover', { hasText: 'read-hot' }).first();
      await hoverUntilShown(
        page,
        () => token("getItem<Flags>(TABLE, 'FEATURE_FLAGS')", 'getItem'),
        error,
        'the SL001 hover of the getItem call',
      );
      await page.mouse.move(150, 600);
      await page.keyboard.press('Escape');
      await token("getItem<Flags>(TABLE, 'FEATURE_FLAGS')", 'getItem').click();
      const menu = await quickFixMenu(CACHE_FIX);
      await shot('02-fix-menu');
      await chooseAction(page, menu, CACHE_FIX);
      await viewLine('const FEATURE_FLAGS_CACHE_TTL_MS = 30 * 1000;').waitFor();
      await page.keyboard.press('Control+S');
      const text = await untilOnDisk(
        path.join(workspace, 'flags.ts'),
        /\(\) => getItem<Flags>\(TABLE, 'FEATURE_FLAGS'\)/,
      );
      assert.equal((text.match(/async function shardlensCached/g) ?? []).length, 1);
      assert.equal(onDisk('db.ts'), db, 'the wrapper is not changed');
      await shot('03-fixed');
      // The finding sits on the key the call passes.
      const line = text.slice(0, text.indexOf("() => getItem<Flags>(TABLE, 'FEATURE_FLAGS')")).split('\n').length;
      await goToLine(page, line);
      await viewLine("() => getItem<Flags>(TABLE, 'FEATURE_FLAGS')").waitFor();
      const note = page.locator('.monaco-hover', { hasText: 'served from memory' }).first();
      await hoverUntilShown(
        page,
        () => token("() => getItem<Flags>(TABLE, 'FEATURE_FLAGS')", 'FEATURE_FLAGS'),
        note,
        'the note on the cached call',
      );
      await shot('04-note');
      log('the call of the wrapper is cached; its finding is a note');
    }));
});
