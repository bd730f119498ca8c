import type { Contributor, KeyOps, OpHeat, PeriodOps } from './types';

/**
 * Whose were a key's units and throttles: its readers' or its writers'? Contributor
 * Insights cannot say (PKC counts 3 × write units + read units on one scale, PKT every
 * throttle event, per key), but CloudWatch splits the resource's reads from its writes
 * per period. Within one period a key's reads cannot exceed the resource's reads, nor its
 * writes the resource's writes, so whatever of the key's figure the one side cannot hold
 * is proven to be the other's. In a period with only writes that is all of it; in a
 * period with both, what neither bound settles stays `unknown`. A key only written (or
 * only read) in the code then takes its unknown share too (`resolveByCode`).
 */

export type Op = 'read' | 'write';
type Split = Record<Op | 'unknown', number>;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** Splits `v` between reads and writes knowing the resource's `reads` and `writes` of the same period. */
function split(v: number, reads: number, writes: number): Split {
  if (reads + writes <= 0) return { read: 0, write: 0, unknown: v };
  const write = clamp(v - reads, 0, v);
  const read = clamp(v - writes, 0, v - write);
  return { read, write, unknown: v - read - write };
}

/** A key's consumed units in one period: reads count 1 per read unit, writes 3 per write unit. */
export function splitUnits(v: number, p: PeriodOps | undefined): Split {
  return p ? split(v, p.readUnits, 3 * p.writeUnits) : { read: 0, write: 0, unknown: v };
}

/** A key's throttle events in one period. */
export function splitThrottles(v: number, p: PeriodOps | undefined): Split {
  return p ? split(v, p.readThrottles, p.writeThrottles) : { read: 0, write: 0, unknown: v };
}

/** Figures of one live key by operation, as linking sums them: units, throttles, busiest period's units. */
export interface OpSums {
  units: number;
  throttles: number;
  peak: number;
}
export type OpsSums = Record<Op | 'unknown', OpSums>;

export const emptyOps = (): OpsSums => ({
  read: { units: 0, throttles: 0, peak: 0 },
  write: { units: 0, throttles: 0, peak: 0 },
  unknown: { units: 0, throttles: 0, peak: 0 },
});

const OPS = ['read', 'write', 'unknown'] as const;

/** Adds a PKC contributor's units to `into`, period by period (all unknown without datapoints). */
export function addUnits(into: OpsSums, c: Contributor, periods: Map<number, PeriodOps>): void {
  if (c.points.length === 0) {
    into.unknown.units += c.value;
    into.unknown.peak = Math.max(into.unknown.peak, c.peak);
    return;
  }
  for (const pt of c.points) {
    const s = splitUnits(pt.v, periods.get(pt.t));
    for (const op of OPS) {
      into[op].units += s[op];
      into[op].peak = Math.max(into[op].peak, s[op]);
    }
  }
}

/** Adds a PKT contributor's throttle events to `into`, period by period. */
export function addThrottles(into: OpsSums, c: Contributor, periods: Map<number, PeriodOps>): void {
  if (c.points.length === 0) {
    into.unknown.throttles += c.value;
    return;
  }
  for (const pt of c.points) {
    const s = splitThrottles(pt.v, periods.get(pt.t));
    for (const op of OPS) into[op].throttles += s[op];
  }
}

/** The sum of several live keys' figures (the members of one logical key). */
export function sumOps(all: OpsSums[]): OpsSums {
  const out = emptyOps();
  for (const o of all)
    for (const op of OPS) {
      out[op].units += o[op].units;
      out[op].throttles += o[op].throttles;
      out[op].peak = Math.max(out[op].peak, o[op].peak);
    }
  return out;
}

/**
 * A key the code only writes (or only reads) gets the figures the periods left open:
 * nothing else of the code could have made them. With both kinds of call they stay open.
 */
export function resolveByCode(o: OpsSums, kinds: Set<Op>): OpsSums {
  if (kinds.size !== 1) return o;
  const only = [...kinds][0];
  const u = o.unknown;
  return {
    ...o,
    [only]: {
      units: o[only].units + u.units,
      throttles: o[only].throttles + u.throttles,
      peak: Math.max(o[only].peak, u.peak),
    },
    unknown: { units: 0, throttles: 0, peak: 0 },
  };
}

/** The report's form: units and peaks per second, null when the mode counts no units. */
export function toKeyOps(o: OpsSums, units: boolean, periodSeconds: number): KeyOps {
  const one = (x: OpSums): OpHeat => ({
    consumedUnits: units ? x.units : null,
    throttles: x.throttles,
    peakUnitsPerSecond: units ? x.peak / periodSeconds : null,
  });
  return { read: one(o.read), write: one(o.write), unknown: one(o.unknown) };
}
