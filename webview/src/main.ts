/**
 * The ShardLens panel's entry: four tabs (Keys, Live heat, Query generator, Partitions),
 * the messages from the extension (validated by protocol/src/panel.ts before use) and the
 * state kept across reloads. Each view renders from the state and the last data; every
 * string from AWS or code goes through dom.ts as text.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-tab-panel/index.js';
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import 'uplot/dist/uPlot.min.css';
import './panel.css';
import type { HeatResult } from '../../protocol/src/heat';
import { parseHostMessage, type HeatSeries } from '../../protocol/src/panel';
import type { JsonLogicalKey } from '../../protocol/src/report';
import { el, fill } from './dom';
import { renderGenerator, fromKey } from './generator-view';
import { renderHeat } from './heat-view';
import { loadState, post, saveState, type PanelState, type Tab } from './host';
import { allKeys, renderKeys } from './keys-view';
import { renderPartitions } from './partitions-view';

const TABS: Array<[Tab, string]> = [
  ['keys', 'Keys'],
  ['heat', 'Live heat'],
  ['expr', 'Query generator'],
  ['partitions', 'Partitions'],
];

let state: PanelState = loadState();
let keysProblem: string | null = null;
let heat: { requestId: number; result: HeatResult | null; series: HeatSeries | null; loading: boolean } = {
  requestId: 0,
  result: null,
  series: null,
  loading: false,
};
let status = '';

const panels = new Map<Tab, HTMLElement>(
  TABS.map(([t]) => [t, el('div', { class: 'view', attrs: { id: `view-${t}` } })]),
);
const statusLine = el('p', { class: 'status', attrs: { role: 'status', id: 'status' } });

function setState(patch: Partial<PanelState>): void {
  state = { ...state, ...patch };
  saveState(state);
}

const selectedKey = (): JsonLogicalKey | null =>
  allKeys(state.keys).find((k) => k.logicalKey === state.selected) ?? null;

function requestHeat(refresh: boolean): void {
  const k = selectedKey();
  if (!k || k.table === null) return;
  heat = { requestId: heat.requestId + 1, result: null, series: null, loading: true };
  post({ type: 'heat', requestId: heat.requestId, table: k.table, index: k.index, window: state.window, refresh });
}

function select(k: JsonLogicalKey): void {
  const changed = k.logicalKey !== state.selected;
  setState({ selected: k.logicalKey, generator: changed ? fromKey(k, state.generator) : state.generator });
  if (changed) {
    heat = { ...heat, result: null, series: null };
    requestHeat(false);
  }
  renderAll();
}

function renderKeysView() {
  renderKeys(panels.get('keys')!, state.keys, keysProblem, state.selected, {
    select,
    reveal: (file, line, column) => post({ type: 'reveal', file, line, column }),
    refresh: () => post({ type: 'refreshKeys' }),
  });
}

function renderHeatView() {
  renderHeat(
    panels.get('heat')!,
    { key: selectedKey(), window: state.window, contributors: state.contributors, ...heat },
    {
      setWindow: (w) => {
        setState({ window: w });
        requestHeat(false);
        renderHeatView();
      },
      refresh: () => {
        requestHeat(true);
        renderHeatView();
      },
      enable: (mode) => {
        const k = selectedKey();
        if (k?.table) post({ type: 'enableInsights', table: k.table, index: k.index, mode });
      },
      setContributors: (c) => {
        setState({ contributors: c });
        renderHeatView();
      },
      mapTables: () => post({ type: 'mapTables' }),
    },
  );
}

function renderAll(): void {
  renderKeysView();
  renderHeatView();
  renderGenerator(panels.get('expr')!, state.generator, allKeys(state.keys), {
    change: (g) => setState({ generator: g }),
    copy: (text) => post({ type: 'copy', text }),
    insert: (text) => post({ type: 'insert', text }),
  });
  renderPartitions(panels.get('partitions')!, state.partitions, { change: (p) => setState({ partitions: p }) });
  statusLine.textContent = status;
}

function mount(): void {
  const selectedIndex = Math.max(
    0,
    TABS.findIndex(([t]) => t === state.tab),
  );
  const tabs = el(
    'vscode-tabs',
    {
      attrs: { 'selected-index': selectedIndex },
      on: {
        'vsc-tabs-select': (e) => {
          const i = (e as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex;
          setState({ tab: TABS[i]?.[0] ?? 'keys' });
        },
      },
    },
    ...TABS.flatMap(([t, label]) => [
      el('vscode-tab-header', { attrs: { slot: 'header', 'data-tab': t } }, label),
      el('vscode-tab-panel', {}, panels.get(t)!),
    ]),
  );
  fill(document.getElementById('root')!, tabs, statusLine);
  wrapTabHeaders(tabs);
  renderAll();
}

/**
 * <vscode-tabs> lays its headers in one unwrapping row inside its shadow root, so at the
 * side bar's 300 px "Partitions" ends past the edge and the page scrolls sideways. Its
 * styles have no part to target from outside: add one rule to the shadow root's sheets so
 * the headers wrap onto a second row instead.
 */
function wrapTabHeaders(tabs: HTMLElement): void {
  const root = tabs.shadowRoot;
  if (!root) return;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('.header { flex-wrap: wrap; } .tablist { flex-wrap: wrap; min-width: 0; max-width: 100%; }');
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

window.addEventListener('message', (event: MessageEvent) => {
  const msg = parseHostMessage(event.data);
  if (!msg) return; // Malformed or foreign: ignored, never half-rendered.
  switch (msg.type) {
    case 'keys':
      keysProblem = msg.problem;
      if (msg.report) setState({ keys: msg.report });
      else if (msg.problem) setState({ keys: null });
      if (state.selected && !selectedKey()) setState({ selected: null });
      if (selectedKey() && !heat.result && !heat.loading) requestHeat(false);
      renderAll();
      break;
    case 'cursor': {
      if (!state.follow || msg.logicalKey === null) break;
      const k = allKeys(state.keys).find((x) => x.logicalKey === msg.logicalKey);
      if (k) select(k);
      break;
    }
    case 'heat':
      if (msg.requestId !== heat.requestId) break; // a late answer to an older request
      heat = { requestId: msg.requestId, result: msg.result, series: msg.series, loading: false };
      renderHeatView();
      break;
    case 'refresh':
      // The keys come in their own message; the selected key's heat is asked again: forced
      // for the refresh button, from the server's (fresh) cache when the page was shown
      // again, the connection changed or the server's background refresh finished.
      if (selectedKey()) {
        requestHeat(msg.reason === undefined);
        renderHeatView();
      }
      break;
    case 'window':
      // The setting's window (at start and on each change): the page follows it; the picker
      // still chooses another until the setting changes again.
      if (msg.window !== state.window) {
        setState({ window: msg.window });
        if (selectedKey()) requestHeat(false);
        renderHeatView();
      }
      break;
    case 'notice':
      status = msg.message;
      statusLine.textContent = status;
      statusLine.className = `status ${msg.level}`;
      break;
  }
});

post({ type: 'ready' });
// A restored panel asks again for the heat of the key it had selected.
if (selectedKey()) requestHeat(false);
mount();
