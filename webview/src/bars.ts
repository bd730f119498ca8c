/**
 * Bar charts as plain DOM: a row per bar with its label as text, a bar sized by CSS width
 * and its value. Readable by screen readers (a list with the figures in words), themed
 * by VS Code's variables, and free of canvas for what is only a ranking. The time series
 * uses uPlot (charts.ts).
 */
import { plural } from '../../protocol/src/plural';
import { el, fmt } from './dom';

export interface Bar {
  label: string;
  value: number;
  alert?: boolean;
}

export function barList(title: string, bars: Bar[], unit: string): HTMLElement {
  const max = Math.max(1, ...bars.map((b) => b.value));
  return el(
    'figure',
    { class: 'bars' },
    el('figcaption', {}, title),
    el(
      'ol',
      {},
      ...bars.map((b) => {
        const bar = el('span', { class: 'bar' + (b.alert ? ' alert' : '') });
        bar.style.width = `${(100 * b.value) / max}%`;
        return el(
          'li',
          { attrs: { 'aria-label': `${b.label}: ${fmt(b.value)} ${unit}${b.alert ? ', alert' : ''}` } },
          el('span', { class: 'bar-label', attrs: { title: b.label } }, b.label),
          el('span', { class: 'bar-track' }, bar),
          el('span', { class: 'bar-value' }, fmt(b.value)),
        );
      }),
    ),
  );
}

/** A column per shard with a dashed line at the mean; shards above `alertRatio` × mean are marked. */
export function shardColumns(
  shards: Array<{ shard: number; value: number }>,
  mean: number,
  alertRatio: number,
): HTMLElement {
  if (shards.every((s) => s.value === 0)) {
    // An empty chart with a line at 0 reads as broken: say what it means instead.
    return el(
      'figure',
      { class: 'shards empty' },
      el('figcaption', {}, 'Per-shard balance'),
      el(
        'p',
        { class: 'empty-state' },
        `No live traffic on any of the ${plural(shards.length, 'shard')} in this window.`,
      ),
    );
  }
  const max = Math.max(1, mean, ...shards.map((s) => s.value));
  const cols = shards.map((s) => {
    const alert = mean > 0 && s.value > alertRatio * mean;
    const col = el('span', { class: 'col' + (alert ? ' alert' : '') });
    col.style.height = `${(100 * s.value) / max}%`;
    return el(
      'li',
      {
        attrs: {
          'data-shard': s.shard,
          'aria-label': `shard ${s.shard}: ${fmt(s.value)} units${alert ? `, above ${alertRatio}× the mean` : ''}`,
        },
      },
      el('span', { class: 'col-track' }, col),
      el('span', { class: 'col-label' }, String(s.shard)),
    );
  });
  const meanLine = el('span', { class: 'mean-line', attrs: { title: `mean ${fmt(mean, 1)}` } });
  // The track is var(--track) tall above a label row of var(--label): the line sits at the mean's height.
  meanLine.style.bottom = `calc(var(--label) + ${(mean / max).toFixed(4)} * var(--track))`;
  return el(
    'figure',
    { class: 'shards' },
    el('figcaption', {}, `Per-shard balance (dashed line: mean ${fmt(mean, 1)} units)`),
    el('div', { class: 'shard-plot' }, el('ol', {}, ...cols), meanLine),
  );
}
