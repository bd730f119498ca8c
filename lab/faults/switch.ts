// The lab's fault switch: makes the endpoint answer as AWS does when things go
// wrong for the caller rather than for the table, so clients (the heat
// service, the editor) can be tested on the error paths with the real SDKs:
// AccessDenied naming the action, an expired security token, throttling of
// the monitoring APIs, slow answers, and Contributor Insights reported off.

export type FaultKind = 'access-denied' | 'expired-token' | 'throttle' | 'slow' | 'insights-disabled';

export const FAULT_KINDS: readonly FaultKind[] = [
  'access-denied',
  'expired-token',
  'throttle',
  'slow',
  'insights-disabled',
];

export interface Fault {
  kind: FaultKind;
  /** The operation it hits (`GetInsightRuleReport`, `DescribeTable`); every operation when absent. */
  operation?: string;
  /** How many requests it hits before it is spent; every one while set when absent. */
  times?: number;
  /** For `slow`: how long the request waits before it is served. Default 5,000 ms. */
  delayMs?: number;
}

interface Armed extends Fault {
  left: number;
}

export class FaultSwitch {
  private armed: Armed[] = [];
  /** Requests each kind has hit, for tests that check how often a client retried. */
  readonly hits = new Map<FaultKind, number>();

  /** Replaces the active faults. Throws on a malformed fault (the HTTP control answers 400). */
  set(faults: Fault[]): void {
    for (const f of faults) {
      if (!f || !FAULT_KINDS.includes(f.kind)) throw new Error(`fault kind must be one of ${FAULT_KINDS.join(', ')}`);
      if (f.times !== undefined && !(Number.isInteger(f.times) && f.times > 0))
        throw new Error('times must be a positive integer');
      if (f.delayMs !== undefined && !(f.delayMs >= 0 && f.delayMs <= 600_000))
        throw new Error('delayMs must be 0..600000');
    }
    this.armed = faults.map((f) => ({ ...f, left: f.times ?? Infinity }));
    this.hits.clear();
  }

  add(fault: Fault): void {
    const keep = this.list();
    this.set([...keep, fault]);
  }

  clear(): void {
    this.armed = [];
    this.hits.clear();
  }

  list(): Fault[] {
    return this.armed.map(({ left, ...f }) => ({ ...f, ...(Number.isFinite(left) ? { times: left } : {}) }));
  }

  get active(): boolean {
    return this.armed.length > 0;
  }

  /** The first fault for this operation, counted as spent by one; undefined when none applies. */
  take(operation: string, applies: (f: Fault) => boolean = () => true): Fault | undefined {
    const f = this.armed.find(
      (x) => x.left > 0 && (x.operation === undefined || x.operation === operation) && applies(x),
    );
    if (!f) return undefined;
    f.left--;
    this.hits.set(f.kind, (this.hits.get(f.kind) ?? 0) + 1);
    if (f.left <= 0) this.armed = this.armed.filter((x) => x !== f);
    return f;
  }
}
