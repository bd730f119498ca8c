// The key view says where a key's read-hot/write-hot verdict came from (`keyUse.source`): the
// workspace's call sites, or live data that decided it. In the real panel bundle in headless
// Chromium, as the other panel tests; the verdict's figures from the report stay text.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { JsonKeysReport, JsonLogicalKey } from '../../protocol/src/report';
import { HOSTILE_IMG } from './fixtures/heat';
import { buildBundle, cspViolations, launch, openPanel, type Bundle } from './harness';

const KEYS = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures/keys.json'), 'utf8')) as JsonKeysReport;
const BOARD = 'leaderboard · PK = BOARD#global';
const STATUS = 'events/byStatus · status = {low-cardinality}';
const STREAM = 'streams · pk = STREAM#main';

let bundle: Bundle;
let browser: Awaited<ReturnType<typeof launch>>;

before(async () => {
  bundle = await buildBundle();
  browser = await launch();
});
after(async () => browser?.close());

function keyOf(report: JsonKeysReport, id: string): JsonLogicalKey {
  const k = report.tables.flatMap((t) => t.indexes.flatMap((i) => i.keys)).find((x) => x.logicalKey === id);
  assert.ok(k, id);
  return k;
}

/** The recorded report with verdicts on three keys: two from the code, one from live data. */
function withVerdicts(window = '15m'): JsonKeysReport {
  const r = structuredClone(KEYS);
  const board = keyOf(r, BOARD).sites[0].findings[0];
  board.keyUse = { verdict: 'both', reads: 2, writes: 1, readEntries: null, writeEntries: null };
  const status = keyOf(r, STATUS).sites[0].findings[0];
  status.keyUse = { verdict: 'read', reads: 1, writes: 0, readEntries: null, writeEntries: null };
  const stream = keyOf(r, STREAM).sites[0].findings[0];
  stream.keyUse = {
    verdict: 'write',
    reads: 0,
    writes: 1,
    readEntries: null,
    writeEntries: null,
    source: 'live',
    live: {
      window,
      readUnits: 0,
      writeUnits: 1204.26,
      readPeak: 0,
      writePeak: 95.5,
      readThrottles: 0,
      writeThrottles: 12,
    },
  };
  return r;
}

const verdictOf = (p: Awaited<ReturnType<typeof openPanel>>, id: string) =>
  p.page.locator(`li.key[data-key="${id}"] > button.key-button .verdict`);

test('the key view shows each verdict and its source: the workspace code or live data', async () => {
  const p = await openPanel(browser.context, bundle);
  await p.send({ type: 'keys', report: withVerdicts(), problem: null });
  assert.equal(
    await verdictOf(p, BOARD).textContent(),
    "hot both ways · from the workspace's code: read at 2 call sites, written at 1 call site",
  );
  assert.equal(await verdictOf(p, BOARD).getAttribute('data-source'), 'workspace');
  assert.equal(
    await verdictOf(p, STATUS).textContent(),
    "read-hot · from the workspace's code: read at 1 call site, written at 0 call sites",
  );
  assert.equal(
    await verdictOf(p, STREAM).textContent(),
    'write-hot · from live data (15m): 0 read units, 1,204.3 write units',
  );
  assert.equal(await verdictOf(p, STREAM).getAttribute('data-source'), 'live');
  // Keys whose findings carry no verdict (a counter, a time bucket) show none.
  assert.equal(await p.page.locator('.verdict').count(), 3);
  // A selected key keeps its verdict line beside its call sites.
  await p.page.click(`li.key[data-key="${STREAM}"] > button.key-button`);
  assert.equal(await verdictOf(p, STREAM).count(), 1);
  assert.deepEqual(p.incidents, []);
  assert.deepEqual(await cspViolations(p), []);
  await p.page.close();
});

test('a verdict with hostile text from the live report stays text', async () => {
  const p = await openPanel(browser.context, bundle);
  await p.send({ type: 'keys', report: withVerdicts(HOSTILE_IMG), problem: null });
  assert.equal(await p.page.locator('img').count(), 0);
  assert.equal(
    await verdictOf(p, STREAM).textContent(),
    `write-hot · from live data (${HOSTILE_IMG}): 0 read units, 1,204.3 write units`,
  );
  assert.equal(await p.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.deepEqual(await cspViolations(p), []);
  await p.page.close();
});
