// The panel's layout at the widths it is shown at: VS Code's default side bar (300 px)
// and an editor tab (~900 px), light and dark, with the real bundle in headless Chromium.
// A panel that fits has no horizontal scrollbar, no element wider than the viewport, no
// table cell squeezed to a letter per line, chart y-labels that fit their gutter, and
// legends that say something before the cursor is on the chart.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { JsonKeysReport } from '../../protocol/src/report';
import type { HeatSeries } from '../../protocol/src/panel';
import { HOT_REPORT, SERIES } from './fixtures/heat';
import { buildBundle, launch, openPanel, OUTPUT, type Bundle, type PanelPage } from './harness';

const KEYS = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures/keys.json'), 'utf8')) as JsonKeysReport;
const BOARD = 'leaderboard · PK = BOARD#global';

let bundle: Bundle;
let browser: Awaited<ReturnType<typeof launch>>;

before(async () => {
  bundle = await buildBundle();
  browser = await launch();
  fs.mkdirSync(OUTPUT, { recursive: true });
});
after(async () => browser?.close());

/** What overflows the viewport: the document's scroll width and the elements wider than the page. */
async function overflow(p: PanelPage) {
  return p.page.evaluate(() => {
    const doc = document.documentElement;
    const vw = doc.clientWidth;
    const wide: string[] = [];
    for (const e of Array.from(document.querySelectorAll('body *'))) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.right > vw + 0.5 || r.left < -0.5)
        wide.push(
          `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${e.className} ${Math.round(r.left)}..${Math.round(r.right)}`,
        );
    }
    return { scrollWidth: doc.scrollWidth, clientWidth: vw, wide: wide.slice(0, 10) };
  });
}

async function assertFits(p: PanelPage, what: string) {
  const o = await overflow(p);
  assert.ok(o.scrollWidth <= o.clientWidth, `${what}: scrollWidth ${o.scrollWidth} > ${o.clientWidth}`);
  assert.deepEqual(o.wide, [], `${what}: elements wider than the ${o.clientWidth} px viewport`);
}

/** A busy table: five-digit units per period, the labels that were clipped to "0,000". */
const BUSY: HeatSeries = {
  ...SERIES,
  consumedWriteUnits: SERIES.consumedWriteUnits.map((v, i) => v * 20 + i * 150),
};

/**
 * The y-axis of every chart: its tick labels, the gutter uPlot gave them and each label's
 * drawn width in the axis font. A label wider than its gutter is clipped at the left edge.
 */
async function yAxes(p: PanelPage) {
  return p.page.evaluate(() =>
    Array.from(document.querySelectorAll('figure.series')).map((f) => {
      const u = (f as unknown as { uplot: { axes: Array<Record<string, unknown>>; ctx: CanvasRenderingContext2D } })
        .uplot;
      const y = u.axes[1] as { _values: string[]; _size: number; font: [string]; ticks: { size: number } };
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = y.font[0];
      // uPlot scales its fonts by devicePixelRatio for the canvas.
      const widths = y._values.map((v) => ctx.measureText(v).width / devicePixelRatio);
      return { labels: y._values, gutter: y._size, tick: y.ticks.size, widths };
    }),
  );
}

async function tab(p: PanelPage, id: string) {
  await p.page.click(`vscode-tab-header[data-tab="${id}"]`);
}

