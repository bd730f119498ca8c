import {
  defaultSeverityOf,
  type Finding,
  formatUnits,
  hotKeyLive,
  READ_UNITS_PER_PARTITION,
  WRITE_UNITS_PER_PARTITION,
} from '../engine';
import { windowText } from './live-text';
import type { HeatReport, KeyHeat, KeyOps } from './types';

/**
 * SL009 hot-key-live: a finding made from live data, not from the code. A key is
 * reported when one of its partition key values ran above 80% of a partition's
 * ceiling in some report period, or when one shard of a sharded key took more than
 * 3× its set's mean (the spread the shard count was chosen for is not happening).
 *
 * Contributor Insights counts ConsumedThroughputUnits = 3 × write units + read units.
 * A partition serves 1,000 WCU/s (= 3,000 units) and 3,000 RCU/s (= 3,000 units):
 * in these units both ceilings are the same figure, so one threshold holds whatever
 * the mix of reads and writes. The rule's metadata (code, category, severities) is the
 * engine's `hotKeyLive` (engine/rules/SL009-hot-key-live.ts): a key with any throttle
 * event is a warning (DynamoDB refused requests), one only near its ceiling or with an
 * uneven shard is info. The user's severity for SL009 is applied after, as for any rule
 * (config/apply.ts `judgeFinding`, in the CLI and the language server).
 */

/** One partition's ceiling in ConsumedThroughputUnits per second. */
export const PARTITION_CEILING_UNITS = Math.min(3 * WRITE_UNITS_PER_PARTITION, READ_UNITS_PER_PARTITION);
export const NEAR_CEILING = 0.8;
export const UNEVEN_SHARD_RATIO = 3;

export interface HotKeyLive {
  key: KeyHeat;
  nearCeiling: boolean;
  /** Any throttle event at all: a key refused by its partition was at its ceiling, whatever its average. */
  throttled: boolean;
  unevenShards: boolean;
  /** The operations that ran hot (throttled or near the ceiling): where the findings go. */
  ops: Array<keyof KeyOps>;
  message: string;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const OP_WORDS: Record<keyof KeyOps, string> = { write: 'writes', read: 'reads', unknown: 'reads or writes' };

/** `6,978 throttle events, all on writes` / `30 on writes, 2 on reads`. */
export function throttleText(k: KeyHeat): string {
  const by = (['write', 'read', 'unknown'] as const).filter((op) => k.operations[op].throttles > 0);
  const total = `${formatUnits(k.throttles)} throttle event${k.throttles === 1 ? '' : 's'}`;
  if (by.length === 1) return `${total}, all on ${OP_WORDS[by[0]]}`;
  return `${total}: ${by.map((op) => `${formatUnits(k.operations[op].throttles)} on ${OP_WORDS[op]}`).join(', ')}`;
}

/**
 * The keys of a report that SL009 reports, with the message. The peak is the busiest
 * report period's (never the window's average), and any throttle event raises it: a
 * partition refuses requests only at its ceiling, which a period's average can hide.
 */
export function hotKeysLive(report: HeatReport): HotKeyLive[] {
  const out: HotKeyLive[] = [];
  for (const k of report.keys) {
    const peak = k.peakUnitsPerSecond ?? 0;
    const nearCeiling = peak > NEAR_CEILING * PARTITION_CEILING_UNITS;
    const throttled = k.throttles > 0;
    const b = k.shardBalance;
    const unevenShards = b !== null && b.mean > 0 && b.ratio > UNEVEN_SHARD_RATIO;
    if (!nearCeiling && !throttled && !unevenShards) continue;
    const ops = (['write', 'read', 'unknown'] as const).filter((op) => {
      const o = k.operations[op];
      return o.throttles > 0 || (o.peakUnitsPerSecond ?? 0) > NEAR_CEILING * PARTITION_CEILING_UNITS;
    });
    const parts: string[] = [];
    if (throttled) parts.push(`${throttleText(k)} (a partition throttles only at its ceiling)`);
    if (nearCeiling) {
      const hottest = k.topKeys.reduce((a, x) => ((x.peakUnitsPerSecond ?? 0) > (a.peakUnitsPerSecond ?? 0) ? x : a));
      parts.push(
        `"${hottest.key}" peaked at ${formatUnits(Math.round(peak))} consumed units/s in its busiest ${report.periodSeconds}-second period, ${pct(peak / PARTITION_CEILING_UNITS)} of one partition's ceiling ` +
          `(${formatUnits(WRITE_UNITS_PER_PARTITION)} WCU/s or ${formatUnits(READ_UNITS_PER_PARTITION)} RCU/s)`,
      );
    }
    if (unevenShards) {
      parts.push(
        `shard ${b!.maxShard} took ${formatUnits(Math.round(b!.max))} units, ${b!.ratio.toFixed(1)}× the mean of its ${k.shards!.length} shards`,
      );
    }
    out.push({
      key: k,
      nearCeiling,
      throttled,
      unevenShards,
      ops,
      message: `Live traffic on ${k.key.id} (${windowText(report)}): ${parts.join('; ')}.`,
    });
  }
  return out;
}

/**
 * SL009 as findings at the call sites that did it: the writers for what writes did,
 * the readers for what reads did. What no period could attribute, and an uneven shard
 * set (the writers choose the shard), goes to the writers when there are any.
 */
export function hotKeyLiveFindings(report: HeatReport): Finding[] {
  const out: Finding[] = [];
  for (const h of hotKeysLive(report)) {
    const writers = h.key.sites.filter((s) => s.kind === 'write');
    const toWriters = h.ops.includes('write') || h.ops.includes('unknown') || h.unevenShards;
    const sites = h.key.sites.filter(
      (s) => (s.kind === 'write' && toWriters) || (s.kind === 'read' && h.ops.includes('read')),
    );
    const at = sites.length ? sites : writers.length ? writers : h.key.sites;
    const messageId = h.throttled ? 'throttled' : 'liveTraffic';
    for (const s of at) {
      out.push({
        file: s.file,
        span: s.span,
        rule: hotKeyLive.code,
        category: hotKeyLive.category,
        severity: defaultSeverityOf(hotKeyLive, messageId),
        message: h.message,
        messageId,
        access: s.access,
        related: [],
        fixes: [],
      });
    }
  }
  return out;
}
