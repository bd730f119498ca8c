// The metering layer between the wire and dynalite: admits or throttles each
// access (one item, or one Query's partition), settles what it really cost,
// and records the CloudWatch metrics and Contributor Insights data for it.

import type { InsightsRegistry } from '../insights/registry';
import type { Dimensions, MetricStore } from '../metrics/metric-store';
import type { Stat } from '../metrics/stat';
import type { TimeRing } from '../metrics/time-ring';
import { type Demand, type Limiter, type Verdict } from '../throttle/limiter';
import { throttlingError, type ServiceError, type ThrottlingReason } from './errors';

export interface Access extends Demand {
  /** Sort key value, for the SKC/SKT rules. */
  sk?: string;
  /** Set when the resource is a global index (its own CloudWatch dimension). */
  globalIndex?: boolean;
}

export interface Rejection {
  access: Access;
  verdict: Verdict;
}

function dims(a: Access): Dimensions {
  return a.resource.index && a.globalIndex
    ? { TableName: a.resource.table, GlobalSecondaryIndexName: a.resource.index }
    : { TableName: a.resource.table };
}

export class Meter {
  /** Metric rings by resource and name, so a request records into its series without building the series key. */
  private readonly rings = new Map<string, TimeRing<Stat>>();
  private ringsGeneration = 0;

  constructor(
    private readonly limiter: Limiter,
    private readonly metrics: MetricStore,
    private readonly insights: InsightsRegistry,
    readonly clock: () => number = Date.now,
  ) {}

  /** Admits every access (charging its estimate) or none; returns the refused ones. */
  admit(accesses: Access[]): Rejection[] {
    const now = this.clock();
    const refused: Rejection[] = [];
    for (const a of accesses) {
      const verdict = this.limiter.check(a, now);
      if (!verdict.ok) refused.push({ access: a, verdict });
    }
    if (refused.length === 0) for (const a of accesses) this.limiter.charge(a, a.units, now);
    return refused;
  }

  /** Admits one access (charging its estimate), or returns why not. */
  tryAdmit(a: Access): Rejection | undefined {
    const now = this.clock();
    const verdict = this.limiter.check(a, now);
    if (!verdict.ok) return { access: a, verdict };
    this.limiter.charge(a, a.units, now);
    return undefined;
  }

  /**
   * Records refused accesses: a throttle event each (and one per reason),
   * plus one ThrottledRequests for the request when `wholeRequest` is set.
   */
  recordThrottles(op: string, refused: Rejection[], wholeRequest: boolean): void {
    const now = this.clock();
    for (const { access: a, verdict } of refused) {
      const rw = a.dir === 'read' ? 'Read' : 'Write';
      this.add(a, `${rw}ThrottleEvents`, 1, now);
      for (const k of verdict.kinds) {
        const name = k === 'KeyRange' ? 'KeyRangeThroughput' : 'ProvisionedThroughput';
        this.add(a, `${rw}${name}ThrottleEvents`, 1, now);
      }
      this.insights.record(a.resource.table, a.resource.index, a.pk, a.sk, 0, 1, now);
    }
    if (wholeRequest && refused.length > 0) {
      this.metrics.add('ThrottledRequests', { TableName: refused[0].access.resource.table, Operation: op }, 1, now);
    }
  }

  /** Throttles a whole request: records it and returns the exception to answer with. */
  reject(op: string, refused: Rejection[]): ServiceError {
    this.recordThrottles(op, refused, true);
    const reasons: ThrottlingReason[] = [];
    for (const r of refused)
      for (const reason of r.verdict.reasons)
        if (!reasons.some((x) => x.reason === reason.reason && x.resource === reason.resource)) reasons.push(reason);
    const onDemand = refused[0].access.resource.onDemand;
    return throttlingError(onDemand, reasons);
  }

  /** Gives back an admitted access's estimate (the request failed before consuming anything). */
  refund(a: Access): void {
    this.limiter.charge(a, -a.units, this.clock());
  }

  private add(a: Access, name: string, value: number, now: number): void {
    if (this.ringsGeneration !== this.metrics.generation) {
      this.rings.clear();
      this.ringsGeneration = this.metrics.generation;
    }
    const id = `${a.resource.arn}|${a.globalIndex ? 'g' : ''}|${name}`;
    let ring = this.rings.get(id);
    if (!ring) {
      if (this.rings.size > 10_000) this.rings.clear();
      ring = this.metrics.ring(name, dims(a));
      this.rings.set(id, ring);
    }
    ring.at(now).add(value);
  }

  /** Settles an admitted access at its real cost and records the consumption. */
  settle(a: Access, actual: number): void {
    const now = this.clock();
    this.limiter.charge(a, actual - a.units, now);
    this.add(a, a.dir === 'read' ? 'ConsumedReadCapacityUnits' : 'ConsumedWriteCapacityUnits', actual, now);
    // Contributor Insights counts 3 × write units + read units ("ConsumedThroughputUnits").
    const ctu = a.dir === 'write' ? 3 * actual : actual;
    this.insights.record(a.resource.table, a.resource.index, a.pk, a.sk, ctu, 0, now);
  }
}
