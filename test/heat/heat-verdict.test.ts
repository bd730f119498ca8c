// Read-hot or write-hot decided by live data. The board fixture (test/heat/blame) reads
// and writes BOARD#global from as many call sites, so the code alone calls the key hot
// both ways. Against the lab with the real SDK, one lab's traffic only writes the key
// past its ceiling and another's only reads it past its ceiling: `check --heat` must
// then judge it write-hot and read-hot, move the fixes accordingly and say that live
// data decided.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { PutItemCommand, UpdateContributorInsightsCommand } from '@aws-sdk/client-dynamodb';
import type { Finding } from '../../server/src/engine';
import { withLiveEvidence } from '../../server/src/cli/heat';
import { toJsonFinding } from '../../server/src/cli/report';
import { boardTable, createTable, sleep, startTestLab, type TestLab } from '../lab/helpers';
import { WRITE_LIMIT, blameIndex, driveBlame, hammerReads, type Sent } from './helpers';

/** A low read ceiling, so the reader throttles however busy the machine is (a loaded one sends ~40 Queries/s). */
const READ_LIMIT = 20;

/** The SL001 findings of BOARD#global after `check --heat`, by file and 1-based line. */
async function judged(t: TestLab): Promise<Map<string, Finding>> {
  const index = await blameIndex();
  const err = new PassThrough();
  let stderr = '';
  err.on('data', (d) => (stderr += d));
  const results = await withLiveEvidence(
    index.results(),
    index,
    { endpoint: t.lab.url, window: '15m', periodSeconds: 1, tables: [] },
    err,
  );
  assert.equal(stderr, '');
  const out = new Map<string, Finding>();
  for (const r of results)
    for (const f of r.findings) if (f.rule === 'SL001') out.set(`${path.basename(f.file)}:${f.span.startLine + 1}`, f);
  return out;
}

const kinds = (f: Finding) => f.fixes.map((x) => x.kind);

describe('the verdict follows live writes', () => {
  let t: TestLab;
  let hot: Sent;
  let found: Map<string, Finding>;

  before(async () => {
    t = await startTestLab({ writeLimit: WRITE_LIMIT });
    hot = await driveBlame(t);
    found = await judged(t);
  });
  after(() => t?.close());

  test('a key the code reads and writes alike, only written live, is write-hot on every call', () => {
    assert.ok(hot.throttled > 100, `throttled ${hot.throttled}`);
    for (const site of ['board-repo.ts:14', 'board-repo.ts:22', 'board_dao.py:13', 'board_dao.py:17']) {
      const use = found.get(site)!.keyUse!;
      assert.equal(use.verdict, 'write', site);
      assert.equal(use.live!.readUnits, 0);
      assert.equal(use.live!.writeThrottles, hot.throttled);
      // The code's counts are kept beside the live figures.
      assert.deepEqual([use.reads, use.writes], [2, 2]);
    }
    // The reader loses the cache fix and the trade-off; the writer keeps its shard fix.
    const reader = found.get('board-repo.ts:22')!;
    assert.deepEqual(kinds(reader), []);
    assert.equal(reader.messageId, 'constantRead');
    assert.doesNotMatch(reader.message, /Trade-off/);
    assert.deepEqual(kinds(found.get('board-repo.ts:14')!), ['add-shard-suffix']);
    assert.equal(toJsonFinding(reader).keyUse?.source, 'live');
  });
});

describe('the verdict follows live reads', () => {
  let t: TestLab;
  let reads: Sent;
  let found: Map<string, Finding>;

  before(async () => {
    t = await startTestLab({ readLimit: READ_LIMIT });
    await createTable(t.ddb, boardTable('boards'));
    await t.ddb.send(
      new UpdateContributorInsightsCommand({ TableName: 'boards', ContributorInsightsAction: 'ENABLE' }),
    );
    await sleep(150);
    // One score to read back: one write unit in a period of its own, against the reads' dozens.
    await t.ddb.send(new PutItemCommand({ TableName: 'boards', Item: { PK: { S: 'BOARD#global' }, SK: { S: 'p1' } } }));
    await sleep(1100);
    reads = await hammerReads(t.ddbNoRetry, 'boards', 'BOARD#global', 1200);
    await sleep(1100); // the last period closes
    found = await judged(t);
  });
  after(() => t?.close());

  test('read live: the readers are read-hot with the cache fix, the writers a note without a shard fix', () => {
    assert.ok(reads.throttled > 100, `throttled ${reads.throttled}`);
    for (const site of ['board-repo.ts:22', 'board_dao.py:17']) {
      const f = found.get(site)!;
      assert.equal(f.keyUse!.verdict, 'read', site);
      assert.equal(f.keyUse!.mostly, true, 'the write was seen too');
      assert.equal(f.keyUse!.live!.writeUnits, 1);
      assert.equal(f.messageId, 'readHot');
      // The message says what decided: the live figures first, the code's counts after.
      assert.match(
        f.message,
        /read-hot \(live \(15m\): peaks of [\d,.]+ read units\/s and [\d,.]+ write units\/s, [\d,]+ read throttles; code: read at 2 call sites, written at 2 call sites\)/,
      );
      assert.equal(f.keyUse!.live!.readThrottles, reads.throttled);
    }
    assert.deepEqual(kinds(found.get('board-repo.ts:22')!), ['cache-read']);
    for (const site of ['board-repo.ts:14', 'board_dao.py:13']) {
      const f = found.get(site)!;
      assert.equal(f.severity, 'info', site);
      assert.equal(f.messageId, 'rarelyWritten');
      assert.ok(!kinds(f).includes('add-shard-suffix'), site);
    }
  });
});
