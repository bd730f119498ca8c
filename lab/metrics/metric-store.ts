// CloudWatch-style metric series for the AWS/DynamoDB namespace: one time
// ring of statistics per metric name and exact dimension set, as CloudWatch
// matches a query's dimensions exactly.

import { Stat } from './stat';
import { TimeRing, type Bucket } from './time-ring';

export type Dimensions = Record<string, string>;

export interface SeriesId {
  name: string;
  dimensions: Dimensions;
}

function seriesKey(name: string, dims: Dimensions): string {
  const parts = Object.keys(dims)
    .sort()
    .map((k) => `${k}=${dims[k]}`);
  return `${name}|${parts.join('|')}`;
}

export class MetricStore {
  private readonly series = new Map<string, { id: SeriesId; ring: TimeRing<Stat> }>();

  constructor(
    readonly periodMs: number,
    readonly retention: number,
  ) {}

  add(name: string, dimensions: Dimensions, value: number, now: number): void {
    this.ring(name, dimensions).at(now).add(value);
  }

  /** The ring of one series, created on first use; callers on the hot path may hold on to it. */
  ring(name: string, dimensions: Dimensions): TimeRing<Stat> {
    const key = seriesKey(name, dimensions);
    let s = this.series.get(key);
    if (!s) {
      s = { id: { name, dimensions }, ring: new TimeRing(this.periodMs, this.retention, () => new Stat()) };
      this.series.set(key, s);
    }
    return s.ring;
  }

  /**
   * Statistics per requested period in [startMs, endMs): the lab's own
   * buckets summed into periods of `periodMs` (a multiple of the lab period).
   */
  query(name: string, dimensions: Dimensions, startMs: number, endMs: number, periodMs: number): Bucket<Stat>[] {
    const s = this.series.get(seriesKey(name, dimensions));
    if (!s) return [];
    const out = new Map<number, Stat>();
    for (const b of s.ring.range(startMs, endMs)) {
      const start = startMs + Math.floor((b.start - startMs) / periodMs) * periodMs;
      let agg = out.get(start);
      if (!agg) out.set(start, (agg = new Stat()));
      agg.merge(b.value);
    }
    return [...out].map(([start, value]) => ({ start, value })).sort((a, b) => a.start - b.start);
  }

  /** Drops every series of a table (DeleteTable). */
  dropTable(table: string): void {
    for (const [k, s] of this.series) if (s.id.dimensions.TableName === table) this.series.delete(k);
    this.generation++;
  }

  /** Bumped whenever series are dropped, so holders of rings know to look them up again. */
  generation = 0;

  list(): SeriesId[] {
    return [...this.series.values()].map((s) => s.id);
  }
}
