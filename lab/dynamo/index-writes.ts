// Writes to a table propagate to its global secondary indexes. Each index an
// item has an entry in (it carries the index's key attributes) takes a write
// on the index's own partition key: a new entry, a changed one, or the removal
// of the old one when an indexed key changed (a delete and a put: two writes).
// These writes consume the index's capacity and its per-key ceiling, and a hot
// index key throttles the table write that feeds it (back-pressure), with an
// `IndexWrite...` throttling reason naming the index.
//
// Writes are admitted on what is known before they run (the index keys of a
// Put's item, or an Update's `SET name = :value` of an index key) and settled
// from the old and new items once they ran; an index write not foreseen is
// charged afterwards, so the bucket goes into debt as for a grown item.

import type { OpContext } from './context';
import type { Attrs } from './dynalite-engine';
import { itemSize, writeUnits } from './item-size';
import { keyLabel } from './keys';
import type { Access } from './meter';
import type { Consumption } from './consumed';
import type { Resource, TableInfo } from './table-catalog';

interface Projection {
  ProjectionType?: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
  NonKeyAttributes?: string[];
}

/** The table's global indexes with their projections. */
function globalIndexes(table: TableInfo): Array<{ ix: Resource; projection: Projection }> {
  const out: Array<{ ix: Resource; projection: Projection }> = [];
  for (const g of (table.raw.GlobalSecondaryIndexes ?? []) as Attrs[]) {
    const ix = table.indexes.get(String(g.IndexName));
    if (ix) out.push({ ix, projection: (g.Projection ?? {}) as Projection });
  }
  return out;
}

export const hasGlobalIndexes = (table: TableInfo) => globalIndexes(table).length > 0;

/** An item's entry in an index: undefined when it lacks one of the index's key attributes (a sparse index). */
function entryOf(table: TableInfo, ix: Resource, p: Projection, item: Attrs | undefined): Attrs | undefined {
  if (!item || item[ix.hashKey] === undefined) return undefined;
  if (ix.rangeKey !== undefined && item[ix.rangeKey] === undefined) return undefined;
  if (p.ProjectionType === undefined || p.ProjectionType === 'ALL') return item;
  const names = [table.hashKey, table.rangeKey, ix.hashKey, ix.rangeKey, ...(p.NonKeyAttributes ?? [])];
  const entry: Attrs = {};
  for (const n of names) if (n !== undefined && item[n] !== undefined) entry[n] = item[n];
  return entry;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function access(ix: Resource, entry: Attrs, units: number): Access {
  return {
    resource: ix,
    dir: 'write',
    units,
    pk: keyLabel(entry[ix.hashKey]),
    sk: ix.rangeKey === undefined ? undefined : keyLabel(entry[ix.rangeKey]),
    globalIndex: true,
  };
}

/**
 * The index writes that turning `oldItem` into `newItem` makes (either may be
 * undefined: a new item, a deleted one). An unchanged entry costs nothing.
 */
export function indexWrites(table: TableInfo, oldItem: Attrs | undefined, newItem: Attrs | undefined): Access[] {
  const out: Access[] = [];
  for (const { ix, projection } of globalIndexes(table)) {
    const o = entryOf(table, ix, projection, oldItem);
    const n = entryOf(table, ix, projection, newItem);
    if (o && n && same(o, n)) continue;
    const sameKeys =
      o && n && same(o[ix.hashKey], n[ix.hashKey]) && (!ix.rangeKey || same(o[ix.rangeKey], n[ix.rangeKey]));
    if (o && n && sameKeys) {
      out.push(access(ix, n, writeUnits(Math.max(itemSize(o), itemSize(n)))));
      continue;
    }
    if (o) out.push(access(ix, o, writeUnits(itemSize(o))));
    if (n) out.push(access(ix, n, writeUnits(itemSize(n))));
  }
  return out;
}

/** The values an UpdateExpression assigns outright (`SET #a = :v, b = :w`), by attribute name. */
export function assignedValues(data: Attrs): Attrs {
  const out: Attrs = {};
  const expr = data.UpdateExpression;
  if (typeof expr !== 'string') return out;
  const set = /\bSET\b([\s\S]*?)(?=\b(?:REMOVE|ADD|DELETE)\b|$)/i.exec(expr)?.[1] ?? '';
  const names = (data.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (data.ExpressionAttributeValues ?? {}) as Attrs;
  for (const part of set.split(',')) {
    const m = /^\s*([#\w-]+)\s*=\s*(:[\w-]+)\s*$/.exec(part);
    if (!m) continue;
    const name = m[1].startsWith('#') ? names[m[1]] : m[1];
    if (name !== undefined && Object.hasOwn(values, m[2])) out[name] = values[m[2]];
  }
  return out;
}

/**
 * Settles index writes admitted before the write (`admitted`) against those
 * it really made (`made`): a match is settled at its real cost, an admitted
 * write that did not happen is refunded, one not foreseen is charged now.
 * Returns the units per index, for ConsumedCapacity.
 */
export function settleIndexWrites(ctx: OpContext, admitted: Access[], made: Access[]): Consumption[] {
  const open = [...admitted];
  const parts: Consumption[] = [];
  for (const m of made) {
    const i = open.findIndex((a) => a.resource.arn === m.resource.arn && a.pk === m.pk);
    const a = i >= 0 ? open.splice(i, 1)[0] : { ...m, units: 0 };
    ctx.meter.settle({ ...a, sk: m.sk }, m.units);
    parts.push({ table: m.resource.table, index: m.resource.index, global: true, read: 0, write: m.units });
  }
  for (const a of open) ctx.meter.refund(a);
  return parts;
}
