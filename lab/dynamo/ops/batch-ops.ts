// BatchGetItem and BatchWriteItem, item by item as DynamoDB meters them: each
// key is admitted or throttled on its own partition key, throttled ones come
// back in UnprocessedKeys / UnprocessedItems, and only when every item is
// throttled does the whole request fail with the throttling exception (and
// count once in ThrottledRequests).

import type { OpContext } from '../context';
import type { Attrs } from '../dynalite-engine';
import { consumedCapacity, type Consumption } from '../consumed';
import { itemSize, readUnits, writeUnits } from '../item-size';
import type { Rejection } from '../meter';
import type { TableInfo } from '../table-catalog';
import { itemProblem, keySizeProblem } from '../limits';
import { itemAccess } from './item-ops';
import { indexWrites, settleIndexWrites } from '../index-writes';

interface KeysAndAttributes {
  Keys: Attrs[];
  ConsistentRead?: boolean;
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Attrs;
  AttributesToGet?: string[];
}
interface WriteRequest {
  PutRequest?: { Item: Attrs };
  DeleteRequest?: { Key: Attrs };
}

/** The tables a batch names, or undefined when one is missing (dynalite then answers with its error). */
async function tablesOf(ctx: OpContext, names: string[]): Promise<Map<string, TableInfo> | undefined> {
  const tables = new Map<string, TableInfo>();
  for (const name of names) {
    const t = await ctx.catalog.get(name);
    if (!t) return undefined;
    tables.set(name, t);
  }
  return tables;
}

const unitsOf = (res: Attrs, fallback: number) =>
  Number((res.ConsumedCapacity as Attrs | undefined)?.CapacityUnits ?? fallback);

export async function batchGetItem(ctx: OpContext, raw: Attrs): Promise<Attrs> {
  const data = ctx.engine.validate('BatchGetItem', raw);
  const requests = data.RequestItems as Record<string, KeysAndAttributes>;
  const tables = await tablesOf(ctx, Object.keys(requests));
  const keysValid =
    tables &&
    Object.entries(requests).every(([n, r]) =>
      r.Keys.every((k) => !ctx.engine.keyProblem(tables.get(n)!.raw, k, false)),
    );
  if (!tables || !keysValid) return ctx.engine.run('BatchGetItem', data);
  for (const [n, r] of Object.entries(requests)) {
    for (const k of r.Keys) {
      const tooBig = keySizeProblem(tables.get(n)!, k);
      if (tooBig) throw tooBig;
    }
  }

  const refused: Rejection[] = [];
  const unprocessed: Record<string, KeysAndAttributes> = {};
  const admitted: Array<{ name: string; key: Attrs; access: ReturnType<typeof itemAccess> }> = [];
  for (const [name, spec] of Object.entries(requests)) {
    for (const key of spec.Keys) {
      const access = itemAccess(tables.get(name)!, key, 'read', readUnits(0, spec.ConsistentRead === true));
      const r = ctx.meter.tryAdmit(access);
      if (!r) {
        admitted.push({ name, key, access });
        continue;
      }
      refused.push(r);
      const { Keys: _keys, ...rest } = spec;
      (unprocessed[name] ??= { ...rest, Keys: [] }).Keys.push(key);
    }
  }
  if (admitted.length === 0) throw ctx.meter.reject('BatchGetItem', refused);
  ctx.meter.recordThrottles('BatchGetItem', refused, false);

  const responses: Record<string, Attrs[]> = {};
  for (const name of Object.keys(requests)) responses[name] = [];
  const parts: Consumption[] = [];
  await Promise.all(
    admitted.map(async ({ name, key, access }) => {
      const spec = requests[name];
      let res: Attrs;
      try {
        res = await ctx.engine.call('GetItem', {
          TableName: name,
          Key: key,
          ConsistentRead: spec.ConsistentRead,
          ProjectionExpression: spec.ProjectionExpression,
          ExpressionAttributeNames: spec.ExpressionAttributeNames,
          AttributesToGet: spec.AttributesToGet,
          ReturnConsumedCapacity: 'TOTAL',
        });
      } catch (e) {
        ctx.meter.refund(access);
        throw e;
      }
      const units = unitsOf(res, access.units);
      ctx.meter.settle(access, units);
      parts.push({ table: name, read: units, write: 0 });
      if (res.Item) responses[name].push(res.Item as Attrs);
    }),
  );
  const out: Attrs = { Responses: responses, UnprocessedKeys: unprocessed };
  const cc = consumedCapacity(data.ReturnConsumedCapacity, parts);
  if (cc) out.ConsumedCapacity = cc;
  return out;
}

