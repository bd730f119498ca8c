/**
 * Live heat for the selected key, from `shardlens/heat`: alerts, top contributors, the
 * per-shard balance, the time series, and the empty states (not connected, Contributor
 * Insights off with an enable button, no traffic, live keys no code template matches).
 */
import type { HeatResult, HeatWindow, InsightsMode, JsonHeatReport, JsonKeyHeat } from '../../protocol/src/heat';
import { HEAT_WINDOWS, INSIGHTS_MODES, type HeatSeries } from '../../protocol/src/panel';
import type { JsonLogicalKey } from '../../protocol/src/report';
import { READ_UNITS_PER_PARTITION } from '../../server/src/engine/requests/capacity';
import { barList, shardColumns } from './bars';
import { disposeCharts, seriesCharts } from './charts';
import { plural } from '../../protocol/src/plural';
import { el, fill, fmt } from './dom';

/**
 * A partition's ceiling in Contributor Insights' units (3 × write units + read units):
 * 1,000 WCU/s × 3 = 3,000 RCU/s = 3,000 units/s either way.
 */
export const PARTITION_UNITS_PER_SECOND = READ_UNITS_PER_PARTITION;
export const KEY_ALERT_SHARE = 0.8;
export const SHARD_ALERT_RATIO = 3;

export interface HeatViewEvents {
  setWindow(w: HeatWindow): void;
  refresh(): void;
  enable(mode: InsightsMode): void;
  setContributors(c: 'consumed' | 'throttled'): void;
  /** The key's table is named by an environment variable: pick the account's table for it. */
  mapTables(): void;
}

export interface HeatInput {
  key: JsonLogicalKey | null;
  window: HeatWindow;
  contributors: 'consumed' | 'throttled';
  loading: boolean;
  result: HeatResult | null;
  series: HeatSeries | null;
}

/** Problem codes that mean "we could not reach AWS", shown as the not-connected state. */
const NOT_CONNECTED =
  /^(no-credentials|expired-token|no-region|endpoint-unreachable|unknown-region|timeout|access-denied|server-not-running)$/;

function select<T extends string>(
  id: string,
  label: string,
  options: readonly T[],
  value: T,
  onChange: (v: T) => void,
) {
  const sel = el(
    'vscode-single-select',
    { attrs: { id, 'aria-label': label }, on: { change: (e) => onChange((e.target as HTMLSelectElement).value as T) } },
    ...options.map((o) => el('vscode-option', { attrs: { value: o, selected: o === value } }, o)),
  );
  return el('label', { class: 'field' }, el('span', {}, label), sel);
}

function problemBox(code: string, message: string, command: string | null, extra?: HTMLElement): HTMLElement {
  const title = NOT_CONNECTED.test(code)
    ? 'Not connected to AWS'
    : code === 'insights-disabled'
      ? 'Contributor Insights is off'
      : 'Live heat is not available';
  return el(
    'div',
    { class: 'empty state', attrs: { 'data-state': code, role: 'status' } },
    el('strong', {}, title),
    el('p', {}, message),
    command ? el('pre', { class: 'command' }, el('code', {}, command)) : null,
    extra ?? null,
  );
}

/** What a problem offers to do: enable Contributor Insights, or map an environment-named table. */
function extraFor(code: string, ev: HeatViewEvents): HTMLElement | undefined {
  if (code === 'insights-disabled') return enableBox(ev);
  if (code === 'table-unmapped')
    return el(
      'vscode-button',
      { attrs: { id: 'map-tables' }, on: { click: () => ev.mapTables() } },
      'Choose its table…',
    );
  return undefined;
}

function enableBox(ev: HeatViewEvents): HTMLElement {
  let mode: InsightsMode = 'THROTTLED_KEYS';
  return el(
    'div',
    { class: 'toolbar' },
    select('insights-mode', 'Mode', INSIGHTS_MODES, mode, (m) => (mode = m)),
    el(
      'vscode-button',
      { attrs: { id: 'enable-insights' }, on: { click: () => ev.enable(mode) } },
      'Enable Contributor Insights',
    ),
  );
}

