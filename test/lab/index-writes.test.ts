// Writes propagate to global indexes: a constant index key takes every write
// of the table on one index partition, shows in the index's Contributor
// Insights and metrics, and throttles the table writes (back-pressure).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  BatchWriteItemCommand,
  DescribeContributorInsightsCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  UpdateContributorInsightsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { GetInsightRuleReportCommand } from '@aws-sdk/client-cloudwatch';
import { createTable, metricSum, SCORES_TABLE, sleep, startTestLab, type TestLab } from './helpers';

const GAME = 'Rock Paper Scissors';

describe('lab: writes charge global indexes', () => {
  let t: TestLab;
  before(async () => {
    t = await startTestLab({ writeLimit: 20 });
    await createTable(t.ddb, SCORES_TABLE);
    for (const index of [undefined, 'scoreIndex'])
      await t.ddb.send(
        new UpdateContributorInsightsCommand({
          TableName: 'scores',
          IndexName: index,
          ContributorInsightsAction: 'ENABLE',
        }),
      );
    await sleep(200);
  });
  after(() => t.close());

  const ruleOf = async (kind: string, index?: string) =>
    (
      await t.ddb.send(new DescribeContributorInsightsCommand({ TableName: 'scores', IndexName: index }))
    ).ContributorInsightsRuleList!.find((n) => n.includes(`-${kind}-`))!;
  const top = async (kind: string, index: string | undefined, start: number) => {
    const r = await t.cw.send(
      new GetInsightRuleReportCommand({
        RuleName: await ruleOf(kind, index),
        StartTime: new Date(start - 1000),
        EndTime: new Date(Date.now() + 1000),
        Period: 1,
      }),
    );
    return (r.Contributors ?? []).map((c): [string, number | undefined] => [c.Keys![0], c.ApproximateAggregateValue]);
  };

  test('updates that set a constant index key fill one index partition and throttle there', async () => {
    const start = Date.now();
    let ok = 0;
    let throttled = 0;
    const reasons = new Set<string>();
    // 60 distinct players at once: the table keys are cold, the index key takes all 60 writes.
    const one = async (i: number) => {
      try {
        const res = await t.ddbNoRetry.send(
          new UpdateItemCommand({
            TableName: 'scores',
            Key: { playerId: { S: `p${i}` } },
            UpdateExpression: 'SET #g = :g, score = :s',
            ExpressionAttributeNames: { '#g': 'gameTitle' },
            ExpressionAttributeValues: { ':g': { S: GAME }, ':s': { N: String(i) } },
            ReturnConsumedCapacity: 'INDEXES',
          }),
        );
        ok++;
        assert.equal(res.ConsumedCapacity?.GlobalSecondaryIndexes?.scoreIndex?.CapacityUnits, 1);
        assert.equal(res.ConsumedCapacity?.CapacityUnits, 2);
      } catch (e) {
        const err = e as { name: string; throttlingReasons?: Array<{ reason: string; resource: string }> };
        assert.equal(err.name, 'ThrottlingException');
        for (const r of err.throttlingReasons ?? []) reasons.add(`${r.reason} ${r.resource.replace(/.*:table\//, '')}`);
        throttled++;
      }
    };
    await Promise.all(Array.from({ length: 60 }, (_, i) => one(i)));
    // 20 WCU/s with a one-second burst: about 20 in the first instants, the rest refused.
    assert.ok(ok >= 20 && ok <= 45, `accepted ${ok}`);
    assert.equal(ok + throttled, 60);
    assert.deepEqual([...reasons], ['IndexWriteKeyRangeThroughputExceeded scores/index/scoreIndex']);

    const pkc = await top('PKC', 'scoreIndex', start);
    assert.deepEqual(pkc[0], [GAME, 3 * ok]);
    assert.deepEqual(await top('PKT', 'scoreIndex', start), [[GAME, throttled]]);
    // The table's own keys stay spread: no table key took more than one write.
    assert.ok((await top('PKC', undefined, start)).every(([, v]) => v === 3));
    assert.deepEqual(await top('PKT', undefined, start), []);

    const end = Date.now();
    const ix = { TableName: 'scores', GlobalSecondaryIndexName: 'scoreIndex' };
    assert.equal(await metricSum(t.cw, 'ConsumedWriteCapacityUnits', ix, start, end), ok);
    assert.equal(await metricSum(t.cw, 'WriteKeyRangeThroughputThrottleEvents', ix, start, end), throttled);
    assert.equal(await metricSum(t.cw, 'WriteThrottleEvents', { TableName: 'scores' }, start, end), 0);
  });

  test('puts, batches and transactions charge the index key too; items without it do not', async () => {
    await sleep(1500); // let the index key's bucket refill
    const start = Date.now();
    const item = (id: string, game?: string) => ({
      playerId: { S: id },
      score: { N: '1' },
      ...(game ? { gameTitle: { S: game } } : {}),
    });
    await t.ddb.send(new PutItemCommand({ TableName: 'scores', Item: item('q1', 'Chess') }));
    await t.ddb.send(
      new BatchWriteItemCommand({
        RequestItems: { scores: [{ PutRequest: { Item: item('q2', 'Chess') } }, { PutRequest: { Item: item('q3') } }] },
      }),
    );
    await t.ddb.send(
      new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: 'scores', Item: item('q4', 'Chess') } }] }),
    );
    // Moving q1 to another game removes its old entry and writes a new one.
    await t.ddb.send(
      new UpdateItemCommand({
        TableName: 'scores',
        Key: { playerId: { S: 'q1' } },
        UpdateExpression: 'SET gameTitle = :g',
        ExpressionAttributeValues: { ':g': { S: 'Go' } },
      }),
    );
    const pkc = new Map(await top('PKC', 'scoreIndex', start));
    // Put 1 + batch 1 (q3 has no index key) + transaction 2 (doubled) + the move's delete, in WCU × 3.
    assert.equal(pkc.get('Chess'), 3 * (1 + 1 + 2 + 1));
    assert.equal(pkc.get('Go'), 3);
  });
});
