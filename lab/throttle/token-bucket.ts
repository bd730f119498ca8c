// A token bucket that may go into debt: a request is admitted while the
// bucket holds at least its estimated units, and its real cost (known only
// after it ran, as for an UpdateItem or a Query) is settled afterwards. The
// average admitted rate therefore stays at `rate` even when estimates are low.

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly rate: number,
    readonly depth: number,
    now: number,
  ) {
    this.tokens = depth;
    this.last = now;
  }

  private refill(now: number): void {
    if (now > this.last) {
      this.tokens = Math.min(this.depth, this.tokens + ((now - this.last) / 1000) * this.rate);
      this.last = now;
    }
  }

  /** Whether `units` may be taken now. Units above the depth wait for a full bucket. */
  canTake(units: number, now: number): boolean {
    this.refill(now);
    return this.tokens >= Math.min(units, this.depth);
  }

  /** Takes units (or gives them back when negative); the balance may go below zero. */
  take(units: number, now: number): void {
    this.refill(now);
    this.tokens = Math.min(this.depth, this.tokens - units);
  }

  /** True when the bucket would be full at `now`: it then holds no state worth keeping. */
  isIdle(now: number): boolean {
    return this.tokens + ((now - this.last) / 1000) * this.rate >= this.depth;
  }

  level(now: number): number {
    this.refill(now);
    return this.tokens;
  }
}