/** `all on writes` / `12 on writes, 3 on reads`: whose the throttles were (`operations`). */
function throttleWho(k: JsonKeyHeat): string {
  const words = { write: 'writes', read: 'reads', unknown: 'reads or writes' } as const;
  const by = (['write', 'read', 'unknown'] as const).filter((op) => k.operations[op].throttles > 0);
  if (by.length === 0) return '';
  if (by.length === 1) return `, all on ${words[by[0]]}`;
  return `: ${by.map((op) => `${fmt(k.operations[op].throttles)} on ${words[op]}`).join(', ')}`;
}

function alertsOf(k: JsonKeyHeat): string[] {
  const out: string[] = [];
  // Any throttle is an alert: a partition refuses requests only at its ceiling, which a
  // period's average can hide.
  if (k.throttles > 0)
    out.push(
      `${fmt(k.throttles)} throttle event${k.throttles === 1 ? '' : 's'}${throttleWho(k)}: the key reached a partition's ceiling.`,
    );
  const ceiling = KEY_ALERT_SHARE * PARTITION_UNITS_PER_SECOND;
  for (const live of k.topKeys)
    if (live.peakUnitsPerSecond !== null && live.peakUnitsPerSecond >= ceiling)
      out.push(
        `${live.key} peaked at ${fmt(live.peakUnitsPerSecond)} units/s: ${Math.round((100 * live.peakUnitsPerSecond) / PARTITION_UNITS_PER_SECOND)}% of one partition's ${fmt(PARTITION_UNITS_PER_SECOND)}.`,
      );
  if (k.shards && k.shardBalance && k.shardBalance.mean > 0)
    for (const s of k.shards)
      if ((s.consumedUnits ?? 0) > SHARD_ALERT_RATIO * k.shardBalance.mean)
        out.push(
          `Shard ${s.shard} took ${fmt(s.consumedUnits)} units, ${fmt((s.consumedUnits ?? 0) / k.shardBalance.mean, 1)}× the mean of its set.`,
        );
  return out;
}

function keyHeat(
  k: JsonKeyHeat,
  where: { table: string; index: string | null },
  input: HeatInput,
  ev: HeatViewEvents,
): HTMLElement[] {
  // An index key's rank and share are of the index's traffic, not the table's.
  const resource = where.index ? `index ${where.index} of ${where.table}` : 'the table';
  const whole = where.index ? 'the index' : 'the table';
  const alerts = alertsOf(k);
  const throttled = input.contributors === 'throttled';
  const live = [...k.topKeys]
    .map((l) => ({
      label: l.key,
      value: throttled ? l.throttles : (l.consumedUnits ?? 0),
      alert: l.throttles > 0 || (l.peakUnitsPerSecond ?? 0) >= KEY_ALERT_SHARE * PARTITION_UNITS_PER_SECOND,
    }))
    .sort((a, b) => b.value - a.value)
    .slice(0, 10);
  return [
    el(
      'p',
      { class: 'summary' },
      `#${k.rank} on ${resource} · ${fmt(k.consumedUnits)} units`,
      k.share !== null ? ` (${fmt(k.share * 100, 1)}% of ${whole})` : '',
      ` · ${plural(k.throttles, 'throttle')}`,
    ),
    alerts.length
      ? el('ul', { class: 'alerts', attrs: { role: 'alert' } }, ...alerts.map((a) => el('li', {}, a)))
      : null,
    select(
      'contributors',
      'Top contributors',
      ['consumed', 'throttled'] as const,
      input.contributors,
      ev.setContributors,
    ),
    live.length
      ? barList(
          throttled ? 'Most throttled live keys' : 'Most accessed live keys',
          live,
          throttled ? 'throttles' : 'units',
        )
      : el('p', { class: 'muted' }, 'No live keys of this key in the window.'),
    k.shards && k.shardBalance
      ? shardColumns(
          k.shards.map((s) => ({ shard: s.shard, value: s.consumedUnits ?? s.throttles })),
          k.shardBalance.mean,
          SHARD_ALERT_RATIO,
        )
      : null,
  ].filter((x): x is HTMLElement => x !== null);
}

