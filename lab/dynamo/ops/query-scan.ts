// Query and Scan. A Query is one access to the partition key its key
// condition names (on the table or on the index it reads); its cost, the
// summed size of the items it read before any filter, is known only after it
// runs, so it is admitted on the minimum and settled with dynalite's figure.
// A Scan spans every partition: only a provisioned table's own bucket and the
// CloudWatch metrics see it.

import type { OpContext } from '../context';
import type { Attrs } from '../dynalite-engine';
import { consumedCapacity } from '../consumed';
import { readUnits } from '../item-size';
import { keyLabel, queryPartitionValue } from '../keys';
import { keySizeProblem } from '../limits';
import type { Access } from '../meter';
import type { Resource } from '../table-catalog';

async function readMany(ctx: OpContext, op: 'Query' | 'Scan', raw: Attrs): Promise<Attrs> {
  const data = ctx.engine.validate(op, raw);
  const table = await ctx.catalog.get(String(data.TableName));
  const index = data.IndexName === undefined ? undefined : table?.indexes.get(String(data.IndexName));
  const resource: Resource | undefined = data.IndexName === undefined ? table : index;
  if (!table || !resource) return ctx.engine.run(op, data);

  const pkValue = op === 'Query' ? queryPartitionValue(data, resource.hashKey) : undefined;
  const tooBig = pkValue === undefined ? null : keySizeProblem(resource, { [resource.hashKey]: pkValue });
  if (tooBig) throw tooBig;
  const consistent = data.ConsistentRead === true;
  const globalIndex =
    index !== undefined &&
    table.raw.GlobalSecondaryIndexes !== undefined &&
    (table.raw.GlobalSecondaryIndexes as Attrs[]).some((g) => g.IndexName === index.index);
  const a: Access = {
    resource,
    dir: 'read',
    units: readUnits(0, consistent),
    pk: keyLabel(pkValue),
    globalIndex,
  };
  const refused = ctx.meter.tryAdmit(a);
  if (refused) throw ctx.meter.reject(op, [refused]);

  const asked = data.ReturnConsumedCapacity;
  data.ReturnConsumedCapacity = 'TOTAL';
  let res: Attrs;
  try {
    res = await ctx.engine.run(op, data);
  } catch (e) {
    ctx.meter.refund(a);
    throw e;
  }
  const reported = Number((res.ConsumedCapacity as Attrs | undefined)?.CapacityUnits ?? 0);
  const actual = Math.max(a.units, reported);
  ctx.meter.settle(a, actual);
  delete res.ConsumedCapacity;
  const cc = consumedCapacity(asked, [
    { table: table.table, index: index?.index, global: globalIndex, read: actual, write: 0 },
  ]);
  if (cc) res.ConsumedCapacity = cc[0];
  return res;
}

export const query = (ctx: OpContext, raw: Attrs) => readMany(ctx, 'Query', raw);
export const scan = (ctx: OpContext, raw: Attrs) => readMany(ctx, 'Scan', raw);
