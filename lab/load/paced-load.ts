// Open-loop load at a target rate for a bounded time: requests start on a
// schedule whatever the replies do (as real traffic does), with a cap on
// requests in flight so a slow lab cannot pile up unbounded work. Every
// outcome is counted by the second it completed in.

export interface Outcome {
  /** Write or read units the lab accepted (0 when nothing was accepted). */
  acceptedUnits: number;
  /** Items or requests accepted / throttled by this call (a batch counts its items). */
  accepted: number;
  throttled: number;
  /** Throttling reasons named by the error, if any. */
  reasons?: string[];
  /** Set when the call failed for another reason than throttling. */
  error?: string;
}

export interface SecondStats {
  accepted: number;
  throttled: number;
  acceptedUnits: number;
}

export interface LoadResult {
  /** Calls started. */
  sent: number;
  /** Calls not started because `maxInFlight` calls were pending. */
  skipped: number;
  accepted: number;
  throttled: number;
  acceptedUnits: number;
  errors: Map<string, number>;
  reasons: Map<string, number>;
  perSecond: SecondStats[];
  /** Wall time from the first start to the last completion. */
  elapsedMs: number;
  /** Per-call latency in ms, for percentiles. */
  latencies: number[];
}

export interface LoadOptions {
  callsPerSecond: number;
  durationMs: number;
  maxInFlight?: number;
  /** Starts call number `i`. */
  call: (i: number) => Promise<Outcome>;
}

const TICK_MS = 5;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function runPacedLoad(o: LoadOptions): Promise<LoadResult> {
  const maxInFlight = o.maxInFlight ?? 64;
  const result: LoadResult = {
    sent: 0,
    skipped: 0,
    accepted: 0,
    throttled: 0,
    acceptedUnits: 0,
    errors: new Map(),
    reasons: new Map(),
    perSecond: [],
    elapsedMs: 0,
    latencies: [],
  };
  const start = performance.now();
  let inFlight = 0;
  let due = 0;
  const pending = new Set<Promise<void>>();

  const record = (out: Outcome, t0: number) => {
    const t = performance.now();
    result.latencies.push(t - t0);
    const sec = Math.floor((t - start) / 1000);
    const s = (result.perSecond[sec] ??= { accepted: 0, throttled: 0, acceptedUnits: 0 });
    s.accepted += out.accepted;
    s.throttled += out.throttled;
    s.acceptedUnits += out.acceptedUnits;
    result.accepted += out.accepted;
    result.throttled += out.throttled;
    result.acceptedUnits += out.acceptedUnits;
    for (const r of out.reasons ?? []) result.reasons.set(r, (result.reasons.get(r) ?? 0) + 1);
    if (out.error) result.errors.set(out.error, (result.errors.get(out.error) ?? 0) + 1);
  };

  const launch = (i: number) => {
    inFlight++;
    const t0 = performance.now();
    const p = o
      .call(i)
      .then(
        (out) => record(out, t0),
        (e: unknown) =>
          record({ accepted: 0, throttled: 0, acceptedUnits: 0, error: String((e as Error)?.name ?? e) }, t0),
      )
      .finally(() => {
        inFlight--;
        pending.delete(p);
      });
    pending.add(p);
  };

  while (performance.now() - start < o.durationMs) {
    const target = Math.floor(((performance.now() - start) / 1000) * o.callsPerSecond);
    while (due < target) {
      if (inFlight < maxInFlight) launch(result.sent++);
      else result.skipped++;
      due++;
    }
    await new Promise((r) => setTimeout(r, TICK_MS));
  }
  await Promise.all(pending);
  result.elapsedMs = performance.now() - start;
  for (let i = 0; i < result.perSecond.length; i++)
    result.perSecond[i] ??= { accepted: 0, throttled: 0, acceptedUnits: 0 };
  return result;
}
