// The ConsumedCapacity a response carries when the request asked for it
// (ReturnConsumedCapacity TOTAL or INDEXES), built from the units the lab
// metered rather than dynalite's own figure, so responses and CloudWatch agree.

export interface Consumption {
  table: string;
  /** Units charged to a secondary index rather than the table. */
  index?: string;
  global?: boolean;
  read: number;
  write: number;
}

type Units = { CapacityUnits: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };

function units(read: number, write: number): Units {
  const u: Units = { CapacityUnits: read + write };
  if (read) u.ReadCapacityUnits = read;
  if (write) u.WriteCapacityUnits = write;
  return u;
}

/** One ConsumedCapacity entry per table, in first-seen order. */
export function consumedCapacity(mode: unknown, parts: Consumption[]): Array<Record<string, unknown>> | undefined {
  if (mode !== 'TOTAL' && mode !== 'INDEXES') return undefined;
  const byTable = new Map<string, Consumption[]>();
  for (const p of parts) {
    const list = byTable.get(p.table);
    if (list) list.push(p);
    else byTable.set(p.table, [p]);
  }
  const out: Array<Record<string, unknown>> = [];
  for (const [table, list] of byTable) {
    const read = list.reduce((s, p) => s + p.read, 0);
    const write = list.reduce((s, p) => s + p.write, 0);
    const entry: Record<string, unknown> = { TableName: table, ...units(read, write) };
    if (mode === 'INDEXES') {
      const own = list.filter((p) => !p.index);
      entry.Table = units(
        own.reduce((s, p) => s + p.read, 0),
        own.reduce((s, p) => s + p.write, 0),
      );
      for (const p of list) {
        if (!p.index) continue;
        const field = p.global ? 'GlobalSecondaryIndexes' : 'LocalSecondaryIndexes';
        const map = (entry[field] ??= {}) as Record<string, Units>;
        const prev = map[p.index];
        map[p.index] = units((prev?.ReadCapacityUnits ?? 0) + p.read, (prev?.WriteCapacityUnits ?? 0) + p.write);
      }
    }
    out.push(entry);
  }
  return out;
}

/** For single-table operations the field is one object, not a list. */
export function singleConsumedCapacity(mode: unknown, part: Consumption): Record<string, unknown> | undefined {
  return consumedCapacity(mode, [part])?.[0];
}
