// Text layout of the demo's result: per-second accepted/throttled writes of
// both phases side by side, then a summary with what CloudWatch and
// Contributor Insights report for each phase.

import type { LoadResult } from './load/paced-load';

export interface PhaseReport {
  label: string;
  load: LoadResult;
  seconds: number;
  offeredPerSecond: number;
  /** CloudWatch sums over the phase. */
  consumed: number;
  throttleEvents: number;
  /** Throttle events per reason (CloudWatch's per-reason metrics). */
  reasons: Map<string, number>;
  /** Reasons named by whole-request throttling exceptions, and how many exceptions named each. */
  exceptionReasons: Map<string, number>;
  pkc: Array<{ key: string; value: number }>;
  pkt: Array<{ key: string; value: number }>;
}

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const pad = (s: string, w: number) => s.padStart(w);
const padEnd = (s: string, w: number) => s.padEnd(w);

export function formatReport(a: PhaseReport, b: PhaseReport): string {
  const col = 44;
  const lines: string[] = [];
  lines.push(`${padEnd('second', 8)}${padEnd(a.label, col)}${b.label}`);
  lines.push(
    `${padEnd('', 8)}${padEnd(`${pad('accepted', 10)}${pad('throttled', 11)}`, col)}${pad('accepted', 10)}${pad('throttled', 11)}`,
  );
  const rows = Math.max(a.load.perSecond.length, b.load.perSecond.length);
  const cell = (r: LoadResult, i: number) => {
    const s = r.perSecond[i];
    return s ? `${pad(n(s.accepted), 10)}${pad(n(s.throttled), 11)}` : '';
  };
  for (let i = 0; i < rows; i++)
    lines.push(`${pad(String(i + 1), 6)}  ${padEnd(cell(a.load, i), col)}${cell(b.load, i)}`);
  lines.push('');

  const row = (title: string, f: (p: PhaseReport) => string) => {
    const left = f(a);
    lines.push(`${padEnd(title, 34)}${padEnd(left, Math.max(col, left.length + 2))}${f(b)}`);
  };
  row('', (p) => p.label);
  row('offered writes/s', (p) => n(p.offeredPerSecond));
  row('accepted writes/s', (p) => n(p.load.accepted / p.seconds));
  row('throttled writes/s', (p) => n(p.load.throttled / p.seconds));
  row('CloudWatch ConsumedWCU/s', (p) => n(p.consumed / p.seconds));
  row('CloudWatch WriteThrottleEvents/s', (p) => n(p.throttleEvents / p.seconds));
  const reasonRows = Math.max(1, a.reasons.size, b.reasons.size);
  for (let i = 0; i < reasonRows; i++) {
    row(i === 0 ? 'throttling reasons' : '', (p) => {
      const e = [...p.reasons][i];
      if (!e) return i === 0 ? 'none' : '';
      const ex = p.exceptionReasons.get(e[0]);
      return `${e[0]}: ${n(e[1])} events${ex ? `, ${n(ex)} exceptions` : ''}`;
    });
  }
  const top = (title: string, pick: (p: PhaseReport) => Array<{ key: string; value: number }>) => {
    const k = Math.max(1, pick(a).length, pick(b).length);
    for (let i = 0; i < k; i++) {
      row(i === 0 ? title : '', (p) => {
        const c = pick(p)[i];
        return c ? `${c.key}  ${n(c.value)}` : i === 0 ? 'none' : '';
      });
    }
  };
  top('Contributor Insights PKC top 3', (p) => p.pkc);
  top('Contributor Insights PKT top 3', (p) => p.pkt);
  if (a.load.skipped + b.load.skipped > 0 || a.load.errors.size + b.load.errors.size > 0) {
    lines.push('');
    lines.push(
      `note: ${a.load.skipped + b.load.skipped} batches not started (64 in flight); errors: ${JSON.stringify([...a.load.errors, ...b.load.errors])}`,
    );
  }
  lines.push('');
  lines.push('PKC counts ConsumedThroughputUnits (3 x WCU + RCU) per partition key; PKT counts throttle events.');
  return lines.join('\n') + '\n';
}