function metricsBlock(report: JsonHeatReport, series: HeatSeries | null): HTMLElement[] {
  if (series && series.times.length > 0) return seriesCharts(series);
  const m = report.metrics;
  if (!m) return [el('p', { class: 'muted' }, 'CloudWatch figures could not be read for this window.')];
  return [
    el(
      'dl',
      { class: 'metrics' },
      el('dt', {}, 'Consumed read units'),
      el('dd', {}, fmt(m.consumedReadUnits)),
      el('dt', {}, 'Consumed write units'),
      el('dd', {}, fmt(m.consumedWriteUnits)),
      ...Object.entries(m.throttlesByReason).flatMap(([reason, n]) => [el('dt', {}, reason), el('dd', {}, fmt(n))]),
    ),
  ];
}

export function renderHeat(root: HTMLElement, input: HeatInput, ev: HeatViewEvents): void {
  disposeCharts();
  const k = input.key;
  if (!k) {
    fill(
      root,
      el(
        'p',
        { class: 'empty', attrs: { 'data-state': 'no-key' } },
        'Select a key in Keys (or put the cursor on one in the editor) to see its live heat.',
      ),
    );
    return;
  }
  const header = el(
    'div',
    { class: 'toolbar' },
    el('code', { class: 'heading' }, k.logicalKey),
    select('window', 'Window', HEAT_WINDOWS, input.window, ev.setWindow),
    el('vscode-button', { attrs: { secondary: true, id: 'heat-refresh' }, on: { click: ev.refresh } }, 'Refresh'),
  );
  if (k.table === null) {
    fill(
      root,
      header,
      problemBox('no-table', 'The code does not say which table this key is on, so there is nothing to ask AWS.', null),
    );
    return;
  }
  const r = input.result;
  if (!r) {
    fill(
      root,
      header,
      el(
        'p',
        { class: 'muted', attrs: { role: 'status' } },
        input.loading ? 'Reading live heat…' : 'No live data requested yet.',
      ),
    );
    return;
  }
  if (!r.ok) {
    const p = r.problem;
    fill(root, header, problemBox(p.code, p.message, p.command, extraFor(p.code, ev)));
    return;
  }
  const report = r.report;
  const parts: HTMLElement[] = [];
  for (const p of report.problems) parts.push(problemBox(p.code, p.message, p.command, extraFor(p.code, ev)));
  const mine = report.keys.find((h) => h.logicalKey === k.logicalKey);
  const traffic =
    (report.totalUnits ?? 0) > 0 || report.keys.some((h) => h.throttles > 0) || report.unmatched.length > 0;
  if (!traffic && report.problems.length === 0)
    parts.push(
      el(
        'p',
        { class: 'empty', attrs: { 'data-state': 'no-traffic' } },
        `No traffic on ${report.table} in the last ${report.window}.`,
      ),
    );
  else if (mine) parts.push(...keyHeat(mine, { table: report.table, index: report.index ?? null }, input, ev));
  else if (traffic)
    parts.push(
      el(
        'p',
        { class: 'muted', attrs: { 'data-state': 'key-quiet' } },
        "This key is not among the table's top contributors in the window.",
      ),
    );
  parts.push(...metricsBlock(report, input.series));
  if (report.unmatched.length)
    parts.push(
      el(
        'details',
        { class: 'unmatched', attrs: { 'data-state': 'unmatched' } },
        el(
          'summary',
          {},
          `${plural(report.unmatched.length, 'live key')} ${report.unmatched.length === 1 ? 'matches' : 'match'} no key in the code`,
        ),
        el(
          'ul',
          {},
          ...report.unmatched.map((u) =>
            el(
              'li',
              {},
              el('code', {}, u.key),
              ` · ${fmt(u.consumedUnits)} units · ${plural(u.throttles, 'throttle')}`,
            ),
          ),
        ),
      ),
    );
  fill(root, header, ...parts);
}
