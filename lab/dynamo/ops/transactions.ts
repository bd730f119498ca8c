// TransactWriteItems and TransactGetItems, which dynalite does not implement.
// Each action is validated by dynalite's validator for the matching single-item
// operation; the transaction then runs with the data plane held exclusively:
// every condition is checked against a snapshot before anything is written,
// writes run one by one, and a failure part-way restores the snapshot. Items
// cost double (DynamoDB's transactional pricing) and are admitted all or none;
// a throttled transaction is cancelled with a ThrottlingError (on-demand) or
// ProvisionedThroughputExceeded (provisioned) reason on the throttled items.

import type { OpContext } from '../context';
import type { Attrs, DynaliteOperation } from '../dynalite-engine';
import { consumedCapacity, type Consumption } from '../consumed';
import { ServiceError, transactionCanceled, validationError, type CancellationReason } from '../errors';
import { itemSize, readUnits, writeUnits } from '../item-size';
import type { Access } from '../meter';
import type { TableInfo } from '../table-catalog';
import { itemProblem, keySizeProblem, updateValuesProblem } from '../limits';
import { itemAccess } from './item-ops';
import { assignedValues, indexWrites, settleIndexWrites } from '../index-writes';

const MAX_ACTIONS = 100;
type WriteKind = 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
const VALIDATOR: Record<WriteKind, DynaliteOperation> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  // A condition check has the shape of a conditional delete that never runs.
  ConditionCheck: 'DeleteItem',
};

interface Action {
  kind: WriteKind | 'Get';
  data: Attrs;
  table: TableInfo;
  key: Attrs;
  oldOnFailure: boolean;
  old?: Attrs;
  access?: Access;
  /** The global-index writes it will make, known from the snapshot (doubled, as the table write). */
  indexes?: Access[];
}

const doubled = (list: Access[]) => list.map((x) => ({ ...x, units: 2 * x.units }));

/** The item an action leaves behind, as far as the snapshot tells before it runs. */
function expectedItem(a: Action): Attrs | undefined {
  if (a.kind === 'Put') return a.data.Item as Attrs;
  if (a.kind === 'Update') return { ...a.old, ...assignedValues(a.data), ...a.key };
  if (a.kind === 'Delete') return undefined;
  return a.old;
}

function checkList(raw: Attrs): Attrs[] {
  const items = raw.TransactItems;
  if (!Array.isArray(items)) {
    if (items === undefined)
      throw validationError("The parameter 'TransactItems' is required but was not present in the request");
    throw new ServiceError(400, {
      __type: 'com.amazon.coral.service#SerializationException',
      Message: 'TransactItems must be a list',
    });
  }
  if (items.length < 1 || items.length > MAX_ACTIONS) {
    throw validationError(
      `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length ` +
        `${items.length < 1 ? 'greater than or equal to 1' : `less than or equal to ${MAX_ACTIONS}`}`,
    );
  }
  return items as Attrs[];
}

/** Validates every action and resolves its table; throws the error DynamoDB would. */
async function parseActions(ctx: OpContext, raw: Attrs, kinds: Array<WriteKind | 'Get'>): Promise<Action[]> {
  const actions: Action[] = [];
  const seen = new Set<string>();
  for (const entry of checkList(raw)) {
    const present = kinds.filter((k) => entry && typeof entry === 'object' && entry[k] !== undefined);
    if (present.length !== 1) {
      throw validationError(`TransactItems can only contain one of ${kinds.join(', ')} per element`);
    }
    const kind = present[0];
    const body = entry[kind] as Attrs;
    const oldOnFailure = body?.ReturnValuesOnConditionCheckFailure === 'ALL_OLD';
    if (kind === 'ConditionCheck' && !body?.ConditionExpression) {
      throw validationError("The parameter 'ConditionExpression' is required for a ConditionCheck");
    }
    const data = ctx.engine.validate(kind === 'Get' ? 'GetItem' : VALIDATOR[kind], { ...body });
    const table = await ctx.catalog.get(String(data.TableName));
    if (!table)
      throw new ServiceError(400, {
        __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException',
        message: 'Requested resource not found',
      });
    const key = (kind === 'Put' ? data.Item : data.Key) as Attrs;
    const problem =
      ctx.engine.keyProblem(table.raw, key, kind === 'Put') ??
      (kind === 'Put' ? itemProblem(table, key) : keySizeProblem(table, key)) ??
      (kind === 'Update' ? updateValuesProblem(data.ExpressionAttributeValues) : null);
    if (problem) throw problem;
    const id = `${table.table}\u0000${ctx.engine.keyId(table.raw, key)}`;
    if (seen.has(id)) throw validationError('Transaction request cannot include multiple operations on one item');
    seen.add(id);
    actions.push({ kind, data, table, key, oldOnFailure });
  }
  return actions;
}

