import type { FetchResult } from './fetch';

/** The fetches the heat service keeps (service.ts), per connection, table, index and window. */
export interface HeatCache {
  /** How long a fetch is reused, in ms. */
  ttlMs: number;
  entries: Map<string, { at: number; result: Promise<FetchResult> }>;
}

export function newHeatCache(ttlMs = 60_000): HeatCache {
  return { ttlMs, entries: new Map() };
}
