// The data behind one Contributor Insights rule (PKC, PKT, SKC or SKT of a
// table or index): per period, the top contributors, a distinct-key sketch and
// the statistics of all events.

import { HyperLogLog } from '../metrics/hyperloglog';
import { Stat } from '../metrics/stat';
import { TimeRing } from '../metrics/time-ring';
import { TopK } from '../metrics/top-k';

/** Keys kept per closed period; CloudWatch reports at most 25 contributors for these rules. */
export const KEPT_PER_PERIOD = 50;
/** Keys tracked while a period is open (twice this before pruning). */
const TRACKED_PER_OPEN_PERIOD = 1000;

export class RulePeriod {
  readonly top = new TopK(TRACKED_PER_OPEN_PERIOD);
  readonly unique = new HyperLogLog();
  /** One sample per event; Sum is the aggregate value. */
  readonly events = new Stat();
  /** Largest value any one key reached in this period (before pruning lost any). */
  maxContributor = 0;

  add(key: string, value: number): void {
    this.top.add(key, value);
    this.unique.add(key);
    this.events.add(value);
  }
}

export class RuleData {
  readonly ring: TimeRing<RulePeriod>;

  constructor(periodMs: number, retention: number) {
    this.ring = new TimeRing(
      periodMs,
      retention,
      () => new RulePeriod(),
      (p) => {
        for (const [, v] of p.top.entries()) if (v > p.maxContributor) p.maxContributor = v;
        p.top.compact(KEPT_PER_PERIOD);
      },
    );
  }

  add(key: string, value: number, now: number): void {
    this.ring.at(now).add(key, value);
  }
}
