import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hotKeyLiveFindings, linkReport } from '../../server/src/heat';
import type { LiveData, RuleReport } from '../../server/src/heat/types';
import { assertMetadata, ruleOf, withIndexed, type Files } from './tester';

/**
 * SL009 hot-key-live is made from live data, not from the code alone: each case is a
 * workspace and what Contributor Insights reported for its table over one hour (60-second
 * periods, ConsumedThroughputUnits = 3 × write units + read units; a partition's ceiling
 * is 3,000 units a second, and SL009 fires above 80% of it, or at a shard above 3× its
 * set's mean). The findings are asserted as the other rules' are: file, line, severity: a
 * warning when the key throttled (requests were refused), info when it did not.
 */

const TABLE = {
  table: 'scores',
  partitionKey: 'PK',
  sortKey: 'SK',
  billingMode: 'PAY_PER_REQUEST' as const,
  indexes: [],
};

/**
 * One hour of a PKC report: each contributor's key and its busiest minute's units (its
 * total is 30 such minutes); with `throttled`, a PKT report of each key's throttle events.
 */
function liveHour(
  contributors: Array<[key: string, peakUnitsPerMinute: number]>,
  throttled: Array<[key: string, events: number]> = [],
): LiveData {
  const report: RuleReport = {
    kind: 'PKC',
    rule: 'DynamoDBContributorInsights-PKC-scores-1700000000000',
    keyLabels: ['PK'],
    aggregateValue: contributors.reduce((s, [, peak]) => s + 30 * peak, 0),
    contributors: contributors.map(([key, peak]) => ({ keys: [key], value: 30 * peak, peak, points: [] })),
  };
  const throttles: RuleReport = {
    kind: 'PKT',
    rule: 'DynamoDBContributorInsights-PKT-scores-1700000000000',
    keyLabels: ['PK'],
    aggregateValue: throttled.reduce((s, [, n]) => s + n, 0),
    contributors: throttled.map(([key, n]) => ({ keys: [key], value: n, peak: n, points: [] })),
  };
  return {
    table: TABLE,
    index: null,
    window: '1h',
    periodSeconds: 60,
    startMs: 0,
    endMs: 3_600_000,
    mode: 'ACCESSED_AND_THROTTLED_KEYS',
    reports: throttled.length ? [report, throttles] : [report],
    metrics: null,
    series: null,
    periods: new Map(),
    problems: [],
  };
}

const SCORES = {
  'src/scores/repository.ts': `import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

export class ScoreRepository {
  constructor(private readonly ddb: DynamoDBDocumentClient) {}

  async save(playerId: string, score: number) {
    await this.ddb.send(new PutCommand({ TableName: 'scores', Item: { PK: 'BOARD#global', SK: playerId, score } }));
  }

  async top() {
    const out = await this.ddb.send(
      new QueryCommand({
        TableName: 'scores',
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': 'BOARD#global' },
      }),
    );
    return out.Items ?? [];
  }
}
`,
};

const SHARDED = {
  'app/daily.py': `import random
from datetime import date

import boto3

SHARDS = 4
table = boto3.resource("dynamodb").Table("scores")


def add_score(player_id, score):
    shard = random.randrange(SHARDS)
    table.put_item(Item={"PK": f"DAILY#{date.today().isoformat()}#{shard}", "SK": player_id, "score": score})
`,
};

async function sl009(files: Files, live: LiveData): Promise<string[]> {
  return withIndexed(files, (index, at) => {
    const found = hotKeyLiveFindings(linkReport(live, index));
    for (const f of found) {
      assert.equal(f.rule, 'SL009');
      assertMetadata(ruleOf('SL009'), f);
    }
    return found.map((f) => `${at(f)} ${f.severity}`);
  });
}

test('SL009 valid: a constant key at a third of its partition’s ceiling', async () => {
  // 60,000 units in the busiest minute: 1,000 a second, 33% of 3,000.
  assert.deepEqual(await sl009(SCORES, liveHour([['BOARD#global', 60_000]])), []);
});

test('SL009 valid: a sharded key whose shards take even shares', async () => {
  const shards = [0, 1, 2, 3].map((s): [string, number] => [`DAILY#2026-12-01#${s}`, 20_000]);
  assert.deepEqual(await sl009(SHARDED, liveHour(shards)), []);
});

test('SL009 invalid: a throttled key is a warning, even with its busiest minute under 80%', async () => {
  // 301 refused writes in an hour whose busiest minute averaged 1,000 units a second (33%):
  // a burst inside the minute reached the ceiling.
  const found = await sl009(SCORES, liveHour([['BOARD#global', 60_000]], [['BOARD#global', 301]]));
  assert.deepEqual(found, ['src/scores/repository.ts:7 warning']);
});

test('SL009 invalid: throttled and near the ceiling is a warning; near the ceiling alone is info', async () => {
  const hot = liveHour([['BOARD#global', 170_000]], [['BOARD#global', 12]]);
  assert.deepEqual(await sl009(SCORES, hot), ['src/scores/repository.ts:7 warning']);
  assert.deepEqual(await sl009(SCORES, liveHour([['BOARD#global', 170_000]])), ['src/scores/repository.ts:7 info']);
});

test('SL009 invalid: a constant key above 80% of its ceiling is reported at its writer, not its reader', async () => {
  // 170,000 units in the busiest minute: 2,833 a second, 94% of 3,000. No period splits
  // reads from writes here, so what is not attributed goes to the writers.
  assert.deepEqual(await sl009(SCORES, liveHour([['BOARD#global', 170_000]])), ['src/scores/repository.ts:7 info']);
});

test('SL009 invalid: one shard above 3× its set’s mean', async () => {
  // Shard 2 takes 40,000 of 52,000 units: 3.1× the mean of 13,000, far under the ceiling.
  const shards: Array<[string, number]> = [
    ['DAILY#2026-12-01#0', 4_000],
    ['DAILY#2026-12-01#1', 4_000],
    ['DAILY#2026-12-01#2', 40_000],
    ['DAILY#2026-12-01#3', 4_000],
  ];
  assert.deepEqual(await sl009(SHARDED, liveHour(shards)), ['app/daily.py:12 info']);
});
