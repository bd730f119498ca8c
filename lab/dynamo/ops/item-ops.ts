// GetItem, PutItem, UpdateItem, DeleteItem: admit or throttle the access on
// its partition key, run it in dynalite, settle its real cost.
//
// A write costs the larger of the old and the new item. Rather than reading
// the old item first (a second store read and JSON decode per write, most of
// the lab's overhead), the write is admitted on what is known before it runs
// (the new item for a Put, the minimum otherwise) and settled from dynalite's
// own reply: the old item (ReturnValues ALL_OLD, asked for and stripped again)
// for Put and Delete, its max(old, new) capacity figure for Update.

import type { OpContext } from '../context';
import type { Attrs } from '../dynalite-engine';
import { ServiceError } from '../errors';
import { itemSize, readUnits, writeUnits } from '../item-size';
import { keyLabel } from '../keys';
import { itemProblem, keySizeProblem, updateValuesProblem } from '../limits';
import type { Access } from '../meter';
import { consumedCapacity, type Consumption } from '../consumed';
import { assignedValues, hasGlobalIndexes, indexWrites, settleIndexWrites } from '../index-writes';
import type { TableInfo } from '../table-catalog';

type ItemOp = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem';

export const CONDITION_FAILED = 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException';

export function itemAccess(table: TableInfo, key: Attrs, dir: 'read' | 'write', units: number): Access {
  return {
    resource: table,
    dir,
    units,
    pk: keyLabel(key[table.hashKey]),
    sk: table.rangeKey === undefined ? undefined : keyLabel(key[table.rangeKey]),
  };
}

interface Prepared {
  data: Attrs;
  table: TableInfo | undefined;
  /** ReturnValuesOnConditionCheckFailure: ALL_OLD (dynalite does not know it). */
  oldOnFailure: boolean;
  /** ReturnConsumedCapacity as the client sent it (the lab may ask dynalite for more). */
  asked: unknown;
}

/** Validates, then finds the table; when it does not exist dynalite answers with its own error. */
async function prepare(ctx: OpContext, op: ItemOp, raw: Attrs): Promise<Prepared> {
  // dynalite's type check drops members it does not know, this one included.
  const oldOnFailure = raw.ReturnValuesOnConditionCheckFailure === 'ALL_OLD';
  const data = ctx.engine.validate(op, raw);
  const table = await ctx.catalog.get(String(data.TableName));
  return { data, table, oldOnFailure, asked: data.ReturnConsumedCapacity };
}

/** A write's global-index writes: those foreseen before it runs, and those it made, from its reply. */
interface IndexPlan {
  foreseen: Access[];
  made: (res: Attrs) => Promise<Access[]>;
}

/**
 * Admits the access (and its index writes: a hot index key throttles the
 * table write), runs the request, settles it. `measure` turns dynalite's
 * reply into the real units and the reply the client asked for; a failed
 * condition is charged at the estimate, any other failure refunded.
 */
async function metered(
  ctx: OpContext,
  op: ItemOp,
  p: Prepared,
  a: Access,
  measure: (res: Attrs) => number,
  index?: IndexPlan,
): Promise<Attrs> {
  const foreseen = index?.foreseen ?? [];
  const refused = ctx.meter.admit([a, ...foreseen]);
  if (refused.length > 0) throw ctx.meter.reject(op, refused);
  let res: Attrs;
  try {
    res = await ctx.engine.run(op, p.data);
  } catch (e) {
    for (const f of foreseen) ctx.meter.refund(f);
    if (e instanceof ServiceError && e.type === CONDITION_FAILED) {
      // A failed condition still consumes the write (DynamoDB charges it).
      ctx.meter.settle(a, a.units);
      if (p.oldOnFailure && p.table) {
        const old = await ctx.engine.readItem(p.table.raw, (p.data.Item ?? p.data.Key) as Attrs);
        if (old) e.body.Item = old;
      }
    } else ctx.meter.refund(a);
    throw e;
  }
  const actual = measure(res);
  ctx.meter.settle(a, actual);
  const indexParts: Consumption[] = index ? settleIndexWrites(ctx, foreseen, await index.made(res)) : [];
  delete res.ConsumedCapacity;
  const cc = consumedCapacity(p.asked, [
    { table: a.resource.table, read: a.dir === 'read' ? actual : 0, write: a.dir === 'write' ? actual : 0 },
    ...indexParts,
  ]);
  if (cc) res.ConsumedCapacity = cc[0];
  return res;
}

const capacityOf = (res: Attrs, fallback: number) =>
  Number((res.ConsumedCapacity as Attrs | undefined)?.CapacityUnits ?? fallback);