/** Admits all actions or cancels the transaction naming the throttled ones. */
function admitOrCancel(ctx: OpContext, op: string, actions: Action[]): void {
  const refused = ctx.meter.admit(actions.flatMap((a) => [a.access!, ...(a.indexes ?? [])]));
  if (refused.length === 0) return;
  ctx.meter.recordThrottles(op, refused, true);
  const throttled = new Set(refused.map((r) => r.access));
  throw transactionCanceled(
    actions.map((a): CancellationReason => {
      if (![a.access!, ...(a.indexes ?? [])].some((x) => throttled.has(x))) return { Code: 'None' };
      return a.table.onDemand
        ? { Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity of your table or index.' }
        : {
            Code: 'ProvisionedThroughputExceeded',
            Message: 'The level of configured provisioned throughput for the table was exceeded.',
          };
    }),
  );
}

function keyOf(a: Action): Attrs {
  const key: Attrs = { [a.table.hashKey]: a.key[a.table.hashKey] };
  if (a.table.rangeKey) key[a.table.rangeKey] = a.key[a.table.rangeKey];
  return key;
}

/** Puts an item back as it was before the transaction (or removes it if it did not exist). */
async function restore(ctx: OpContext, a: Action): Promise<void> {
  if (a.old) await ctx.engine.call('PutItem', { TableName: a.table.table, Item: a.old });
  else await ctx.engine.call('DeleteItem', { TableName: a.table.table, Key: keyOf(a) });
}

export async function transactWriteItems(ctx: OpContext, raw: Attrs): Promise<Attrs> {
  const asked = raw.ReturnConsumedCapacity;
  const actions = await parseActions(ctx, raw, ['Put', 'Update', 'Delete', 'ConditionCheck']);
  return ctx.gate.run(true, async () => {
    for (const a of actions) {
      a.old = await ctx.engine.readItem(a.table.raw, a.key);
      const size = Math.max(itemSize(a.old), a.kind === 'Put' ? itemSize(a.data.Item as Attrs) : 0);
      a.access = itemAccess(a.table, a.key, 'write', 2 * writeUnits(size));
      a.indexes = doubled(indexWrites(a.table, a.old, expectedItem(a)));
    }
    admitOrCancel(ctx, 'TransactWriteItems', actions);

    const failed = actions.map((a) => ctx.engine.conditionFails(a.data, a.old));
    if (failed.some(Boolean)) {
      // Cancelled transactions still consume the capacity of the items they read.
      for (const a of actions) {
        ctx.meter.settle(a.access!, a.access!.units);
        for (const x of a.indexes ?? []) ctx.meter.refund(x);
      }
      throw transactionCanceled(
        actions.map((a, i) =>
          failed[i]
            ? {
                Code: 'ConditionalCheckFailed',
                Message: 'The conditional request failed',
                ...(a.oldOnFailure && a.old ? { Item: a.old } : {}),
              }
            : { Code: 'None' },
        ),
      );
    }

    const done: Action[] = [];
    const parts: Consumption[] = [];
    let settled = 0;
    try {
      for (const a of actions) {
        let units = a.access!.units;
        if (a.kind !== 'ConditionCheck') {
          // The conditions were checked against the snapshot already.
          const data: Attrs = { ...a.data, ReturnConsumedCapacity: 'TOTAL' };
          delete data._condition;
          delete data.Expected;
          const res = await ctx.engine.run(VALIDATOR[a.kind as WriteKind], data);
          done.push(a);
          const reported = Number((res.ConsumedCapacity as Attrs | undefined)?.CapacityUnits ?? 0);
          units = Math.max(units, 2 * reported);
        }
        ctx.meter.settle(a.access!, units);
        settled++;
        parts.push({ table: a.table.table, read: 0, write: units });
        if (a.kind === 'ConditionCheck') continue;
        const after = a.kind === 'Delete' ? undefined : await ctx.engine.readItem(a.table.raw, a.key);
        parts.push(...settleIndexWrites(ctx, a.indexes ?? [], doubled(indexWrites(a.table, a.old, after))));
        a.indexes = [];
      }
    } catch (e) {
      for (const a of done.reverse()) await restore(ctx, a);
      for (const a of actions.slice(settled)) ctx.meter.refund(a.access!);
      for (const a of actions) for (const x of a.indexes ?? []) ctx.meter.refund(x);
      throw e;
    }
    const out: Attrs = {};
    const cc = consumedCapacity(asked, parts);
    if (cc) out.ConsumedCapacity = cc;
    return out;
  });
}

export async function transactGetItems(ctx: OpContext, raw: Attrs): Promise<Attrs> {
  const asked = raw.ReturnConsumedCapacity;
  const actions = await parseActions(ctx, raw, ['Get']);
  return ctx.gate.run(true, async () => {
    for (const a of actions) a.access = itemAccess(a.table, a.key, 'read', 2 * readUnits(0, true));
    admitOrCancel(ctx, 'TransactGetItems', actions);
    const parts: Consumption[] = [];
    const responses: Attrs[] = [];
    for (const a of actions) {
      const res = await ctx.engine.run('GetItem', { ...a.data, ConsistentRead: true, ReturnConsumedCapacity: 'TOTAL' });
      const units = 2 * Number((res.ConsumedCapacity as Attrs | undefined)?.CapacityUnits ?? 1);
      ctx.meter.settle(a.access!, units);
      parts.push({ table: a.table.table, read: units, write: 0 });
      responses.push(res.Item ? { Item: res.Item } : {});
    }
    const out: Attrs = { Responses: responses };
    const cc = consumedCapacity(asked, parts);
    if (cc) out.ConsumedCapacity = cc;
    return out;
  });
}
