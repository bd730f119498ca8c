// Against the lab (per-partition-key throttling), the same hot load through the
// repository fixture's writer: the original (one constant key) is throttled, the
// writer fixed with a random write-shard suffix is not. The lab's write ceiling is
// lowered to 50 WCU/s per key so a bounded load (~150 writes/s for 2 s) shows what
// 1,000 WCU/s shows at 20x the rate; the ratio of offered load to ceiling is what counts.
// The fixed writer's generated scatter-gather reader then reads back, from the lab, every
// item the fixed writer stored, in sort-key order.
// A loaded machine may not reach 50 writes/s in 2 s, so the original's load goes on until
// the lab has throttled it (or 30 s have passed): what is asserted is that it is throttled
// and that the lab's Contributor Insights name its key, not how often.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
  DescribeContributorInsightsCommand,
  DynamoDBClient,
  UpdateContributorInsightsCommand,
} from '@aws-sdk/client-dynamodb';
import { GetInsightRuleReportCommand } from '@aws-sdk/client-cloudwatch';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { writeFixes } from '../../server/src/features/fixes/index';
import { writerReaderFixes } from '../../server/src/features/fixes/reader-fixes';
import {
  boardTable,
  createTable,
  sleep,
  startTestLab,
  THROTTLE_NAMES,
  type TestLab,
  CREDENTIALS,
} from '../lab/helpers';
import { applyAction, cleanup, copyFixture, indexWorkspace } from './helpers-write';

const LIMIT = 50;
let t: TestLab;
let original = '';
let fixed = '';

before(async () => {
  t = await startTestLab({ writeLimit: LIMIT });
  await createTable(t.ddb, boardTable('leaderboard'));
  await t.ddb.send(
    new UpdateContributorInsightsCommand({ TableName: 'leaderboard', ContributorInsightsAction: 'ENABLE' }),
  );
  original = copyFixture('repo-ts');
  fixed = copyFixture('repo-ts');
  const ws = await indexWorkspace(fixed);
  const finding = ws.findings.find((f) => f.rule === 'SL001')!;
  const action = writeFixes.flatMap((p) => p(finding, ws.ctx)).find((a) => a.id === 'add-random-shard')!;
  applyAction(ws.ctx, action);
  // The reader of the now sharded key, generated into a module of its own (so it is exported).
  const readerFile = path.join(fixed, 'board-reader.ts');
  fs.writeFileSync(readerFile, '');
  const sharded = await indexWorkspace(fixed);
  const writer = sharded.index
    .results()
    .flatMap((r) => r.accesses)
    .find((a) => a.kind === 'write')!;
  const reader = writerReaderFixes(writer, sharded.ctx, { readerFile }).find((a) => a.id === 'generate-reader')!;
  applyAction(sharded.ctx, reader);
});
after(async () => {
  await t.close();
  cleanup(original);
  cleanup(fixed);
});

interface Repo {
  recordScore(playerId: string, score: number): Promise<void>;
}

interface Load {
  ok: number;
  throttled: number;
  other: string[];
}

/**
 * ~150 writes/s (15 every 100 ms), SDK retries off so every throttle shows: for 2 s, and
 * then, while `more(load)` holds, on until 30 s have passed.
 */
async function hotLoad(dir: string, tag: string, more: (r: Load) => boolean = () => false): Promise<Load> {
  const mod = (await import(path.join(dir, 'leaderboard-repository.ts'))) as {
    LeaderboardRepository: new (doc: DynamoDBDocumentClient) => Repo;
  };
  const raw = new DynamoDBClient({
    endpoint: t.lab.url,
    region: 'us-east-1',
    credentials: CREDENTIALS,
    maxAttempts: 1,
  });
  const repo = new mod.LeaderboardRepository(DynamoDBDocumentClient.from(raw));
  const r: Load = { ok: 0, throttled: 0, other: [] };
  const deadline = Date.now() + 30_000;
  try {
    for (let tick = 0; tick < 20 || (more(r) && Date.now() < deadline); tick++) {
      const started = Date.now();
      await Promise.all(
        Array.from({ length: 15 }, (_, j) =>
          repo.recordScore(`${tag}-${tick}-${j}`, j).then(
            () => r.ok++,
            (e: { name: string }) => (THROTTLE_NAMES.has(e.name) ? r.throttled++ : r.other.push(e.name)),
          ),
        ),
      );
      await new Promise((res) => setTimeout(res, Math.max(0, 100 - (Date.now() - started))));
    }
  } finally {
    raw.destroy();
  }
  return r;
}

/** The partition keys the lab's Contributor Insights saw throttled on the table since `startMs`. */
async function throttledKeys(startMs: number): Promise<string[]> {
  const rules = (await t.ddb.send(new DescribeContributorInsightsCommand({ TableName: 'leaderboard' })))
    .ContributorInsightsRuleList;
  const pkt = rules?.find((n) => n.includes('-PKT-'));
  assert.ok(pkt, `Contributor Insights are on: ${JSON.stringify(rules)}`);
  const report = await t.cw.send(
    new GetInsightRuleReportCommand({
      RuleName: pkt,
      StartTime: new Date(startMs - 1000),
      EndTime: new Date(Date.now() + 1000),
      Period: 1,
    }),
  );
  return (report.Contributors ?? []).map((c) => String(c.Keys?.[0]));
}

test('the original writer is throttled under a hot load; the fixed writer is not, and its generated reader reads every item back', async (ctx) => {
  // Contributor Insights switch on after a short transition.
  while (
    (await t.ddb.send(new DescribeContributorInsightsCommand({ TableName: 'leaderboard' })))
      .ContributorInsightsStatus !== 'ENABLED'
  )
    await sleep(20);
  const started = Date.now();
  const before = await hotLoad(original, 'orig', (r) => r.throttled === 0);
  const afterFix = await hotLoad(fixed, 'fixed');
  ctx.diagnostic(
    `original: ${before.ok} accepted, ${before.throttled} throttled; fixed: ${afterFix.ok} accepted, ${afterFix.throttled} throttled`,
  );
  assert.deepEqual([...before.other, ...afterFix.other], [], 'no errors other than throttles');
  assert.ok(before.throttled > 0, `original: ${before.ok} accepted, ${before.throttled} throttled`);
  assert.deepEqual(await throttledKeys(started), ['BOARD#global'], 'the lab names the hot key, and only it');
  assert.equal(afterFix.throttled, 0, `fixed: ${afterFix.ok} accepted, ${afterFix.throttled} throttled`);
  assert.equal(afterFix.ok, 300);

  // The generated reader, run against the lab: every item the fixed writer stored, in order.
  const mod = (await import(path.join(fixed, 'board-reader.ts'))) as {
    queryBoardGlobalShards(client: DynamoDBDocumentClient, shardCount: number): Promise<{ Items: { SK: string }[] }>;
  };
  const raw = new DynamoDBClient({
    endpoint: t.lab.url,
    region: 'us-east-1',
    credentials: CREDENTIALS,
    maxAttempts: 1,
  });
  try {
    const { Items } = await mod.queryBoardGlobalShards(DynamoDBDocumentClient.from(raw), 10);
    const sks = Items.map((i) => i.SK);
    assert.equal(sks.length, 300, 'the reader finds all 300 items of the fixed writer');
    assert.equal(new Set(sks).size, 300);
    assert.ok(
      sks.every((sk) => sk.startsWith('PLAYER#fixed-')),
      'only the sharded items (the unfixed ones are under BOARD#global)',
    );
    assert.deepEqual(sks, [...sks].sort(), 'merged in sort-key order');
  } finally {
    raw.destroy();
  }
});
