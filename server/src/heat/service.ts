import type { BackoffOptions } from './backoff';
import { makeClients } from './clients';
import { isLoopback } from './loopback';
import { regionLooksValid, unknownRegion } from './errors';
import { fetchLive, type FetchResult } from './fetch';
import { linkReport, type KeySource } from './link';
import { isPlaceholderTable, unmappedProblem } from './unmapped';
import type { HeatConnection, HeatOutcome, HeatTarget } from './types';
import { periodFor } from './window';
import type { HeatCache } from './heat-cache';

/**
 * The heat service's one entry: fetch (or reuse) what AWS reports for a table or
 * index over a window, and link it to the workspace's keys. The CLI calls it once;
 * the language server calls it per hover and code lens, so fetches are cached per
 * connection, table, index and window, and a fetch in flight is shared. What is
 * cached is the raw live data: linking runs on every call, against the code as it
 * is now.
 */

export interface HeatCallOptions {
  cache?: HeatCache;
  /** Ask AWS again even when the cache holds a fresh answer (the refresh command). */
  refresh?: boolean;
  /** Ask AWS again when the cached answer is older than this (the panel's reads), whatever the cache's TTL. */
  maxAgeMs?: number;
  nowMs?: number;
  backoff?: BackoffOptions;
}

function cacheKey(c: HeatConnection, t: HeatTarget): string {
  return JSON.stringify([
    c.endpoint ?? '',
    c.profile ?? '',
    c.region ?? '',
    t.table,
    t.index ?? '',
    t.window,
    t.periodSeconds ?? periodFor(t.window),
  ]);
}

/**
 * One fetch with fresh clients. A local endpoint (the lab) checks no signature, so
 * when the default chain has no credentials and the user named no profile, the
 * request is signed with placeholders instead of failing.
 */
async function fetchOnce(
  connection: HeatConnection,
  target: HeatTarget,
  nowMs: number,
  backoff?: BackoffOptions,
): Promise<FetchResult> {
  if (connection.region && !regionLooksValid(connection.region)) {
    return { ok: false, problem: unknownRegion(connection.region), error: null };
  }
  let clients = makeClients(connection);
  try {
    let r = await fetchLive(clients, target, nowMs, backoff);
    const local = isLoopback(connection.endpoint) && !connection.profile;
    if (!r.ok && local && (r.error as { name?: string } | null)?.name === 'CredentialsProviderError') {
      clients.destroy();
      clients = makeClients(connection, true);
      r = await fetchLive(clients, target, nowMs, backoff);
    }
    return r;
  } finally {
    clients.destroy();
  }
}

export async function getHeat(
  connection: HeatConnection,
  target: HeatTarget,
  source: KeySource,
  options: HeatCallOptions = {},
): Promise<HeatOutcome> {
  // A name the code reads from the environment is not a table AWS knows: never sent.
  if (isPlaceholderTable(target.table)) return { ok: false, problem: unmappedProblem([target.table]) };
  const now = options.nowMs ?? Date.now();
  let result: Promise<FetchResult>;
  const cache = options.cache;
  if (cache) {
    const key = cacheKey(connection, target);
    const hit = cache.entries.get(key);
    const ttl = Math.min(cache.ttlMs, options.maxAgeMs ?? Infinity);
    if (hit && !options.refresh && now - hit.at < ttl) result = hit.result;
    else {
      result = fetchOnce(connection, target, now, options.backoff);
      cache.entries.set(key, { at: now, result });
    }
  } else {
    result = fetchOnce(connection, target, now, options.backoff);
  }
  const r = await result;
  return r.ok ? { ok: true, report: linkReport(r.live, source, target.aliases) } : { ok: false, problem: r.problem };
}
