// Assembles a lab: dynalite in-process, the metering layer, the metric and
// Contributor Insights stores, and the HTTP endpoint serving both services.

import { DynaliteEngine } from './dynamo/dynalite-engine';
import { Gate } from './dynamo/gate';
import { Meter } from './dynamo/meter';
import { DynamoService } from './dynamo/service';
import { TableCatalog } from './dynamo/table-catalog';
import { installFaults } from './faults/install';
import { FaultSwitch } from './faults/switch';
import { LabHttpServer } from './http/server';
import { InsightsRegistry } from './insights/registry';
import { MetricStore } from './metrics/metric-store';
import { Limiter } from './throttle/limiter';
import { StreamSpecs } from './dynamo/streams';

export interface LabOptions {
  /** 0 picks a free port. Default 8000. */
  port?: number;
  /** Default 127.0.0.1; anything else must be asked for. */
  host?: string;
  /** LevelDB folder for the data; in memory when absent. */
  dataDir?: string;
  /** Per-partition-key write ceiling, WCU/s. Default 1,000. */
  writeLimit?: number;
  /** Per-partition-key read ceiling, RCU/s. Default 3,000. */
  readLimit?: number;
  /** Metric and Contributor Insights period in seconds. Default 60 (CloudWatch's). */
  periodSeconds?: number;
  /** Seconds of unused provisioned capacity a table may burst with. Default 300 (DynamoDB's). */
  tableBurstSeconds?: number;
  /** How long Contributor Insights stays ENABLING / DISABLING. Default 2,000 ms. */
  insightsTransitionMs?: number;
  /** How long tables stay CREATING / UPDATING / DELETING. Default 500 ms (dynalite's). */
  tableStateMs?: number;
}

export interface Lab {
  url: string;
  host: string;
  port: number;
  periodSeconds: number;
  dynamo: DynamoService;
  metrics: MetricStore;
  insights: InsightsRegistry;
  limiter: Limiter;
  /** Error answers on demand, for testing clients' error paths (lab/faults). */
  faults: FaultSwitch;
  close(): Promise<void>;
}

/** Periods held: three hours' worth, at most 720 (memory stays bounded for short periods too). */
export function retentionFor(periodSeconds: number): number {
  return Math.max(60, Math.min(720, Math.ceil((3 * 3600) / periodSeconds)));
}

/** Everything but the socket: used by the server and by in-process benches. */
export function createLabCore(options: LabOptions = {}) {
  const periodSeconds = options.periodSeconds ?? 60;
  const periodMs = periodSeconds * 1000;
  const retention = retentionFor(periodSeconds);
  const engine = new DynaliteEngine({ path: options.dataDir, tableStateMs: options.tableStateMs });
  const metrics = new MetricStore(periodMs, retention);
  const insights = new InsightsRegistry({ periodMs, retention, transitionMs: options.insightsTransitionMs ?? 2000 });
  const limiter = new Limiter({
    keyWriteLimit: options.writeLimit ?? 1000,
    keyReadLimit: options.readLimit ?? 3000,
    tableBurstSeconds: options.tableBurstSeconds ?? 300,
  });
  const meter = new Meter(limiter, metrics, insights);
  const catalog = new TableCatalog(engine);
  const dynamo = new DynamoService({
    engine,
    catalog,
    meter,
    insights,
    metrics,
    gate: new Gate(),
    streams: new StreamSpecs(),
  });
  return { engine, metrics, insights, limiter, meter, catalog, dynamo, periodSeconds, periodMs };
}

export async function startLab(options: LabOptions = {}): Promise<Lab> {
  const core = createLabCore(options);
  const http = new LabHttpServer(core.dynamo, {
    metrics: core.metrics,
    insights: core.insights,
    periodMs: core.periodMs,
  });
  const faults = new FaultSwitch();
  installFaults(http.server, faults);
  const host = options.host ?? '127.0.0.1';
  let port: number;
  try {
    port = await http.listen(options.port ?? 8000, host);
  } catch (e) {
    core.insights.close();
    await core.engine.close();
    throw e;
  }
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    periodSeconds: core.periodSeconds,
    dynamo: core.dynamo,
    metrics: core.metrics,
    insights: core.insights,
    limiter: core.limiter,
    faults,
    async close() {
      await http.close();
      core.insights.close();
      await core.engine.close();
    },
  };
}
