import { describeShards, formatUnits } from '../engine';
import { throttleText } from './hot-key-live';
import type { HeatProblem, HeatReport, LiveKey } from './types';

/**
 * `shardlens heat --format text`: the linked report for a terminal. Units are
 * Contributor Insights' ConsumedThroughputUnits (3 × write units + read units), so
 * reads and writes add up on one scale; the header says so once.
 */

const pad = (s: string, n: number) => s + ' '.repeat(Math.max(0, n - s.length));
const num = (n: number | null) => (n === null ? '-' : formatUnits(Math.round(n)));
const pct = (x: number | null) => (x === null ? '-' : x > 0 && x < 0.01 ? '<1%' : `${Math.round(x * 100)}%`);

export function formatHeatText(r: HeatReport, pathOf: (file: string) => string): string {
  const lines: string[] = [];
  const what = r.index ? `index ${r.index} of table ${r.table}` : `table ${r.table}`;
  const mode = r.mode ? `Contributor Insights ${r.mode}` : 'Contributor Insights off';
  const billing = r.billingMode === 'PAY_PER_REQUEST' ? 'on-demand' : 'provisioned';
  lines.push(`${what} · last ${r.window} · ${mode} · ${billing}`);
  if (r.totalUnits !== null)
    lines.push(`${num(r.totalUnits)} consumed units in all (units = 3 × write units + read units)`);
  if (r.metrics) {
    const m = r.metrics;
    const reasons = Object.entries(m.throttlesByReason).map(([k, v]) => `${k} ${num(v)}`);
    lines.push(
      `CloudWatch: ${num(m.consumedWriteUnits)} WCU, ${num(m.consumedReadUnits)} RCU consumed; ` +
        `${num(m.writeThrottleEvents)} write and ${num(m.readThrottleEvents)} read throttle events` +
        (reasons.length ? ` (${reasons.join(', ')})` : ''),
    );
  }
  lines.push('');

  if (r.keys.length === 0)
    lines.push(r.mode ? 'No live key of this resource matches a key in the code.' : 'No per-key data.');
  else {
    const rows = r.keys.map((k) => [
      `${k.rank}`,
      pct(k.share),
      num(k.consumedUnits),
      formatUnits(k.throttles),
      k.key.id,
    ]);
    const head = ['#', 'share', 'units', 'throttles', 'logical key'];
    const widths = head.map((h, c) => Math.max(h.length, ...rows.map((x) => x[c].length)));
    lines.push(
      head
        .map((h, c) => pad(h, widths[c]))
        .join('  ')
        .trimEnd(),
    );
    r.keys.forEach((k, i) => {
      lines.push(
        rows[i]
          .map((x, c) => pad(x, widths[c]))
          .join('  ')
          .trimEnd(),
      );
      const indent = '    ';
      const sites = [...new Set(k.sites.map((s) => `${pathOf(s.file)}:${s.span.startLine + 1} (${s.kind})`))];
      if (sites.length) lines.push(`${indent}code: ${sites.join(', ')}`);
      // Whose calls met the throttles: the writers' are not the readers'.
      if (k.throttles > 0) lines.push(`${indent}${throttleText(k)}`);
      if (k.shards && k.key.shards) {
        const b = k.shardBalance;
        const balance = b && b.mean > 0 ? `, max ${b.ratio.toFixed(1)}× mean (shard ${b.maxShard})` : '';
        lines.push(
          `${indent}${describeShards(k.key.shards)}${balance}: ` +
            k.shards.map((s) => `${s.shard}=${num(s.consumedUnits)}`).join(' '),
        );
      }
      for (const t of k.topKeys.slice(0, 5)) lines.push(`${indent}${liveKeyText(t)}`);
      if (k.topKeys.length > 5) lines.push(`${indent}… ${k.topKeys.length - 5} more`);
    });
  }
  if (r.unmatched.length) {
    lines.push('', 'Live keys no code matches (heat from code ShardLens has not seen):');
    for (const u of r.unmatched) lines.push(`    ${liveKeyText(u)}`);
  }
  if (r.problems.length) {
    lines.push('');
    for (const p of r.problems) lines.push(problemText(p));
  }
  return lines.join('\n') + '\n';
}

function liveKeyText(k: LiveKey): string {
  const units = k.consumedUnits === null ? '' : `${num(k.consumedUnits)} units  `;
  return `${k.key}  ${units}${formatUnits(k.throttles)} throttles`;
}

export function problemText(p: HeatProblem): string {
  return `note: ${p.message}${p.command ? `\n      ${p.command}` : ''}`;
}
