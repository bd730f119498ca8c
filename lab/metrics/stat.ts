/** The statistics CloudWatch keeps per period: sum, sample count, minimum, maximum. */
export class Stat {
  sum = 0;
  count = 0;
  min = Infinity;
  max = -Infinity;

  add(v: number): void {
    this.sum += v;
    this.count++;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }

  merge(o: Stat): void {
    this.sum += o.sum;
    this.count += o.count;
    if (o.min < this.min) this.min = o.min;
    if (o.max > this.max) this.max = o.max;
  }

  /** The named CloudWatch statistic (Sum, SampleCount, Average, Minimum, Maximum). */
  get(name: string): number | undefined {
    switch (name) {
      case 'Sum':
        return this.sum;
      case 'SampleCount':
        return this.count;
      case 'Average':
        return this.count ? this.sum / this.count : 0;
      case 'Minimum':
        return this.count ? this.min : 0;
      case 'Maximum':
        return this.count ? this.max : 0;
      default:
        return undefined;
    }
  }
}

export const STATISTICS = ['Sum', 'SampleCount', 'Average', 'Minimum', 'Maximum'] as const;
