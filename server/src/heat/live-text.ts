import { formatUnits } from '../engine/capacity';
import { logicalKeysOf } from '../engine/keys/logical-key';
import type { Access } from '../engine/model';
import type { HeatReport, KeyHeat } from './types';

/**
 * What the editor and the CLI say about one key's live heat. The language server's
 * hover, code lens and diagnostics call these with the report the heat service
 * returned; nothing here fetches.
 */

const pct = (x: number) => (x > 0 && x < 0.01 ? '<1%' : `${Math.round(x * 100)}%`);
const plural = (n: number, w: string) => `${formatUnits(n)} ${w}${n === 1 ? '' : 's'}`;

/** `1h` or `1h on index byStatus`. */
export function windowText(report: HeatReport): string {
  return report.index ? `${report.window}, index ${report.index}` : report.window;
}

/** The key's entry in a report by logical key id (`leaderboard · PK = BOARD#global`), or null. */
export function heatForKey(report: HeatReport, logicalKeyId: string): KeyHeat | null {
  return report.keys.find((k) => k.key.id === logicalKeyId) ?? null;
}

/**
 * The entry for an access: its own logical key, else the sharded key it reads one
 * shard of (a read of `BOARD#global#3` is counted under `BOARD#global`).
 */
export function heatForAccess(report: HeatReport, access: Access): KeyHeat | null {
  for (const k of logicalKeysOf(access)) {
    const h = k && heatForKey(report, k.id);
    if (h) return h;
  }
  return null;
}

/**
 * The hover's live line: `Live (1h): #1 of 4 keys · 62% of consumed units · 1,900 throttles · shards: max 2.1× mean`.
 * For a key with no entry: it is not among the (at most 25) contributors reported.
 */
export function liveLine(report: HeatReport, heat: KeyHeat | null): string {
  const head = `Live (${windowText(report)})`;
  if (!heat) {
    return report.mode
      ? `${head}: not among the top contributors of table ${report.table}.`
      : `${head}: no per-key data (Contributor Insights is off on table ${report.table}).`;
  }
  const parts = [`#${heat.rank} of ${report.keys.length} ${report.keys.length === 1 ? 'key' : 'keys'}`];
  if (heat.share !== null) parts.push(`${pct(heat.share)} of consumed units`);
  parts.push(plural(heat.throttles, 'throttle'));
  if (heat.shardBalance) {
    const b = heat.shardBalance;
    parts.push(b.mean > 0 ? `shards: max ${b.ratio.toFixed(1)}× mean (shard ${b.maxShard})` : 'shards: idle');
  }
  return `${head}: ${parts.join(' · ')}`;
}

/** The code lens title: `41% of table traffic · 120 throttles (1h)`. */
export function codeLensTitle(report: HeatReport, heat: KeyHeat): string {
  const parts: string[] = [];
  if (heat.share !== null) parts.push(`${pct(heat.share)} of ${report.index ? 'index' : 'table'} traffic`);
  parts.push(plural(heat.throttles, 'throttle'));
  return `${parts.join(' · ')} (${report.window})`;
}

/**
 * The evidence sentence appended to a finding's message when live data backs it:
 * ` Live (1h): 1,900 throttle events, 62% of table leaderboard's consumed units.`
 */
export function evidenceText(report: HeatReport, heat: KeyHeat): string {
  const parts = [plural(heat.throttles, 'throttle event')];
  if (heat.share !== null)
    parts.push(
      `${pct(heat.share)} of ${report.index ? `index ${report.index}` : `table ${report.table}`}'s consumed units`,
    );
  return ` Live (${report.window}): ${parts.join(', ')}.`;
}
