/**
 * Consumed capacity and throttle events over the window, drawn with uPlot (small, canvas,
 * no dependencies). Colours come from the theme's chart variables at draw time, so the
 * chart reads in light, dark and high-contrast themes alike.
 */
import uPlot from 'uplot';
import type { HeatSeries } from '../../protocol/src/panel';
import { el } from './dom';

function themeColor(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

let live: uPlot[] = [];

/** Destroys the charts of the previous render (uPlot keeps listeners until destroyed). */
export function disposeCharts(): void {
  for (const u of live) u.destroy();
  live = [];
}

function chart(title: string, times: number[], lines: Array<{ label: string; values: number[]; color: string }>) {
  const host = el('figure', { class: 'series', attrs: { 'aria-label': title } }, el('figcaption', {}, title));
  const fg = themeColor('--vscode-foreground', '#888');
  const grid = themeColor('--vscode-editorWidget-border', 'rgba(128,128,128,0.3)');
  const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
  const width = Math.max(240, Math.min(720, document.body.clientWidth - 32));
  const u = new uPlot(
    {
      width,
      height: 160,
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      axes: [axis, axis],
      series: [{}, ...lines.map((l) => ({ label: l.label, stroke: l.color, width: 2 }))],
    },
    [times, ...lines.map((l) => l.values)],
    host,
  );
  live.push(u);
  return host;
}

export function seriesCharts(s: HeatSeries): HTMLElement[] {
  const read = themeColor('--vscode-charts-blue', '#3794ff');
  const write = themeColor('--vscode-charts-purple', '#b180d7');
  const palette = ['--vscode-charts-red', '--vscode-charts-orange', '--vscode-charts-yellow', '--vscode-charts-green'];
  const reasons = Object.entries(s.throttlesByReason);
  return [
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
            label: name,
            values,
            color: themeColor(palette[i % palette.length], '#f14c4c'),
          })),
        ),
  ];
}
