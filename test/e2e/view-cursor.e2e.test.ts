// End-to-end: the activity-bar view (ShardLens → Keys & Heat) opened for the first time while
// the editor's cursor rests on a key and the workspace is still being indexed, in a real
// VS Code (code-server + Chromium) with the packaged VSIX. The workspace is a service on
// ElectroDB (fixtures/entity-service.ts) whose entity key is known only once the index is
// done, and live heat is off, so no heat status refreshes the view: the view must say it is
// indexing (not "no keys"), then list the keys and select the one under the cursor without
// the cursor moving. Screenshots: test-output/e2e-view-cursor/.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { ENTITY_FILE, ENTITY_KEY_LINE, ENTITY_KEY_TEXT, writeEntityService } from './fixtures/entity-service';
import { steps, tearDown } from './steps';
import { ROOT } from './vscode';
import { openWorkbench, prepare, type Started } from './workbench';

const SHOTS = path.join(ROOT, 'test-output', 'e2e-view-cursor');
/** Feature handlers beside the entity: enough files for the index to outlast opening the view. */
const FEATURES = 1000;
const KEY = 'vendor-service/gsi3 · gsi3pk = $procure';

const started: Started = {};
let page: Page;
const run = steps('e2e-view-cursor', SHOTS, () => page);
const { log, shot, step, statusItem } = run;
let workspace: string;

const view = (): FrameLocator => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

describe('the activity-bar view opened on a key while the workspace is indexed', { timeout: 600_000 }, () => {
  before(async () => {
    const vsix = await prepare(SHOTS);
    workspace = mkdtempSync(path.join(os.tmpdir(), 'shardlens-e2e-view-cursor-'));
    writeEntityService(workspace, FEATURES);
    page = await openWorkbench(started, { label: 'shardlens-e2e-view-cursor', vsix, workspace });
    await run.explorerRow('src').waitFor();
  });

  after(() => tearDown(run, SHOTS, { ...started, workspace }));

  it('selects the key under the cursor once the index is done, and says it is indexing meanwhile', () =>
    step('cursor', async () => {
      // The entity file, from Quick Open (F1 then the prefix removed), the cursor on its constant key.
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input.input').waitFor();
      await page.keyboard.press('Backspace');
      await page.keyboard.type(ENTITY_FILE);
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'vendor.ts' }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.tabs-container .tab.active', { hasText: 'vendor.ts' }).waitFor();
      const column = 9 + ENTITY_KEY_TEXT.indexOf('composite'); // inside `{ field: "gsi3pk", composite: [] }`
      log('entity file open');
      await page.locator('.monaco-editor .view-line', { hasText: ENTITY_KEY_TEXT }).waitFor();
      await page.keyboard.press('Control+G');
      await page.locator('.quick-input-widget input.input').waitFor();
      await page.keyboard.type(`${ENTITY_KEY_LINE}:${column}`);
      await page
        .locator('.quick-input-widget .monaco-list-row', {
          hasText: `Go to line ${ENTITY_KEY_LINE} and character ${column}`,
        })
        .waitFor();
      await page.keyboard.press('Enter');
      await page
        .locator('[id="status.editor.selection"]', { hasText: `Ln ${ENTITY_KEY_LINE}, Col ${column}` })
        .waitFor();
      // The scene under test: the view opened while the index runs.
      await statusItem().filter({ hasText: 'indexing' }).waitFor();
      await page.locator('.activitybar').getByRole('tab', { name: 'ShardLens' }).first().click();
      log('view opened');
      assert.match(await statusItem().innerText(), /indexing/, 'the index ended before the view opened');
      await shot('01-opened-while-indexing');

      const said: string[] = [];
      const pressed = view().locator(`li.key[data-key="${KEY}"] > button.key-button[aria-pressed="true"]`);
      const deadline = Date.now() + 240_000;
      while (!(await pressed.isVisible().catch(() => false))) {
        if (Date.now() > deadline)
          throw new Error(`the key under the cursor was not selected; the view said: ${JSON.stringify(said)}`);
        const text = await view()
          .locator('#view-keys')
          .innerText({ timeout: 1_000 })
          .catch(() => '');
        if (text && !said.includes(text)) said.push(text);
        await sleep(200);
      }
      log(`the view said, before selecting the key: ${JSON.stringify(said)}`);
      log(`status: ${await statusItem().innerText()}`);
      assert.deepEqual(
        said.filter((t) => /No DynamoDB keys/.test(t)),
        [],
      );
      // The cursor did not move: the selection came from the keys report, not a selection event.
      assert.match(
        await page.locator('[id="status.editor.selection"]').innerText(),
        new RegExp(`Ln ${ENTITY_KEY_LINE}, Col ${column}`),
      );
      await shot('02-key-selected');
    }));
});
