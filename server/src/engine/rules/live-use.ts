import type { KeyUse, LiveUse } from '../model';
import { formatUnits } from '../requests/capacity';

/**
 * Read-hot or write-hot from live data: what a key's readers and writers consumed over a
 * window, where the heat service could tell them apart. The code's verdict counts call
 * sites and entry points; live figures count the traffic, so when they say something
 * they decide. Pure functions of plain data: the heat layer builds the `LiveUse`.
 */

/** One side takes at least a third of the other's load to count as hot: the code's MOSTLY ratio. */
const MOSTLY = 3;

/** A write unit loads a partition as three read units do (1,000 WCU/s and 3,000 RCU/s are one ceiling). */
const WRITE_WEIGHT = 3;

/**
 * The verdict the live figures give, or null when they give none: no traffic or throttle
 * of either side in the window. A side that was throttled is hot; otherwise a side is hot
 * when its load on the partition (write units weigh 3) is at least a third of the other's.
 */
export function liveVerdict(l: LiveUse): Pick<KeyUse, 'verdict' | 'mostly'> | null {
  const read = l.readUnits;
  const write = WRITE_WEIGHT * l.writeUnits;
  if (read + write <= 0 && l.readThrottles + l.writeThrottles <= 0) return null;
  const readHot = l.readThrottles > 0 || (read > 0 && MOSTLY * read >= write);
  const writeHot = l.writeThrottles > 0 || (write > 0 && MOSTLY * write >= read);
  if (readHot && writeHot) return { verdict: 'both' };
  if (readHot) return write > 0 ? { verdict: 'read', mostly: true } : { verdict: 'read' };
  return { verdict: 'write' };
}

/** The code's verdict with the live one in its place when live data gives one (the code's counts kept). */
export function withLiveUse(code: KeyUse, live: LiveUse): KeyUse {
  const v = liveVerdict(live);
  if (!v) return code;
  const { mostly: _, live: __, ...counts } = code;
  return { ...counts, ...v, live };
}

const rate = (n: number) => formatUnits(Math.round(n * 10) / 10);
const throttles = (n: number, side: string) =>
  n > 0 ? `, ${formatUnits(n)} ${side} throttle${n === 1 ? '' : 's'}` : '';

/** `live (15m): peaks of 2,900 read units/s and 40 write units/s, 120 write throttles`. */
export function liveText(l: LiveUse): string {
  return (
    `live (${l.window}): peaks of ${rate(l.readPeak)} read units/s and ${rate(l.writePeak)} write units/s` +
    throttles(l.readThrottles, 'read') +
    throttles(l.writeThrottles, 'write')
  );
}
