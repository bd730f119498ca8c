import type { InsightsRegistry } from '../insights/registry';
import type { MetricStore } from '../metrics/metric-store';
import type { DynaliteEngine } from './dynalite-engine';
import type { Gate } from './gate';
import type { Meter } from './meter';
import type { StreamSpecs } from './streams';
import type { TableCatalog } from './table-catalog';

/** What every DynamoDB operation handler works with. */
export interface OpContext {
  engine: DynaliteEngine;
  catalog: TableCatalog;
  meter: Meter;
  insights: InsightsRegistry;
  metrics: MetricStore;
  gate: Gate;
  streams: StreamSpecs;
}