for (const width of [300, 900])
  for (const theme of ['light', 'dark'] as const)
    test(`the panel fits ${width} px (${theme}): tabs, keys, heat charts, generator, partitions`, async () => {
      const p = await openPanel(browser.context, bundle, { theme });
      await p.page.setViewportSize({ width, height: 900 });
      await p.send({ type: 'keys', report: KEYS, problem: null });
      await p.page.click(`li.key[data-key="${BOARD}"] > button.key-button`);
      const shot = (name: string) =>
        p.page.screenshot({ path: path.join(OUTPUT, `layout-${width}-${name}-${theme}.png`), fullPage: true });
      await shot('keys');
      await assertFits(p, 'keys');
      await tab(p, 'heat');
      await p.send({ type: 'heat', requestId: 1, result: { ok: true, report: HOT_REPORT }, series: BUSY });
      await shot('heat');
      await assertFits(p, 'heat');
      // Tabs: all four headers on screen (wrapped onto a second row when narrow).
      const headers = await p.page.locator('vscode-tab-header').evaluateAll((hs) =>
        hs.map((h) => {
          const r = h.getBoundingClientRect();
          return { left: r.left, right: r.right, width: r.width };
        }),
      );
      assert.equal(headers.length, 4);
      for (const h of headers) assert.ok(h.left >= 0 && h.right <= width && h.width > 20, JSON.stringify(headers));
      // Y labels: abbreviated (no "12,000") and each fits its gutter beside the tick.
      const axes = await yAxes(p);
      assert.equal(axes.length, 2);
      const capacity = axes[0];
      assert.ok(
        capacity.labels.some((l) => /^\d+(\.\d)?k$/.test(l)),
        `five-digit ticks abbreviated: ${capacity.labels.join(' ')}`,
      );
      for (const a of axes)
        a.widths.forEach((w, i) =>
          assert.ok(w + a.tick <= a.gutter, `label ${a.labels[i]} (${w.toFixed(1)} px) fits the ${a.gutter} px gutter`),
        );
      // Legends before the cursor is on a point: the window's span and each line's peak and total.
      const legend = await p.page.locator('#view-heat .u-legend .u-value').allInnerTexts();
      assert.ok(legend.length >= 4, legend.join(' | '));
      assert.ok(!legend.some((v) => v.trim() === '--' || v.trim() === ''), legend.join(' | '));
      assert.match(legend[2], /^peak 1\d(\.\d)?k · total \d+k$/, legend.join(' | '));
      await tab(p, 'expr');
      await p.page.locator('#expr-sk-attr input').fill('timestamp');
      await p.page.locator('#expr-sk-op').evaluate((e: HTMLSelectElement) => {
        e.value = 'begins_with';
        e.dispatchEvent(new Event('change'));
      });
      await p.page.locator('#expr-sk input').fill('2026-11-30');
      await shot('generator');
      await assertFits(p, 'generator');
      // No cell squeezed to a letter per line: every cell is at most three lines tall and
      // at least a few characters wide (stacked label/value rows when narrow).
      const cells = await p.page.locator('#expr-table td').evaluateAll((tds) =>
        tds.map((td) => {
          const r = td.getBoundingClientRect();
          const line = parseFloat(getComputedStyle(td).lineHeight) || 1.4 * parseFloat(getComputedStyle(td).fontSize);
          const value = (td.firstElementChild ?? td) as HTMLElement;
          return { text: td.textContent, lines: r.height / line, valueWidth: value.getBoundingClientRect().width };
        }),
      );
      assert.equal(cells.length, 40);
      for (const c of cells) {
        assert.ok(c.lines <= 3.5, `${c.text}: ${c.lines.toFixed(1)} lines tall`);
        assert.ok(c.valueWidth >= 8 * Math.min(c.text!.length, 5), `${c.text}: ${c.valueWidth} px wide`);
      }
      await tab(p, 'partitions');
      await shot('partitions');
      await assertFits(p, 'partitions');
      assert.deepEqual(p.incidents, []);
      await p.page.close();
    });

