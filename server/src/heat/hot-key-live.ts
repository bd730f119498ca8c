import { READ_UNITS_PER_PARTITION, WRITE_UNITS_PER_PARTITION, formatUnits } from '../engine/capacity';
import type { Finding } from '../engine/model';
import { windowText } from './live-text';
import type { HeatReport, KeyHeat } from './types';

/**
 * SL009 hot-key-live: a finding made from live data, not from the code. A key is
 * reported when one of its partition key values ran above 80% of a partition's
 * ceiling in some report period, or when one shard of a sharded key took more than
 * 3× its set's mean (the spread the shard count was chosen for is not happening).
 *
 * Contributor Insights counts ConsumedThroughputUnits = 3 × write units + read units.
 * A partition serves 1,000 WCU/s (= 3,000 units) and 3,000 RCU/s (= 3,000 units):
 * in these units both ceilings are the same figure, so one threshold holds whatever
 * the mix of reads and writes.
 */
export const RULE = { code: 'SL009', name: 'hot-key-live', severity: 'info' as const };

/** One partition's ceiling in ConsumedThroughputUnits per second. */
export const PARTITION_CEILING_UNITS = Math.min(3 * WRITE_UNITS_PER_PARTITION, READ_UNITS_PER_PARTITION);
export const NEAR_CEILING = 0.8;
export const UNEVEN_SHARD_RATIO = 3;

export interface HotKeyLive {
  key: KeyHeat;
  nearCeiling: boolean;
  unevenShards: boolean;
  message: string;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The keys of a report that SL009 reports, with the message. */
export function hotKeysLive(report: HeatReport): HotKeyLive[] {
  const out: HotKeyLive[] = [];
  for (const k of report.keys) {
    const peak = k.peakUnitsPerSecond ?? 0;
    const nearCeiling = peak > NEAR_CEILING * PARTITION_CEILING_UNITS;
    const b = k.shardBalance;
    const unevenShards = b !== null && b.mean > 0 && b.ratio > UNEVEN_SHARD_RATIO;
    if (!nearCeiling && !unevenShards) continue;
    const parts: string[] = [];
    if (nearCeiling) {
      const hottest = k.topKeys.reduce((a, x) => ((x.peakUnitsPerSecond ?? 0) > (a.peakUnitsPerSecond ?? 0) ? x : a));
      parts.push(
        `"${hottest.key}" peaked at ${formatUnits(Math.round(peak))} consumed units/s, ${pct(peak / PARTITION_CEILING_UNITS)} of one partition's ceiling ` +
          `(${formatUnits(WRITE_UNITS_PER_PARTITION)} WCU/s or ${formatUnits(READ_UNITS_PER_PARTITION)} RCU/s)`,
      );
    }
    if (unevenShards) {
      parts.push(
        `shard ${b!.maxShard} took ${formatUnits(Math.round(b!.max))} units, ${b!.ratio.toFixed(1)}× the mean of its ${k.shards!.length} shards`,
      );
    }
    const throttles = k.throttles > 0 ? `; ${formatUnits(k.throttles)} throttle events` : '';
    out.push({
      key: k,
      nearCeiling,
      unevenShards,
      message: `Live traffic on ${k.key.id} (${windowText(report)}): ${parts.join('; ')}${throttles}.`,
    });
  }
  return out;
}

/**
 * SL009 as findings at the key's call sites (its writers when it has any: that is
 * where a shard suffix would go), for the CLI and diagnostics.
 */
export function hotKeyLiveFindings(report: HeatReport): Finding[] {
  const out: Finding[] = [];
  for (const h of hotKeysLive(report)) {
    const writers = h.key.sites.filter((s) => s.kind === 'write');
    for (const s of writers.length ? writers : h.key.sites) {
      out.push({
        file: s.file,
        span: s.span,
        rule: RULE.code,
        category: RULE.name,
        severity: RULE.severity,
        message: h.message,
        access: s.access,
        related: [],
        fixes: [],
      });
    }
  }
  return out;
}
