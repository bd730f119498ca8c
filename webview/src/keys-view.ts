/**
 * Tables → indexes → logical keys → call sites, from `shardlens/keys`. A key row selects
 * the key (the heat and generator views follow the selection); a call site is a button
 * that asks the extension to reveal the line. Native <details>/<button> keep it usable
 * from the keyboard (Tab, Enter, Space) without a custom focus model.
 */
import type { JsonKeySite, JsonKeysReport, JsonLogicalKey } from '../../protocol/src/report';
import { plural } from '../../protocol/src/plural';
import { el, fill } from './dom';

export interface KeysViewEvents {
  select(key: JsonLogicalKey): void;
  reveal(file: string, line: number, column: number): void;
  refresh(): void;
}

/** Every logical key of a report, in report order. */
export function allKeys(report: JsonKeysReport | null): JsonLogicalKey[] {
  return report ? report.tables.flatMap((t) => t.indexes.flatMap((i) => i.keys)) : [];
}

function shardText(k: JsonLogicalKey): string {
  if (!k.shards) return 'not sharded';
  const v = k.shards.values;
  if (!v || v.length === 0) return `sharded (${k.shards.method}, set unknown)`;
  return `sharded: ${k.shards.method} ${v[0]}..${v[v.length - 1]}`;
}

function worst(k: JsonLogicalKey): 'error' | 'warning' | 'info' | null {
  const sev = k.sites.flatMap((s) => s.findings.map((f) => f.severity));
  return sev.includes('error') ? 'error' : sev.includes('warning') ? 'warning' : sev.includes('info') ? 'info' : null;
}

type KeyUse = NonNullable<JsonKeySite['findings'][number]['keyUse']>;

const VERDICTS: Record<KeyUse['verdict'], string> = { read: 'read-hot', write: 'write-hot', both: 'hot both ways' };

const count = (n: number, what: string) => `${what} at ${plural(n, 'call site')}`;

/**
 * Where the key's read-hot/write-hot verdict came from, as text: live data (the window's
 * units, which decided) or the workspace's call sites. Null when no finding of the key has one.
 */
export function verdictText(k: JsonLogicalKey): { text: string; source: 'live' | 'workspace' } | null {
  const use = k.sites.flatMap((s) => s.findings).find((f) => f.keyUse)?.keyUse;
  if (!use) return null;
  const verdict = VERDICTS[use.verdict];
  if (use.source === 'live' && use.live) {
    const l = use.live;
    const units = (n: number) => (Math.round(n * 10) / 10).toLocaleString('en-US');
    return {
      source: 'live',
      text: `${verdict} · from live data (${l.window}): ${units(l.readUnits)} read units, ${units(l.writeUnits)} write units`,
    };
  }
  const code = `${count(use.reads, 'read')}, ${count(use.writes, 'written')}`;
  return { source: 'workspace', text: `${verdict} · from the workspace's code: ${code}` };
}

function keyRow(k: JsonLogicalKey, selected: string | null, ev: KeysViewEvents): HTMLElement {
  const rules = [...new Set(k.sites.flatMap((s) => s.findings.map((f) => f.rule)))];
  const sev = worst(k);
  const isSel = k.logicalKey === selected;
  const verdict = verdictText(k);
  const sites = el(
    'ul',
    { class: 'sites', attrs: { 'aria-label': `call sites of ${k.logicalKey}` } },
    ...k.sites.map((s) =>
      el(
        'li',
        {},
        el(
          'button',
          {
            class: 'link site',
            attrs: { title: `${s.file}:${s.line}:${s.column}` },
            on: { click: () => ev.reveal(s.file, s.line, s.column) },
          },
          el('span', { class: `kind ${s.kind}` }, s.kind),
          ' ',
          s.operation,
          ' ',
          el('code', {}, s.template),
          ' ',
          el('span', { class: 'where' }, `${s.file}:${s.line}`),
        ),
        ...s.findings.map((f) => el('span', { class: `rule ${f.severity}`, attrs: { title: f.message } }, f.rule)),
      ),
    ),
  );
  return el(
    'li',
    { class: 'key' + (isSel ? ' selected' : ''), attrs: { 'data-key': k.logicalKey } },
    el(
      'button',
      { class: 'key-button', attrs: { 'aria-pressed': String(isSel) }, on: { click: () => ev.select(k) } },
      el('code', { class: 'template' }, `${k.attribute} = ${k.template}`),
      ' ',
      el('span', { class: 'muted' }, shardText(k)),
      sev ? el('span', { class: `rule ${sev}` }, rules.join(' ')) : null,
      verdict ? el('span', { class: 'verdict muted', attrs: { 'data-source': verdict.source } }, verdict.text) : null,
    ),
    isSel ? sites : null,
  );
}

export function renderKeys(
  root: HTMLElement,
  report: JsonKeysReport | null,
  problem: string | null,
  selected: string | null,
  ev: KeysViewEvents,
): void {
  const toolbar = el(
    'div',
    { class: 'toolbar' },
    el('vscode-button', { attrs: { secondary: true, id: 'keys-refresh' }, on: { click: ev.refresh } }, 'Refresh keys'),
  );
  if (!report) {
    fill(root, toolbar, el('p', { class: 'empty' }, problem ?? 'Waiting for the language server to list the keys…'));
    return;
  }
  const keyCount = allKeys(report).length;
  if (keyCount === 0) {
    fill(root, toolbar, el('p', { class: 'empty' }, 'No DynamoDB keys found in this workspace.'));
    return;
  }
  const tables = report.tables.map((t) =>
    el(
      'details',
      { class: 'table', attrs: { open: true } },
      el('summary', {}, 'table ', el('strong', {}, t.table ?? '(table not known)')),
      ...t.indexes.map((ix) =>
        el(
          'div',
          { class: 'index' },
          el('div', { class: 'index-name' }, ix.index === null ? 'table key' : `index ${ix.index}`),
          el('ul', { class: 'keys' }, ...ix.keys.map((k) => keyRow(k, selected, ev))),
        ),
      ),
    ),
  );
  fill(
    root,
    toolbar,
    el('p', { class: 'muted' }, `${plural(keyCount, 'logical key')} on ${plural(report.tables.length, 'table')}`),
    ...tables,
  );
}
