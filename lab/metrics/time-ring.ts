// Fixed-size ring of time buckets, one per period. A bucket older than
// `capacity` periods is overwritten by a new one, so memory stays bounded
// however long the lab runs; queries only see buckets still held.

export interface Bucket<T> {
  /** Start of the period, ms since the epoch. */
  start: number;
  value: T;
}

export class TimeRing<T> {
  private readonly slots: Array<{ idx: number; value: T } | undefined>;

  constructor(
    readonly periodMs: number,
    readonly capacity: number,
    private readonly make: () => T,
    /** Called on a bucket once a later one has been opened (e.g. to compact it). */
    private readonly onClose?: (value: T) => void,
  ) {
    this.slots = new Array(capacity);
  }

  private latest = -1;

  /** The bucket for the period containing `now`, opened if needed. */
  at(now: number): T {
    const idx = Math.floor(now / this.periodMs);
    const pos = idx % this.capacity;
    const slot = this.slots[pos];
    if (slot && slot.idx === idx) return slot.value;
    if (idx > this.latest) {
      if (this.latest >= 0 && this.onClose) {
        const prev = this.slots[this.latest % this.capacity];
        if (prev && prev.idx === this.latest) this.onClose(prev.value);
      }
      this.latest = idx;
    }
    const fresh = { idx, value: this.make() };
    // A late write for a period already overwritten has nowhere to go; it
    // lands in a detached bucket instead of evicting newer data.
    if (slot && slot.idx > idx) return fresh.value;
    this.slots[pos] = fresh;
    return fresh.value;
  }

  /** Buckets whose period starts in [startMs, endMs), oldest first. */
  range(startMs: number, endMs: number): Bucket<T>[] {
    const out: Bucket<T>[] = [];
    const first = Math.max(Math.ceil(startMs / this.periodMs), this.latest - this.capacity + 1);
    const last = Math.min(Math.ceil(endMs / this.periodMs) - 1, this.latest);
    for (let idx = first; idx <= last; idx++) {
      const slot = this.slots[idx % this.capacity];
      if (slot && slot.idx === idx) out.push({ start: idx * this.periodMs, value: slot.value });
    }
    return out;
  }
}
