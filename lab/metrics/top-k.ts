// Bounded per-key counters for Contributor Insights. While a period is open
// it keeps up to `2 × k` keys and, when full, drops the smaller half (their
// counts are lost, which is why CloudWatch calls its values approximate);
// once the period closes it keeps only its top `k`.

export class TopK {
  private readonly counts = new Map<string, number>();

  constructor(private readonly k: number) {}

  add(key: string, v: number): void {
    const c = this.counts.get(key);
    if (c !== undefined) {
      this.counts.set(key, c + v);
      return;
    }
    if (this.counts.size >= 2 * this.k) this.compact(this.k);
    this.counts.set(key, v);
  }

  compact(k: number): void {
    if (this.counts.size <= k) return;
    const keep = [...this.counts].sort((a, b) => b[1] - a[1]).slice(0, k);
    this.counts.clear();
    for (const [key, c] of keep) this.counts.set(key, c);
  }

  entries(): IterableIterator<[string, number]> {
    return this.counts.entries();
  }

  get size(): number {
    return this.counts.size;
  }
}
