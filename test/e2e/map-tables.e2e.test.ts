// End-to-end: "ShardLens: Map Environment Tables" in a real VS Code (code-server + Chromium)
// with the packaged VSIX, against the lab (started here on a loopback port, stopped by PID).
// The examples name two tables by environment variables ($COUNTERS_TABLE, $EVENTS_TABLE).
// The command must show them in one pick with where the code uses each, then the account's
// tables for the one chosen (step 2 of 2, Back returns), save that choice in the workspace's
// settings at once, offer the name left, and end on Escape with the first choice kept and no
// other picker. Screenshots: test-output/e2e-map-tables/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import type { Page } from 'playwright-core';
import { steps, tearDown } from './steps';
import { ROOT } from './vscode';
import { examplesWorkspace, openWorkbench, prepare, type Started } from './workbench';
import { labClient, startLab, stopLab, table, type Lab } from './lab';

const SHOTS = path.join(ROOT, 'test-output', 'e2e-map-tables');

const started: Started = {};
let lab: Lab | undefined;
let page: Page;
const run = steps('e2e-map-tables', SHOTS, () => page);
const { log, shot, step, explorerRow, statusItem } = run;
let workspace: string;

const widget = () => page.locator('.quick-input-widget');
const rows = () => widget().locator('.monaco-list-row');
// VS Code writes settings.json by truncating it first: a read in that moment sees an empty or
// partial file, which is "not saved yet" to the poll below, not a failure.
const settings = (): Record<string, unknown> => {
  const text = readFileSync(path.join(workspace, '.vscode', 'settings.json'), 'utf8');
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { partial: text };
  }
};

describe('mapping environment tables, against the lab', { timeout: 600_000 }, () => {
  before(async () => {
    const vsix = await prepare(SHOTS);
    lab = await startLab();
    log(`lab at ${lab.url} (pid ${lab.child.pid})`);
    const ddb = labClient(lab.url);
    try {
      for (const name of ['counters-prod', 'events-prod', 'leaderboard'])
        await ddb.send(new CreateTableCommand(table(name)));
    } finally {
      ddb.destroy();
    }
    workspace = examplesWorkspace('shardlens-e2e-map-tables-', { 'shardlens.aws.endpoint': lab.url });
    page = await openWorkbench(started, { label: 'shardlens-e2e-map-tables', vsix, workspace });
    // As a step: a failure keeps a screenshot, the code-server log and the extension's output.
    await step('open', async () => {
      for (const row of ['examples', 'leaderboard', 'src', 'scores.ts']) {
        await explorerRow(row).waitFor();
        await explorerRow(row).click();
      }
      await statusItem()
        .filter({ hasText: /ShardLens: \d+/ })
        .waitFor();
      // The first refresh against the lab lists the unmapped names.
      const item = page.locator('[id="shardlens.shardlens.shardlens.connection"]');
      try {
        await item.filter({ hasText: '2 unmapped' }).waitFor({ timeout: 90_000 });
      } catch (e) {
        // In the error itself: CI's list of failures shows it without the screenshots.
        const text = await item.innerText().catch(() => null);
        const tooltip = await item
          .locator('a')
          .getAttribute('aria-label')
          .catch(() => null);
        throw new Error(`connection item ${JSON.stringify(text)}, tooltip ${JSON.stringify(tooltip)}`, { cause: e });
      }
    });
  });

  after(async () => {
    await tearDown(run, SHOTS, { ...started, workspace });
    await stopLab(lab);
  });

  it('one pick of the unmapped names with their uses, then the table of the one chosen, saved at once', () =>
    step('pick', async () => {
      await page.keyboard.press('F1');
      await widget().locator('input.input').waitFor();
      await page.keyboard.type('ShardLens: Map Environment Tables');
      await rows().filter({ hasText: 'Map Environment Tables' }).first().waitFor();
      await page.keyboard.press('Enter');

      // Step 1: both names in one list, each with where the code uses it.
      await rows().filter({ hasText: '$EVENTS_TABLE' }).waitFor();
      const names = await rows().allInnerTexts();
      log(`names: ${JSON.stringify(names)}`);
      assert.equal(names.length, 2, JSON.stringify(names));
      const events = names.find((n) => n.includes('$EVENTS_TABLE'))!;
      assert.match(events, /used at 3 call sites/);
      assert.match(events, /examples\/event-log\/py\/events\.py:17/);
      assert.match(
        names.find((n) => n.includes('$COUNTERS_TABLE'))!,
        /examples\/leaderboard\/src\/match-ids\.ts:12/,
      );
      assert.match(await widget().locator('.quick-input-title').innerText(), /Map Environment Tables \(1\/2\)/);
      await shot('01-names');

      // Step 2: the account's tables for $EVENTS_TABLE; Back returns to the names, chosen again.
      await rows().filter({ hasText: '$EVENTS_TABLE' }).click();
      await rows().filter({ hasText: 'events-prod' }).waitFor();
      assert.equal(
        await widget().locator('.quick-input-title').innerText(),
        'ShardLens: which table is $EVENTS_TABLE? (2/2)',
      );
      await shot('02-tables');
      await widget().locator('.quick-input-left-action-bar .action-label').first().click();
      await rows().filter({ hasText: '$COUNTERS_TABLE' }).waitFor();
      await rows().filter({ hasText: '$EVENTS_TABLE' }).click();
      await rows().filter({ hasText: 'events-prod' }).click();

      // Saved at once; the name left is offered in the same list.
      const deadline = Date.now() + 10_000;
      while ((settings()['shardlens.tables'] as Record<string, string> | undefined)?.$EVENTS_TABLE !== 'events-prod') {
        if (Date.now() > deadline) throw new Error(`not saved: ${JSON.stringify(settings())}`);
        await sleep(200);
      }
      await rows().filter({ hasText: '$COUNTERS_TABLE' }).waitFor();
      const left = await rows().allInnerTexts();
      assert.equal(left.length, 1, JSON.stringify(left));
      assert.match(left[0], /^\$COUNTERS_TABLE/);
      assert.match(
        String(await widget().locator('input.input').getAttribute('placeholder')),
        /^Saved \$EVENTS_TABLE → events-prod\./,
      );
      await shot('03-left');

      // Escape: what was chosen stays, nothing else is asked.
      await page.keyboard.press('Escape');
      await widget().waitFor({ state: 'hidden' });
      await sleep(1_000);
      assert.equal(await widget().isVisible(), false, 'another picker opened after Escape');
      assert.deepEqual(settings()['shardlens.tables'], { $EVENTS_TABLE: 'events-prod' });
      await shot('04-escaped');
    }));
});