test('the charts follow the page width: an editor tab narrowed to the side bar redraws them to fit', async () => {
  const p = await openPanel(browser.context, bundle);
  await p.page.setViewportSize({ width: 900, height: 900 });
  await p.send({ type: 'keys', report: KEYS, problem: null });
  await p.page.click(`li.key[data-key="${BOARD}"] > button.key-button`);
  await tab(p, 'heat');
  await p.send({ type: 'heat', requestId: 1, result: { ok: true, report: HOT_REPORT }, series: BUSY });
  const widths = () =>
    p.page.locator('figure.series .uplot').evaluateAll((us) => us.map((u) => u.getBoundingClientRect().width));
  const wide = await widths();
  assert.ok(
    wide.every((w) => w > 800),
    wide.join(),
  );
  await p.page.setViewportSize({ width: 300, height: 900 });
  // The chart box narrows with the page at once; its canvas and axes follow on the chart's own
  // redraw a frame or more later, so wait for every part of the charts, not only their boxes.
  await p.page.waitForFunction(() =>
    Array.from(document.querySelectorAll('figure.series .uplot, figure.series .uplot *')).every(
      (u) => u.getBoundingClientRect().right <= window.innerWidth,
    ),
  );
  await assertFits(p, 'heat after resize');
  await p.page.close();
});

test('the generator pre-fills {shard} only for a sharded key; an unsharded key says how it is read', async () => {
  const p = await openPanel(browser.context, bundle);
  await p.send({ type: 'keys', report: KEYS, problem: null });
  await p.page.click(`li.key[data-key="leaderboard · PK = FEED#recent"] > button.key-button`);
  await tab(p, 'expr');
  const view = p.page.locator('#view-expr');
  assert.equal(await view.locator('#expr-template').evaluate((e: HTMLInputElement) => e.value), 'FEED#recent');
  assert.equal(await view.locator('#expr-table').count(), 0);
  assert.match(
    (await view.locator('[data-state="unsharded"]').textContent()) ?? '',
    /FEED#recent has no \{shard\} part: a key that is not sharded is read by one Query on PK = FEED#recent/,
  );
  // A sharded key: its sites' `{shard 0..9}` becomes the form's `{shard}` and one query per shard.
  await tab(p, 'keys');
  await p.page.click(`li.key[data-key="${BOARD}"] > button.key-button`);
  await tab(p, 'expr');
  assert.equal(await view.locator('#expr-template').evaluate((e: HTMLInputElement) => e.value), 'BOARD#global#{shard}');
  assert.equal(await view.locator('#expr-table tbody tr').count(), 10);
  await p.page.close();
});

test('an index key names its index; a chart of small peaks has distinct, readable ticks', async () => {
  const p = await openPanel(browser.context, bundle);
  await p.send({ type: 'keys', report: KEYS, problem: null });
  await p.page.click(`li.key[data-key="${BOARD}"] > button.key-button`);
  await tab(p, 'heat');
  // A trickle: peaks of 1 write unit and 1 throttle per period.
  const small: HeatSeries = {
    times: SERIES.times,
    consumedReadUnits: SERIES.times.map(() => 0),
    consumedWriteUnits: SERIES.times.map((_, i) => (i % 3 === 0 ? 1 : 0)),
    throttlesByReason: { WriteKeyRangeThroughputThrottleEvents: SERIES.times.map((_, i) => (i === 4 ? 1 : 0)) },
  };
  const onIndex = { ...HOT_REPORT, index: 'scoreIndex' };
  await p.send({ type: 'heat', requestId: 1, result: { ok: true, report: onIndex }, series: small });
  const summary = (await p.page.locator('#view-heat p.summary').first().textContent()) ?? '';
  assert.match(summary, /^#1 on index scoreIndex of leaderboard · [\d,]+ units \([\d.]+% of the index\)/, summary);
  for (const a of await yAxes(p)) {
    assert.ok(a.labels.length >= 2, a.labels.join(' '));
    assert.equal(new Set(a.labels).size, a.labels.length, `distinct ticks: ${a.labels.join(' ')}`);
    assert.ok(a.labels.includes('1') || a.labels.includes('1.0'), `the peak of 1 reads as 1: ${a.labels.join(' ')}`);
  }
  await p.page.close();
});
