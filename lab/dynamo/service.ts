// The DynamoDB side of the lab: one operation name plus its parsed JSON body
// in, one status plus JSON body out. Data-plane operations go through the
// metering layer; table management passes straight to dynalite; Contributor
// Insights and transactions are the lab's own.

import type { OpContext } from './context';
import type { Attrs } from './dynalite-engine';
import { fromDynalite, serializationError, unknownOperation } from './errors';
import { nestingProblem } from './limits';
import { batchGetItem, batchWriteItem } from './ops/batch-ops';
import { describeContributorInsights, listContributorInsights, updateContributorInsights } from './ops/insights-ops';
import { deleteItem, getItem, putItem, updateItem } from './ops/item-ops';
import { query, scan } from './ops/query-scan';
import { transactGetItems, transactWriteItems } from './ops/transactions';

type Handler = (ctx: OpContext, body: Attrs) => Promise<Attrs>;

// Operation names come from the X-Amz-Target header, so they are looked up
// in Maps: an object literal would also "find" constructor, __proto__,
// toString, valueOf ... on its prototype and call them as handlers.

/** Reads and writes, run shared through the gate (transactions take it exclusively themselves). */
const METERED = new Map<string, Handler>([
  ['GetItem', getItem],
  ['PutItem', putItem],
  ['UpdateItem', updateItem],
  ['DeleteItem', deleteItem],
  ['Query', query],
  ['Scan', scan],
  ['BatchGetItem', batchGetItem],
  ['BatchWriteItem', batchWriteItem],
]);

const OWN = new Map<string, Handler>([
  ['TransactWriteItems', transactWriteItems],
  ['TransactGetItems', transactGetItems],
  ['UpdateContributorInsights', updateContributorInsights],
  ['DescribeContributorInsights', describeContributorInsights],
  ['ListContributorInsights', listContributorInsights],
  ['DescribeEndpoints', async () => ({ Endpoints: [{ Address: 'localhost', CachePeriodInMinutes: 1440 }] })],
]);

/** Passed to dynalite unmetered; the first three change what the catalog caches. */
const TABLE_CHANGES = new Set(['CreateTable', 'UpdateTable', 'DeleteTable']);

export const SUPPORTED_OPERATIONS = [
  ...METERED.keys(),
  ...OWN.keys(),
  'CreateTable',
  'UpdateTable',
  'DeleteTable',
  'DescribeTable',
  'ListTables',
  'DescribeTimeToLive',
  'TagResource',
  'UntagResource',
  'ListTagsOfResource',
].sort();

export interface Reply {
  status: number;
  body: Record<string, unknown>;
}

export class DynamoService {
  constructor(private readonly ctx: OpContext) {}

  async handle(op: string, body: unknown): Promise<Reply> {
    try {
      return { status: 200, body: await this.dispatch(op, body) };
    } catch (e) {
      const err = fromDynalite(e);
      return { status: err.status, body: err.body };
    }
  }

  private async dispatch(op: string, body: unknown): Promise<Attrs> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw serializationError('Start of structure or map found where not expected');
    }
    const data = body as Attrs;
    // Before anything recursive (dynalite's checks, item sizing) sees a value.
    const deep = nestingProblem(data);
    if (deep) throw deep;
    const metered = METERED.get(op);
    if (metered) return this.ctx.gate.run(false, () => metered(this.ctx, data));
    const own = OWN.get(op);
    if (own) return own(this.ctx, data);
    if (this.ctx.engine.isDynaliteOperation(op)) {
      const tableName = typeof data.TableName === 'string' ? data.TableName : undefined;
      // Read before dynalite's checks, which drop what it does not know from the request.
      const stream = data.StreamSpecification;
      const res = await this.ctx.engine.call(op, data);
      if (tableName && TABLE_CHANGES.has(op)) {
        this.ctx.catalog.invalidate(tableName);
        if (op === 'DeleteTable') {
          this.ctx.insights.dropTable(tableName);
          this.ctx.metrics.dropTable(tableName);
          this.ctx.streams.drop(tableName);
        } else this.ctx.streams.noteRequest(tableName, stream);
      }
      if (op === 'DescribeTable') return { ...res, Table: this.ctx.streams.describe(res.Table as Attrs | undefined) };
      if (op === 'CreateTable' || op === 'UpdateTable')
        return { ...res, TableDescription: this.ctx.streams.describe(res.TableDescription as Attrs | undefined) };
      return res;
    }
    throw unknownOperation(
      `The ShardLens lab does not implement the DynamoDB operation ${op}. ` +
        `Supported: ${SUPPORTED_OPERATIONS.join(', ')}.`,
    );
  }
}