/** Asks dynalite for the old item, and takes it out of the reply again unless the client asked for it. */
function withOldItem(data: Attrs): (res: Attrs) => Attrs | undefined {
  const wanted = data.ReturnValues === 'ALL_OLD';
  data.ReturnValues = 'ALL_OLD';
  return (res) => {
    const old = res.Attributes as Attrs | undefined;
    if (!wanted) delete res.Attributes;
    return old;
  };
}

export async function getItem(ctx: OpContext, raw: Attrs): Promise<Attrs> {
  const p = await prepare(ctx, 'GetItem', raw);
  const { data, table } = p;
  if (!table || ctx.engine.keyProblem(table.raw, data.Key as Attrs, false)) return ctx.engine.run('GetItem', data);
  const tooBig = keySizeProblem(table, data.Key as Attrs);
  if (tooBig) throw tooBig;
  const consistent = data.ConsistentRead === true;
  // Without a projection the reply holds the whole item, which sizes the read;
  // with one, dynalite's figure (taken on the whole item) is needed.
  const projected = data.ProjectionExpression !== undefined || data.AttributesToGet !== undefined;
  if (projected) data.ReturnConsumedCapacity = 'TOTAL';
  const a = itemAccess(table, data.Key as Attrs, 'read', readUnits(0, consistent));
  return metered(ctx, 'GetItem', p, a, (res) =>
    projected ? capacityOf(res, a.units) : readUnits(itemSize(res.Item as Attrs | undefined), consistent),
  );
}

export async function putItem(ctx: OpContext, raw: Attrs): Promise<Attrs> {
  const p = await prepare(ctx, 'PutItem', raw);
  const { data, table } = p;
  const item = data.Item as Attrs;
  if (!table || ctx.engine.keyProblem(table.raw, item, true)) return ctx.engine.run('PutItem', data);
  // dynalite sizes keys and items in UTF-16 characters; the service counts UTF-8 bytes.
  const tooBig = itemProblem(table, item);
  if (tooBig) throw tooBig;
  const newSize = itemSize(item);
  const oldOf = withOldItem(data);
  const a = itemAccess(table, item, 'write', writeUnits(newSize));
  let old: Attrs | undefined;
  const index: IndexPlan | undefined = hasGlobalIndexes(table)
    ? { foreseen: indexWrites(table, undefined, item), made: async () => indexWrites(table, old, item) }
    : undefined;
  return metered(ctx, 'PutItem', p, a, (res) => writeUnits(Math.max(newSize, itemSize((old = oldOf(res))))), index);
}

export async function updateItem(ctx: OpContext, raw: Attrs): Promise<Attrs> {
  const p = await prepare(ctx, 'UpdateItem', raw);
  const { data, table } = p;
  const key = data.Key as Attrs;
  if (!table || ctx.engine.keyProblem(table.raw, key, false)) return ctx.engine.run('UpdateItem', data);
  const tooBig = keySizeProblem(table, key) ?? updateValuesProblem(data.ExpressionAttributeValues);
  if (tooBig) throw tooBig;
  data.ReturnConsumedCapacity = 'TOTAL';
  const a = itemAccess(table, key, 'write', writeUnits(0));
  // The items before and after are read only on a table with global indexes,
  // so other tables' updates cost no extra store reads.
  let index: IndexPlan | undefined;
  if (hasGlobalIndexes(table)) {
    const old = await ctx.engine.readItem(table.raw, key);
    index = {
      foreseen: indexWrites(table, undefined, { ...old, ...assignedValues(data), ...key }),
      made: async () => indexWrites(table, old, await ctx.engine.readItem(table.raw, key)),
    };
  }
  return metered(ctx, 'UpdateItem', p, a, (res) => Math.max(a.units, capacityOf(res, a.units)), index);
}

export async function deleteItem(ctx: OpContext, raw: Attrs): Promise<Attrs> {
  const p = await prepare(ctx, 'DeleteItem', raw);
  const { data, table } = p;
  const key = data.Key as Attrs;
  if (!table || ctx.engine.keyProblem(table.raw, key, false)) return ctx.engine.run('DeleteItem', data);
  const tooBig = keySizeProblem(table, key);
  if (tooBig) throw tooBig;
  const oldOf = withOldItem(data);
  const a = itemAccess(table, key, 'write', writeUnits(0));
  let old: Attrs | undefined;
  const index: IndexPlan | undefined = hasGlobalIndexes(table)
    ? { foreseen: [], made: async () => indexWrites(table, old, undefined) }
    : undefined;
  return metered(ctx, 'DeleteItem', p, a, (res) => writeUnits(itemSize((old = oldOf(res)))), index);
}
