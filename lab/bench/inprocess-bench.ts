// The metering layer's own cost, without HTTP: the bench mix run in-process
// against dynalite's validation and actions called directly (what the lab
// calls under its metering layer), and against the lab's DynamoDB service
// (metering, CloudWatch and Contributor Insights recording included). The
// HTTP comparison cannot show this alone, because the lab's HTTP front is
// cheaper than dynalite's and hides part of it.

import { createLabCore } from '../lab';
import type { DynaliteOperation } from '../dynamo/dynalite-engine';
import { mixRequest, setUpTable } from './http-bench';

export interface InProcessRound {
  mode: 'dynalite actions' | 'lab service';
  perSecond: number;
}

async function closedLoop(
  call: (op: string, body: unknown) => Promise<unknown>,
  ms: number,
  concurrency = 16,
): Promise<number> {
  let done = 0;
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (performance.now() - start < ms) {
      const [op, body] = mixRequest(next++);
      await call(op, body);
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((performance.now() - start) / 1000);
}

export async function runInProcess(seconds: number, rounds: number): Promise<InProcessRound[]> {
  const core = createLabCore({ tableStateMs: 0 });
  const viaLab = async (op: string, body: unknown) => {
    const r = await core.dynamo.handle(op, body);
    if (r.status !== 200) throw new Error(`${op}: ${JSON.stringify(r.body)}`);
  };
  const direct = (op: string, body: unknown) => core.engine.call(op as DynaliteOperation, body);
  try {
    await setUpTable(viaLab);
    await closedLoop(viaLab, 1000);
    await closedLoop(direct, 1000);
    const out: InProcessRound[] = [];
    for (let i = 0; i < rounds; i++) {
      const order =
        i % 2 === 0 ? (['dynalite actions', 'lab service'] as const) : (['lab service', 'dynalite actions'] as const);
      for (const mode of order) {
        const perSecond = await closedLoop(mode === 'lab service' ? viaLab : direct, seconds * 1000);
        out.push({ mode, perSecond });
      }
    }
    return out;
  } finally {
    core.insights.close();
    await core.engine.close();
  }
}
