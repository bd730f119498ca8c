import { isTransient } from './errors';

/**
 * Retries for the monitoring APIs. CloudWatch's GetInsightRuleReport and GetMetricData
 * have low per-account rates, and several editors (or a CI job) may poll one account:
 * when AWS throttles, wait with "full jitter" (a random pause up to a growing cap) so
 * the callers spread out instead of retrying in step, and give up after a few tries
 * with the last error, which the caller turns into a message.
 */
export interface BackoffOptions {
  /** Tries in all, the first included. Default 4. */
  attempts?: number;
  /** The cap of the first pause; doubles on each retry. Default 250 ms. */
  baseMs?: number;
  /** The largest pause. Default 4 s. */
  maxMs?: number;
  /** For tests: a deterministic random source and clock. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Called before each pause, with the attempt just failed (1-based). */
  onRetry?: (attempt: number, pauseMs: number, error: unknown) => void;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The pause before retry `attempt` (1-based): uniform in [0, min(max, base × 2^(attempt-1))]. */
export function backoffDelay(attempt: number, random: () => number, baseMs = 250, maxMs = 4000): number {
  return Math.round(random() * Math.min(maxMs, baseMs * 2 ** (attempt - 1)));
}

export async function withBackoff<T>(call: () => Promise<T>, o: BackoffOptions = {}): Promise<T> {
  const attempts = o.attempts ?? 4;
  const random = o.random ?? Math.random;
  const sleep = o.sleep ?? realSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (e) {
      if (attempt >= attempts || !isTransient(e)) throw e;
      const pause = backoffDelay(attempt, random, o.baseMs, o.maxMs);
      o.onRetry?.(attempt, pause, e);
      await sleep(pause);
    }
  }
}

/**
 * The pause before the next background refresh: the refresh interval with ±20% jitter,
 * doubled for each refresh in a row that AWS throttled (up to 8×), so a throttled
 * account is polled less until it recovers.
 */
export function nextPollDelay(intervalMs: number, throttledInARow: number, random: () => number = Math.random): number {
  const slow = 2 ** Math.min(3, Math.max(0, throttledInARow));
  return Math.round(intervalMs * slow * (0.8 + 0.4 * random()));
}

/**
 * Polls `refresh` until stopped: each run waits for the previous one (nothing piles up
 * when AWS is slow), then sleeps `nextPollDelay`. `refresh` reports whether AWS
 * throttled it.
 */
export function startPolling(
  refresh: () => Promise<{ throttled: boolean }>,
  intervalMs: number,
  random: () => number = Math.random,
): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let throttledInARow = 0;
  const run = async () => {
    if (stopped) return;
    try {
      const r = await refresh();
      throttledInARow = r.throttled ? throttledInARow + 1 : 0;
    } catch {
      throttledInARow++;
    }
    if (!stopped) timer = setTimeout(run, nextPollDelay(intervalMs, throttledInARow, random));
  };
  timer = setTimeout(run, 0);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