export async function batchWriteItem(ctx: OpContext, raw: Attrs): Promise<Attrs> {
  const data = ctx.engine.validate('BatchWriteItem', raw);
  const requests = data.RequestItems as Record<string, WriteRequest[]>;
  const tables = await tablesOf(ctx, Object.keys(requests));
  if (!tables || !batchIsValid(ctx, tables, requests)) return ctx.engine.run('BatchWriteItem', data);
  // Sizes in UTF-8 bytes (dynalite counts characters); nothing is written when one is too big.
  for (const [name, reqs] of Object.entries(requests)) {
    for (const req of reqs) {
      const table = tables.get(name)!;
      const tooBig = req.PutRequest
        ? itemProblem(table, req.PutRequest.Item)
        : keySizeProblem(table, req.DeleteRequest!.Key);
      if (tooBig) throw tooBig;
    }
  }

  // Each write costs the larger of its old and new item: admitted on the new
  // one (or the minimum for a delete), settled from the old item dynalite returns.
  const writes = Object.entries(requests).flatMap(([name, reqs]) =>
    reqs.map((req) => {
      const table = tables.get(name)!;
      const key = req.PutRequest ? req.PutRequest.Item : req.DeleteRequest!.Key;
      const newSize = req.PutRequest ? itemSize(req.PutRequest.Item) : 0;
      // A Put's index writes are foreseen from its item; a Delete's are known once it ran.
      const foreseen = req.PutRequest ? indexWrites(table, undefined, req.PutRequest.Item) : [];
      return { name, table, req, newSize, foreseen, access: itemAccess(table, key, 'write', writeUnits(newSize)) };
    }),
  );

  const refused: Rejection[] = [];
  const unprocessed: Record<string, WriteRequest[]> = {};
  const admitted = writes.filter((w) => {
    const r = ctx.meter.admit([w.access, ...w.foreseen]);
    if (r.length > 0) {
      refused.push(...r);
      (unprocessed[w.name] ??= []).push(w.req);
    }
    return r.length === 0;
  });
  if (admitted.length === 0) throw ctx.meter.reject('BatchWriteItem', refused);
  ctx.meter.recordThrottles('BatchWriteItem', refused, false);

  const parts: Consumption[] = [];
  await Promise.all(
    admitted.map(async ({ name, table, req, newSize, foreseen, access }) => {
      let res: Attrs;
      try {
        res = req.PutRequest
          ? await ctx.engine.call('PutItem', { TableName: name, Item: req.PutRequest.Item, ReturnValues: 'ALL_OLD' })
          : await ctx.engine.call('DeleteItem', {
              TableName: name,
              Key: req.DeleteRequest!.Key,
              ReturnValues: 'ALL_OLD',
            });
      } catch (e) {
        ctx.meter.refund(access);
        for (const f of foreseen) ctx.meter.refund(f);
        throw e;
      }
      const old = res.Attributes as Attrs | undefined;
      const units = writeUnits(Math.max(newSize, itemSize(old)));
      ctx.meter.settle(access, units);
      parts.push({ table: name, read: 0, write: units });
      parts.push(...settleIndexWrites(ctx, foreseen, indexWrites(table, old, req.PutRequest?.Item)));
    }),
  );
  const out: Attrs = { UnprocessedItems: unprocessed };
  const cc = consumedCapacity(data.ReturnConsumedCapacity, parts);
  if (cc) out.ConsumedCapacity = cc;
  return out;
}

/** Keys match the schema and no item appears twice; otherwise dynalite reports the error without writing. */
function batchIsValid(
  ctx: OpContext,
  tables: Map<string, TableInfo>,
  requests: Record<string, WriteRequest[]>,
): boolean {
  for (const [name, reqs] of Object.entries(requests)) {
    const table = tables.get(name)!;
    const seen = new Set<string>();
    for (const req of reqs) {
      const key = req.PutRequest ? req.PutRequest.Item : req.DeleteRequest?.Key;
      if (!key || ctx.engine.keyProblem(table.raw, key, req.PutRequest !== undefined)) return false;
      const id = ctx.engine.keyId(table.raw, key);
      if (seen.has(id)) return false;
      seen.add(id);
    }
  }
  return true;
}
