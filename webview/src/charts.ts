/**
 * Consumed capacity and throttle events over the window, drawn with uPlot (small, canvas,
 * no dependencies). Colours come from the theme's chart variables at draw time, so the
 * chart reads in light, dark and high-contrast themes alike.
 *
 * The panel lives in a 300 px side bar as often as in an editor tab, so a chart takes the
 * page's width (and follows it when the page is resized), its y-axis labels are
 * abbreviated (12k, 1.5M) in a gutter measured to fit them, and its legend says what the
 * window held (peak, total) until the cursor is on a point.
 */
import uPlot from 'uplot';
import type { HeatSeries } from '../../protocol/src/panel';
import { el, fmt } from './dom';

function themeColor(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

let live: uPlot[] = [];
let resize: ResizeObserver | null = null;

/** Destroys the charts of the previous render (uPlot keeps listeners until destroyed). */
export function disposeCharts(): void {
  for (const u of live) u.destroy();
  live = [];
  resize?.disconnect();
  resize = null;
}

/** 950 → "950", 12,000 → "12k", 1,500,000 → "1.5M": an axis label that fits a narrow gutter. */
export function abbreviate(n: number): string {
  const a = Math.abs(n);
  const [div, suffix] = a >= 1e9 ? [1e9, 'G'] : a >= 1e6 ? [1e6, 'M'] : a >= 1e4 ? [1e3, 'k'] : [1, ''];
  const v = n / div;
  // One decimal below 10 of the unit (1.5M), none above (12k); never "-0".
  const digits = suffix && Math.abs(v) < 10 ? 1 : 0;
  const text = (Object.is(v, -0) ? 0 : v).toLocaleString('en-US', { maximumFractionDigits: digits });
  return text + suffix;
}

/**
 * The y axis's tick labels: abbreviated, with as many decimals as the step between
 * ticks needs (at most 3), so small peaks read 0, 0.25, 0.5 ... rather than 0, 0, 1.
 */
export function tickLabels(splits: number[]): string[] {
  const step = splits.length > 1 ? Math.round(Math.abs(splits[1] - splits[0]) * 1e6) / 1e6 : 1;
  if (step >= 1 && splits.every(Number.isInteger)) return splits.map(abbreviate);
  // The fewest decimals that write the step exactly (0.2 → 1, 0.25 → 2, 2.5 → 1), at most 3.
  let digits = 0;
  while (digits < 3 && Math.abs(step * 10 ** digits - Math.round(step * 10 ** digits)) > 1e-6) digits++;
  return splits.map((v) =>
    Math.abs(v) >= 1e4
      ? abbreviate(v)
      : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }),
  );
}

/** The chart's width: the page's content box (body padding excluded), at least 160 px. */
function chartWidth(): number {
  const style = getComputedStyle(document.body);
  const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  return Math.max(160, Math.min(900, document.body.clientWidth - pad));
}

/** The y gutter: the widest tick label as drawn in the axis font, plus the tick and gap. */
function yAxisSize(self: uPlot, values: string[] | null, axisIdx: number, cycleNum: number): number {
  const axis = self.axes[axisIdx];
  const previous = (axis as unknown as { _size?: number })._size;
  if (cycleNum > 1 && previous) return previous;
  const longest = (values ?? []).reduce((a, v) => (v.length > a.length ? v : a), '');
  let size = (axis.ticks?.size ?? 10) + (axis.gap ?? 5) + 4;
  if (longest) {
    self.ctx.font = (axis as unknown as { font: [string] }).font[0];
    size += self.ctx.measureText(longest).width / devicePixelRatio;
  }
  return Math.ceil(size);
}

interface Line {
  label: string;
  values: number[];
  color: string;
}

function chart(title: string, times: number[], lines: Line[]) {
  const host = el('figure', { class: 'series', attrs: { 'aria-label': title } }, el('figcaption', {}, title));
  const fg = themeColor('--vscode-foreground', '#888');
  const grid = themeColor('--vscode-editorWidget-border', 'rgba(128,128,128,0.3)');
  const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
  const span = `${new Date(times[0] * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}–${new Date(times[times.length - 1] * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
  const u = new uPlot(
    {
      width: chartWidth(),
      height: 160,
      legend: { show: true, live: true },
      cursor: { drag: { x: false, y: false } },
      axes: [axis, { ...axis, values: (_u, splits) => tickLabels(splits), size: yAxisSize }],
      series: [
        // With no point under the cursor, uPlot shows "--": say what the legend would hold.
        { label: 'Time', value: (_u, v, _s, idx) => (idx == null ? span : new Date(v * 1000).toLocaleTimeString()) },
        ...lines.map((l) => {
          const peak = Math.max(0, ...l.values);
          const total = l.values.reduce((a, b) => a + b, 0);
          return {
            label: l.label,
            stroke: l.color,
            width: 2,
            value: (_u: uPlot, v: number | null, _s: number, idx: number | null) =>
              idx == null ? `peak ${abbreviate(peak)} · total ${abbreviate(total)}` : v == null ? '' : fmt(v),
          };
        }),
      ],
    },
    [times, ...lines.map((l) => l.values)],
    host,
  );
  // The tests read the drawn axis (labels, gutter) from here.
  (host as HTMLElement & { uplot?: uPlot }).uplot = u;
  live.push(u);
  return host;
}

/** Follows the page's width: the side bar dragged wider, the panel moved to an editor tab. */
function followWidth(): void {
  resize?.disconnect();
  let last = chartWidth();
  resize = new ResizeObserver(() => {
    const w = chartWidth();
    if (w === last) return;
    last = w;
    for (const u of live) u.setSize({ width: w, height: 160 });
  });
  resize.observe(document.body);
}

/**
 * A CloudWatch reason in the legend without the suffix the chart's title already says:
 * "WriteKeyRangeThroughputThrottleEvents" → "WriteKeyRangeThroughput" (fits a side bar).
 */
export function reasonLabel(reason: string): string {
  return reason.replace(/ThrottleEvents$/, '') || reason;
}

export function seriesCharts(s: HeatSeries): HTMLElement[] {
  const read = themeColor('--vscode-charts-blue', '#3794ff');
  const write = themeColor('--vscode-charts-purple', '#b180d7');
  const palette = ['--vscode-charts-red', '--vscode-charts-orange', '--vscode-charts-yellow', '--vscode-charts-green'];
  const reasons = Object.entries(s.throttlesByReason);
  const charts = [
    chart('Consumed capacity (units per period)', s.times, [
      { label: 'read', values: s.consumedReadUnits, color: read },
      { label: 'write', values: s.consumedWriteUnits, color: write },
    ]),
    reasons.length === 0
      ? el('p', { class: 'muted' }, 'No throttle events in this window.')
      : chart(
          'Throttle events per reason',
          s.times,
          reasons.map(([name, values], i) => ({
            label: reasonLabel(name),
            values,
            color: themeColor(palette[i % palette.length], '#f14c4c'),
          })),
        ),
  ];
  followWidth();
  return charts;
}
