// Memory of the metering layer over 1,000,000 metered requests, run
// in-process with a simulated clock: two hours of lab time at a 1-second
// period, so every time ring wraps many times over, with a new partition key
// every few requests (the worst case for per-key state) plus a hot key that
// throttles. RSS is sampled after a forced GC along the way; bounded memory
// shows as a plateau.

import v8 from 'node:v8';
import vm from 'node:vm';
import { Meter, type Access } from '../dynamo/meter';
import type { Resource } from '../dynamo/table-catalog';
import { InsightsRegistry } from '../insights/registry';
import { MetricStore } from '../metrics/metric-store';
import { retentionFor } from '../lab';
import { Limiter } from '../throttle/limiter';

export interface MemorySample {
  requests: number;
  rssMb: number;
  heapMb: number;
}

export interface MemoryResult {
  samples: MemorySample[];
  seconds: number;
  simulatedHours: number;
  keyBuckets: number;
}

function collect(): void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
}

const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;

export function runMemoryBench(total = 1_000_000, sampleEvery = 100_000): MemoryResult {
  const periodMs = 1000;
  const retention = retentionFor(1);
  let now = Date.UTC(2026, 0, 1);
  const metrics = new MetricStore(periodMs, retention);
  const insights = new InsightsRegistry({ periodMs, retention, transitionMs: 1 });
  const limiter = new Limiter({ keyReadLimit: 3000, keyWriteLimit: 1000 });
  const meter = new Meter(limiter, metrics, insights, () => now);
  const table: Resource = {
    table: 'bench',
    arn: 'arn:aws:dynamodb:us-east-1:000000000000:table/bench',
    hashKey: 'PK',
    rangeKey: 'SK',
    onDemand: true,
    readCapacity: 0,
    writeCapacity: 0,
  };
  insights.enable('bench', undefined, 'ACCESSED_AND_THROTTLED_KEYS', 'PK', 'SK');

  const simulatedMs = 2 * 3600 * 1000;
  const step = simulatedMs / total;
  const samples: MemorySample[] = [];
  collect();
  samples.push({ requests: 0, rssMb: mb(process.memoryUsage().rss), heapMb: mb(process.memoryUsage().heapUsed) });
  const t0 = performance.now();
  for (let i = 1; i <= total; i++) {
    now += step;
    // Every 10th request hits the hot key, which throttles; the rest spread over ever-new keys.
    const hot = i % 10 === 0;
    const a: Access = {
      resource: table,
      dir: i % 3 === 0 ? 'read' : 'write',
      pk: hot ? 'BOARD#global' : `USER#${Math.floor(i / 4)}`,
      sk: `ITEM#${i}`,
      units: hot ? 900 : 1,
    };
    const refused = meter.admit([a]);
    if (refused.length) meter.recordThrottles('PutItem', refused, true);
    else meter.settle(a, a.units);
    if (i % sampleEvery === 0) {
      collect();
      const m = process.memoryUsage();
      samples.push({ requests: i, rssMb: mb(m.rss), heapMb: mb(m.heapUsed) });
    }
  }
  insights.close();
  return {
    samples,
    seconds: (performance.now() - t0) / 1000,
    simulatedHours: simulatedMs / 3_600_000,
    keyBuckets: limiter.keyCount,
  };
}
