/**
 * The partition visualizer: paste written keys (one per line) or describe them with a
 * template and a count, and see how they spread over N partitions with and without a
 * shard suffix. Labelled as a teaching hash wherever it is shown.
 */
import { barList } from './bars';
import { plural } from '../../protocol/src/plural';
import { el, fill, fmt } from './dom';
import type { PartitionState } from './host';
import { spread, withSuffix, writesOf } from './teaching-hash';

export interface PartitionEvents {
  change(p: PartitionState): void;
}

const MAX_WRITES = 100_000;
const clampInt = (v: string, lo: number, hi: number, dflt: number) => {
  const n = Math.floor(Number(v));
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : dflt;
};

function histogram(title: string, counts: number[]): HTMLElement {
  const total = counts.reduce((a, b) => a + b, 0);
  const mean = total / counts.length;
  const max = Math.max(...counts);
  return el(
    'div',
    { class: 'spread' },
    barList(
      title,
      counts.map((c, i) => ({ label: `partition ${i}`, value: c, alert: mean > 0 && c > 3 * mean })),
      'writes',
    ),
    el(
      'p',
      { class: 'muted' },
      `hottest partition: ${fmt(max)} of ${plural(total, 'write')} (${fmt(mean > 0 ? max / mean : 0, 1)}× the mean)`,
    ),
  );
}

export function renderPartitions(root: HTMLElement, p: PartitionState, ev: PartitionEvents): void {
  const result = el('div', { class: 'spread-result' });
  let state = p;
  const update = (patch: Partial<PartitionState>) => {
    state = { ...state, ...patch };
    ev.change(state);
    draw();
  };
  const input = (id: string, label: string, value: string, on: (v: string) => void) => {
    const f = el('vscode-textfield', {
      attrs: { id, 'aria-label': label },
      on: { input: (e) => on((e.target as HTMLInputElement).value) },
    }) as HTMLElement & { value: string };
    f.value = value;
    return el('label', { class: 'field' }, el('span', {}, label), f);
  };
  const area = el('vscode-textarea', {
    attrs: {
      id: 'part-keys',
      'aria-label': 'Written keys, one per line',
      rows: 4,
      placeholder: 'One written key per line (leave empty to use the template)',
    },
    on: { input: (e) => update({ keys: (e.target as HTMLTextAreaElement).value }) },
  }) as HTMLElement & { value: string };
  area.value = state.keys;
  const draw = () => {
    const pasted = state.keys
      .split(/\r?\n/)
      .map((k) => k.trim())
      .filter(Boolean)
      .slice(0, MAX_WRITES);
    const writes = pasted.length ? pasted : writesOf(state.template, Math.min(state.count, MAX_WRITES));
    if (writes.length === 0) {
      fill(result, el('p', { class: 'muted' }, 'No writes to spread.'));
      return;
    }
    fill(
      result,
      histogram(
        `Without a shard suffix (${plural(new Set(writes).size, 'distinct key')})`,
        spread(writes, state.partitions),
      ),
      histogram(
        `With a shard suffix #0..${state.shards - 1}`,
        spread(withSuffix(writes, state.shards), state.partitions),
      ),
    );
  };
  fill(
    root,
    el(
      'p',
      { class: 'note', attrs: { id: 'teaching-note' } },
      "Teaching hash (FNV-1a modulo the partition count), not DynamoDB's internal hash: it shows how keys spread, not where DynamoDB puts them.",
    ),
    el('label', { class: 'field wide' }, el('span', {}, 'Written keys'), area),
    input('part-template', 'or a template ({n} = the write number)', state.template, (v) => update({ template: v })),
    input('part-count', 'Writes', String(state.count), (v) => update({ count: clampInt(v, 1, MAX_WRITES, 1000) })),
    input('part-partitions', 'Partitions', String(state.partitions), (v) =>
      update({ partitions: clampInt(v, 1, 64, 8) }),
    ),
    input('part-shards', 'Shard suffix count', String(state.shards), (v) =>
      update({ shards: clampInt(v, 1, 1000, 10) }),
    ),
    result,
  );
  draw();
}
