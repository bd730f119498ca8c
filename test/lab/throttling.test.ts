// Throttling as the SDKs see it: a key driven past 1,000 WCU/s is held near
// 1,000 accepted units/s with the rest refused with the service's exception
// and reason; the same rate spread over 10 shards passes; CloudWatch sums
// match what the client counted. All numbers are measured, not timed.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BatchWriteItemCommand, PutItemCommand, QueryCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { runPacedLoad, type Outcome } from '../../lab/load/paced-load';
import { boardTable, createTable, metricSum, startTestLab, THROTTLE_NAMES, type TestLab } from './helpers';

// 20 WCU per write: few requests carry a high write rate, so a busy machine can still offer it.
const BLOB = 'x'.repeat(19 * 1024 + 512);
const UNITS = 20;
const LIMIT = 1000;

/** A PutItem outcome: accepted units, or the throttle and its reasons. */
async function put(client: DynamoDBClient, table: string, pk: string, sk: string, blob = BLOB): Promise<Outcome> {
  try {
    const res = await client.send(
      new PutItemCommand({
        TableName: table,
        Item: { PK: { S: pk }, SK: { S: sk }, blob: { S: blob } },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    return { accepted: 1, throttled: 0, acceptedUnits: res.ConsumedCapacity?.CapacityUnits ?? 0 };
  } catch (e) {
    const err = e as {
      name: string;
      throttlingReasons?: Array<{ reason?: string; resource?: string }>;
      ThrottlingReasons?: Array<{ reason?: string; resource?: string }>;
    };
    if (!THROTTLE_NAMES.has(err.name)) return { accepted: 0, throttled: 0, acceptedUnits: 0, error: err.name };
    const reasons = (err.throttlingReasons ?? err.ThrottlingReasons ?? []).map(
      (r) => `${err.name}:${r.reason}:${r.resource}`,
    );
    return { accepted: 0, throttled: 1, acceptedUnits: 0, reasons };
  }
}

describe('per-partition-key throttling', () => {
  let t: TestLab;
  let arn: string;
  before(async () => {
    t = await startTestLab();
    await createTable(t.ddb, boardTable('hot'));
    arn = 'arn:aws:dynamodb:us-east-1:000000000000:table/hot';
  });
  after(() => t.close());

  test('one key at ~2,000 WCU/s is held near 1,000 accepted units/s, the rest throttled with the key-range reason', async () => {
    const start = Date.now();
    const r = await runPacedLoad({
      callsPerSecond: 100,
      durationMs: 3000,
      call: (i) => put(t.ddbNoRetry, 'hot', 'BOARD#global', `P${i}`),
    });
    const end = Date.now();
    const seconds = r.elapsedMs / 1000;
    const offered = (r.sent * UNITS) / seconds;
    assert.ok(
      offered > 1.3 * LIMIT,
      `this machine offered only ${offered.toFixed(0)} WCU/s; the test needs > ${1.3 * LIMIT}`,
    );
    assert.deepEqual([...r.errors], [], 'no errors other than throttles');
    assert.ok(r.throttled > 0);

    // The key's bucket starts full (one second of capacity), then refills at 1,000/s.
    const expected = LIMIT * seconds + LIMIT;
    const ratio = r.acceptedUnits / expected;
    assert.ok(
      ratio > 0.9 && ratio < 1.06,
      `accepted ${r.acceptedUnits} units in ${seconds.toFixed(2)} s; expected about ${expected.toFixed(0)} (ratio ${ratio.toFixed(3)})`,
    );
    // Once the burst is spent (third second on), each second takes about the ceiling.
    const steady = r.perSecond.slice(2, Math.floor(seconds)).map((s) => s.acceptedUnits);
    for (const u of steady) assert.ok(u > 0.85 * LIMIT && u < 1.15 * LIMIT, `steady-state second took ${u} units`);

    // On-demand tables answer ThrottlingException; the reason names the table.
    assert.deepEqual([...r.reasons.keys()], [`ThrottlingException:TableWriteKeyRangeThroughputExceeded:${arn}`]);
    assert.equal(r.reasons.get(`ThrottlingException:TableWriteKeyRangeThroughputExceeded:${arn}`), r.throttled);

    // CloudWatch saw exactly what the client counted.
    const dims = { TableName: 'hot' };
    assert.equal(await metricSum(t.cw, 'ConsumedWriteCapacityUnits', dims, start, end), r.acceptedUnits);
    assert.equal(await metricSum(t.cw, 'WriteThrottleEvents', dims, start, end), r.throttled);
    assert.equal(await metricSum(t.cw, 'WriteKeyRangeThroughputThrottleEvents', dims, start, end), r.throttled);
    assert.equal(await metricSum(t.cw, 'WriteProvisionedThroughputThrottleEvents', dims, start, end), 0);
    assert.equal(
      await metricSum(t.cw, 'ThrottledRequests', { TableName: 'hot', Operation: 'PutItem' }, start, end),
      r.throttled,
    );
  });

  test('the same rate over 10 shards is never throttled', async () => {
    const r = await runPacedLoad({
      callsPerSecond: 100,
      durationMs: 2000,
      call: (i) => put(t.ddbNoRetry, 'hot', `BOARD#global#${i % 10}`, `P${i}`),
    });
    const offered = (r.sent * UNITS) / (r.elapsedMs / 1000);
    assert.ok(offered > 1.3 * LIMIT, `offered only ${offered.toFixed(0)} WCU/s`);
    assert.equal(r.throttled, 0);
    assert.deepEqual([...r.errors], []);
    assert.equal(r.acceptedUnits, r.sent * UNITS);
  });

  test("the SDK's own retries and back-off get throttled writes through", async () => {
    let retried = 0;
    let delay = 0;
    await runPacedLoad({
      callsPerSecond: 100,
      durationMs: 1500,
      call: async (i) => {
        try {
          const res = await t.ddb.send(
            new PutItemCommand({
              TableName: 'hot',
              Item: { PK: { S: 'RETRY#key' }, SK: { S: `P${i}` }, blob: { S: BLOB } },
            }),
          );
          if ((res.$metadata.attempts ?? 1) > 1) retried++;
          delay += res.$metadata.totalRetryDelay ?? 0;
        } catch (e) {
          // Past the default 3 attempts the throttle reaches the caller.
          assert.ok(THROTTLE_NAMES.has((e as Error).name), (e as Error).name);
        }
        return { accepted: 1, throttled: 0, acceptedUnits: 0 };
      },
    });
    assert.ok(retried > 0, 'some writes succeeded only after SDK retries');
    assert.ok(delay > 0, 'the SDK backed off between attempts');
  });

  test('BatchWriteItem returns throttled items as UnprocessedItems, and fails only when all are throttled', async () => {
    const batch = (n: number) =>
      t.ddbNoRetry.send(
        new BatchWriteItemCommand({
          RequestItems: {
            hot: Array.from({ length: 25 }, (_, j) => ({
              PutRequest: { Item: { PK: { S: 'BATCH#key' }, SK: { S: `B${n}-${j}` }, blob: { S: BLOB } } },
            })),
          },
        }),
      );
    // 25 items x 20 WCU = 500 WCU per batch against a bucket of 1,000 refilled at 1,000/s.
    const start = performance.now();
    let accepted = 0;
    let unprocessed = 0;
    let thrown = 0;
    for (let n = 0; n < 8; n++) {
      try {
        const res = await batch(n);
        const left = res.UnprocessedItems?.hot?.length ?? 0;
        unprocessed += left;
        accepted += 25 - left;
      } catch (e) {
        assert.ok(THROTTLE_NAMES.has((e as Error).name));
        thrown++;
      }
    }
    const refill = (LIMIT * (performance.now() - start)) / 1000;
    const most = Math.ceil((LIMIT + refill) / UNITS) + 1;
    assert.ok(
      accepted >= LIMIT / UNITS && accepted <= most,
      `accepted ${accepted} items; the bucket allows ${LIMIT / UNITS}..${most}`,
    );
    assert.ok(unprocessed > 0 || thrown > 0);
    assert.equal(accepted + unprocessed + 25 * thrown, 200);
  });

  test('Queries reading one key past 3,000 RCU/s are throttled with the read reason', async () => {
    // 40 items of ~10 KB under one key: a strongly consistent Query reads ~400 KB (100 RCU)
    // whatever its projection, so 50 small replies a second ask for ~5,000 RCU/s.
    const blob = 'y'.repeat(10 * 1024 - 40);
    for (let i = 0; i < 40; i++) await put(t.ddb, 'hot', 'READ#key', `I${String(i).padStart(2, '0')}`, blob);
    const r = await runPacedLoad({
      callsPerSecond: 50,
      durationMs: 3000,
      call: async () => {
        try {
          const res = await t.ddbNoRetry.send(
            new QueryCommand({
              TableName: 'hot',
              KeyConditionExpression: 'PK = :pk',
              ExpressionAttributeValues: { ':pk': { S: 'READ#key' } },
              ProjectionExpression: 'SK',
              ConsistentRead: true,
              ReturnConsumedCapacity: 'TOTAL',
            }),
          );
          return { accepted: 1, throttled: 0, acceptedUnits: res.ConsumedCapacity?.CapacityUnits ?? 0 };
        } catch (e) {
          const err = e as { name: string; throttlingReasons?: Array<{ reason?: string }> };
          if (!THROTTLE_NAMES.has(err.name)) return { accepted: 0, throttled: 0, acceptedUnits: 0, error: err.name };
          return {
            accepted: 0,
            throttled: 1,
            acceptedUnits: 0,
            reasons: (err.throttlingReasons ?? []).map((x) => String(x.reason)),
          };
        }
      },
    });
    const seconds = r.elapsedMs / 1000;
    const perQuery = r.acceptedUnits / r.accepted;
    assert.ok(perQuery >= 95 && perQuery <= 105, `a Query costs ${perQuery} RCU`);
    assert.ok((r.sent * perQuery) / seconds > 3900, `offered only ${((r.sent * perQuery) / seconds).toFixed(0)} RCU/s`);
    assert.deepEqual([...r.errors], []);
    assert.ok(r.throttled > 0);
    assert.deepEqual([...r.reasons.keys()], ['TableReadKeyRangeThroughputExceeded']);
    // Admitted on the minimum and settled afterwards, a Query may overdraw the bucket by its own cost.
    const expected = 3000 * seconds + 3000;
    assert.ok(
      r.acceptedUnits <= expected + perQuery && r.acceptedUnits > expected * 0.88,
      `accepted ${r.acceptedUnits} RCU, expected about ${expected.toFixed(0)}`,
    );
  });
});

describe("a provisioned table's own capacity", () => {
  // A small provisioned rate, offered 4× over by single 1-WCU puts: a machine that
  // can make a hundred requests a second still overruns it.
  const WCU = 25;
  let t: TestLab;
  before(async () => {
    // One second of burst instead of DynamoDB's 300, so the limit shows within the test.
    t = await startTestLab({ tableBurstSeconds: 1 });
    await createTable(
      t.ddb,
      boardTable('prov', {
        BillingMode: 'PROVISIONED',
        ProvisionedThroughput: { ReadCapacityUnits: 50, WriteCapacityUnits: WCU },
      }),
    );
  });
  after(() => t.close());

  test('writes over the provisioned WCU get ProvisionedThroughputExceededException with the provisioned reason', async () => {
    const r = await runPacedLoad({
      callsPerSecond: 4 * WCU,
      durationMs: 2000,
      call: (i) => put(t.ddbNoRetry, 'prov', `USER#${i}`, 'x', 'small'),
    });
    const seconds = r.elapsedMs / 1000;
    assert.ok(
      r.sent / seconds > 2 * WCU,
      `offered only ${(r.sent / seconds).toFixed(0)} WCU/s; the test needs > ${2 * WCU}`,
    );
    const arn = 'arn:aws:dynamodb:us-east-1:000000000000:table/prov';
    assert.deepEqual(
      [...r.reasons.keys()],
      [`ProvisionedThroughputExceededException:TableWriteProvisionedThroughputExceeded:${arn}`],
    );
    // The table's bucket starts with its one second of burst, then refills at WCU/s.
    const expected = WCU * seconds + WCU;
    assert.ok(
      r.acceptedUnits > expected * 0.85 && r.acceptedUnits < expected * 1.1,
      `accepted ${r.acceptedUnits} WCU, expected about ${expected.toFixed(0)}; per second ${JSON.stringify(r.perSecond)} sent ${r.sent} skipped ${r.skipped} errors ${JSON.stringify([...r.errors])}`,
    );
  });
});
