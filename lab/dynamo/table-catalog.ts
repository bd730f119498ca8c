// Key schemas and capacity settings of the tables, from DescribeTable run
// in-process against dynalite and cached: every metered request needs them,
// and they change only through CreateTable/UpdateTable/DeleteTable (which
// invalidate the entry) or dynalite's delayed UPDATING→ACTIVE switch (which
// the short expiry catches).

import type { Attrs, DynaliteEngine } from './dynalite-engine';

export interface Resource {
  table: string;
  /** Set for a secondary index. */
  index?: string;
  arn: string;
  hashKey: string;
  rangeKey?: string;
  onDemand: boolean;
  readCapacity: number;
  writeCapacity: number;
}

export interface TableInfo extends Resource {
  indexes: Map<string, Resource>;
  /** dynalite's table description, which its key helpers take. */
  raw: Attrs;
}

interface KeySchemaElement {
  AttributeName: string;
  KeyType: 'HASH' | 'RANGE';
}
interface Throughput {
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

const EXPIRY_MS = 1000;
const MAX_ENTRIES = 1000;

function keysOf(schema: KeySchemaElement[] | undefined): { hashKey: string; rangeKey?: string } {
  const hash = schema?.find((k) => k.KeyType === 'HASH')?.AttributeName ?? '';
  return { hashKey: hash, rangeKey: schema?.find((k) => k.KeyType === 'RANGE')?.AttributeName };
}

export function describeToInfo(raw: Attrs): TableInfo {
  const name = String(raw.TableName);
  const arn = String(raw.TableArn ?? `arn:aws:dynamodb:us-east-1:000000000000:table/${name}`);
  const onDemand = (raw.BillingModeSummary as { BillingMode?: string } | undefined)?.BillingMode === 'PAY_PER_REQUEST';
  const tp = (raw.ProvisionedThroughput ?? {}) as Throughput;
  const info: TableInfo = {
    table: name,
    arn,
    ...keysOf(raw.KeySchema as KeySchemaElement[]),
    onDemand,
    readCapacity: onDemand ? 0 : (tp.ReadCapacityUnits ?? 0),
    writeCapacity: onDemand ? 0 : (tp.WriteCapacityUnits ?? 0),
    indexes: new Map(),
    raw,
  };
  const add = (list: unknown, global: boolean) => {
    for (const ix of (list ?? []) as Array<Attrs>) {
      const ixName = String(ix.IndexName);
      const ixTp = (ix.ProvisionedThroughput ?? {}) as Throughput;
      info.indexes.set(ixName, {
        table: name,
        index: ixName,
        arn: String(ix.IndexArn ?? `${arn}/index/${ixName}`),
        ...keysOf(ix.KeySchema as KeySchemaElement[]),
        onDemand,
        // A local index shares the table's capacity; a global one has its own.
        readCapacity: onDemand ? 0 : global ? (ixTp.ReadCapacityUnits ?? 0) : info.readCapacity,
        writeCapacity: onDemand ? 0 : global ? (ixTp.WriteCapacityUnits ?? 0) : info.writeCapacity,
      });
    }
  };
  add(raw.GlobalSecondaryIndexes, true);
  add(raw.LocalSecondaryIndexes, false);
  return info;
}

export class TableCatalog {
  private readonly cache = new Map<string, { info: TableInfo | undefined; at: number }>();
  private readonly pending = new Map<string, Promise<TableInfo | undefined>>();

  constructor(private readonly engine: DynaliteEngine) {}

  /** The table's description, or undefined when it does not exist. */
  get(name: string): Promise<TableInfo | undefined> {
    const hit = this.cache.get(name);
    if (hit && Date.now() - hit.at < EXPIRY_MS) return Promise.resolve(hit.info);
    let p = this.pending.get(name);
    if (!p) {
      p = this.engine
        .call('DescribeTable', { TableName: name })
        .then(
          (res) => describeToInfo(res.Table as Attrs),
          () => undefined,
        )
        .then((info) => {
          this.pending.delete(name);
          // Requests may name any number of tables that do not exist; keep the cache small.
          if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
          this.cache.set(name, { info, at: Date.now() });
          return info;
        });
      this.pending.set(name, p);
    }
    return p;
  }

  invalidate(name: string): void {
    this.cache.delete(name);
  }
}
