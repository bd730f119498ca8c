// Against the lab (per-partition-key throttling), the same hot load through the
// repository fixture's writer: the original (one constant key) is throttled, the
// writer fixed with a random write-shard suffix is not. The lab's write ceiling is
// lowered to 50 WCU/s per key so a bounded load (~150 writes/s for 2 s) shows what
// 1,000 WCU/s shows at 20x the rate; the ratio of offered load to ceiling is what counts.
// The fixed writer's generated scatter-gather reader then reads back, from the lab, every
// item the fixed writer stored, in sort-key order.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { writeFixes } from '../../server/src/features/fixes/index';
import { writerReaderFixes } from '../../server/src/features/fixes/reader-fixes';
import { boardTable, createTable, startTestLab, THROTTLE_NAMES, type TestLab, CREDENTIALS } from '../lab/helpers';
import { applyAction, cleanup, copyFixture, indexWorkspace } from './helpers-write';

const LIMIT = 50;
let t: TestLab;
let original = '';
let fixed = '';

before(async () => {
  t = await startTestLab({ writeLimit: LIMIT });
  await createTable(t.ddb, boardTable('leaderboard'));
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

/** ~150 writes/s for 2 s (15 every 100 ms), SDK retries off so every throttle shows. */
async function hotLoad(dir: string, tag: string): Promise<{ ok: number; throttled: number; other: string[] }> {
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
  const r = { ok: 0, throttled: 0, other: [] as string[] };
  try {
    for (let tick = 0; tick < 20; tick++) {
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

test('the original writer is throttled under a hot load; the fixed writer is not, and its generated reader reads every item back', async (ctx) => {
  const before = await hotLoad(original, 'orig');
  const afterFix = await hotLoad(fixed, 'fixed');
  ctx.diagnostic(
    `original: ${before.ok} accepted, ${before.throttled} throttled; fixed: ${afterFix.ok} accepted, ${afterFix.throttled} throttled`,
  );
  assert.deepEqual([...before.other, ...afterFix.other], [], 'no errors other than throttles');
  assert.ok(before.throttled > 50, `original: ${before.ok} accepted, ${before.throttled} throttled`);
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
