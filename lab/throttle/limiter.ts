// Admission control per partition key and per table. Each partition key value
// gets its own bucket at the per-partition ceilings (1,000 WCU/s, 3,000 RCU/s
// by default), as if adaptive capacity had isolated every hot key on its own
// partition; a provisioned table or global index also gets a bucket at its
// provisioned rate with DynamoDB's 300 seconds of burst capacity.

import type { ThrottlingReason } from '../dynamo/errors';
import type { Resource } from '../dynamo/table-catalog';
import { TokenBucket } from './token-bucket';

export type Direction = 'read' | 'write';
export type LimitKind = 'KeyRange' | 'Provisioned';

export interface Demand {
  resource: Resource;
  dir: Direction;
  /** Partition key value; undefined for a Scan, which only the table bucket sees. */
  pk?: string;
  /** Estimated units, charged on admission. */
  units: number;
}

export interface Verdict {
  ok: boolean;
  kinds: LimitKind[];
  reasons: ThrottlingReason[];
}

export interface LimiterOptions {
  keyReadLimit: number;
  keyWriteLimit: number;
  /** Seconds of unused per-key capacity a key may burst with (default 1). */
  keyBurstSeconds?: number;
  /** Seconds of unused provisioned capacity a table may burst with (DynamoDB: 300). */
  tableBurstSeconds?: number;
}

const OK: Verdict = { ok: true, kinds: [], reasons: [] };
/** Idle key buckets are dropped once this many exist, so memory follows the keys active in the last seconds. */
const SWEEP_AT = 4096;

export function reasonName(resource: Resource, dir: Direction, kind: LimitKind): string {
  const what = resource.index ? 'Index' : 'Table';
  const rw = dir === 'read' ? 'Read' : 'Write';
  return `${what}${rw}${kind === 'KeyRange' ? 'KeyRangeThroughputExceeded' : 'ProvisionedThroughputExceeded'}`;
}

export class Limiter {
  /** Key buckets by resource ARN, direction and key value (nested, so no id string is built per request). */
  private readonly keys = new Map<string, { read: Map<string, TokenBucket>; write: Map<string, TokenBucket> }>();
  private keyBuckets = 0;
  private readonly tables = new Map<string, TokenBucket>();
  private sweepLimit = SWEEP_AT;

  constructor(private readonly options: LimiterOptions) {}

  private keyBucket(d: Demand, now: number): TokenBucket | undefined {
    if (d.pk === undefined) return undefined;
    let byDir = this.keys.get(d.resource.arn);
    if (!byDir) this.keys.set(d.resource.arn, (byDir = { read: new Map(), write: new Map() }));
    const map = byDir[d.dir];
    let b = map.get(d.pk);
    if (!b) {
      if (this.keyBuckets >= this.sweepLimit) this.sweep(now);
      const rate = d.dir === 'read' ? this.options.keyReadLimit : this.options.keyWriteLimit;
      b = new TokenBucket(rate, rate * (this.options.keyBurstSeconds ?? 1), now);
      map.set(d.pk, b);
      this.keyBuckets++;
    }
    return b;
  }

  private tableBucket(d: Demand, now: number): TokenBucket | undefined {
    const rate = d.dir === 'read' ? d.resource.readCapacity : d.resource.writeCapacity;
    if (d.resource.onDemand || rate <= 0) return undefined;
    const id = `${d.resource.arn}\u0000${d.dir}`;
    let b = this.tables.get(id);
    if (!b || b.rate !== rate) {
      // A changed provisioned rate (UpdateTable) starts a fresh bucket.
      b = new TokenBucket(rate, rate * (this.options.tableBurstSeconds ?? 300), now);
      this.tables.set(id, b);
    }
    return b;
  }

  private sweep(now: number): void {
    let held = 0;
    for (const [arn, byDir] of this.keys) {
      for (const map of [byDir.read, byDir.write]) {
        for (const [pk, b] of map) if (b.isIdle(now)) map.delete(pk);
        held += map.size;
      }
      if (byDir.read.size === 0 && byDir.write.size === 0) this.keys.delete(arn);
    }
    this.keyBuckets = held;
    // If most keys are still busy, wait for twice as many before sweeping again.
    this.sweepLimit = Math.max(SWEEP_AT, held * 2);
  }

  /** Judges one demand without charging it. */
  check(d: Demand, now: number): Verdict {
    const kinds: LimitKind[] = [];
    if (this.keyBucket(d, now)?.canTake(d.units, now) === false) kinds.push('KeyRange');
    if (this.tableBucket(d, now)?.canTake(d.units, now) === false) kinds.push('Provisioned');
    if (kinds.length === 0) return OK;
    return {
      ok: false,
      kinds,
      reasons: kinds.map((k) => ({ reason: reasonName(d.resource, d.dir, k), resource: d.resource.arn })),
    };
  }

  /** Charges units (negative gives them back) to every bucket the demand touches. */
  charge(d: Demand, units: number, now: number): void {
    if (units === 0) return;
    this.keyBucket(d, now)?.take(units, now);
    this.tableBucket(d, now)?.take(units, now);
  }

  /** Admits all demands (charging their estimates) or none. */
  admitAll(demands: Demand[], now: number): Verdict {
    for (const d of demands) {
      const v = this.check(d, now);
      if (!v.ok) return v;
    }
    for (const d of demands) this.charge(d, d.units, now);
    return OK;
  }

  /** Number of key buckets held (for the memory bench). */
  get keyCount(): number {
    return this.keyBuckets;
  }
}
