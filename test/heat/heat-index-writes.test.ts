// Writes that set a global index's key heat the index, and that heat is the writer's.
// Against the lab over real HTTP with the real SDK: score updates of many players all
// set one game title (the index's partition key), past the index partition's ceiling;
// the leaderboard reader of that index never runs. The index's report must put every
// unit and throttle on the writer: hover and code lens of the writer show them, the
// reader's show none.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { UpdateContributorInsightsCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { Access } from '../../server/src/engine';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { codeLensTitle, getHeat, heatForAccess } from '../../server/src/heat';
import type { HeatReport } from '../../server/src/heat/types';
import { hoverLiveLine } from '../../server/src/lsp/live-view';
import { createTable, SCORES_TABLE, sleep, startTestLab, type TestLab } from '../lab/helpers';
import type { Sent } from './helpers';

/** Low, so the index key throttles however busy the machine is. */
const WRITE_LIMIT = 20;

const ROOT = path.join(__dirname, 'gsi');
const GAME = 'Rock Paper Scissors';
const THROTTLES = new Set(['ThrottlingException', 'ProvisionedThroughputExceededException']);

/** Score updates of distinct players, `parallel` at a time for `ms`, retries off: each throttle counted. */
async function recordWins(t: TestLab, ms: number, parallel = 16): Promise<Sent> {
  const sent: Sent = { accepted: 0, throttled: 0 };
  const until = Date.now() + ms;
  let n = 0;
  const worker = async () => {
    while (Date.now() < until) {
      const i = n++;
      try {
        await t.ddbNoRetry.send(
          new UpdateItemCommand({
            TableName: 'scores',
            Key: { playerId: { S: `player-${i}` } },
            UpdateExpression: 'SET #gameTitle = :gameTitle, score = :score',
            ExpressionAttributeNames: { '#gameTitle': 'gameTitle' },
            ExpressionAttributeValues: { ':gameTitle': { S: GAME }, ':score': { N: String(i) } },
          }),
        );
        sent.accepted++;
      } catch (e) {
        if (!THROTTLES.has((e as Error).name)) throw e;
        sent.throttled++;
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return sent;
}

describe('live heat of index writes is the writer’s', () => {
  let t: TestLab;
  let sent: Sent;
  let report: HeatReport;
  let writer: Access;
  let reader: Access;

  before(async () => {
    await initParsers();
    const index = new WorkspaceIndex({ root: ROOT, maxBytes: 2 * 1024 * 1024 });
    for (const f of collectFiles([ROOT]).files) index.analyzeFile(f, false);
    const accesses = [...index.analyses()].flatMap((a) => a.accesses).filter((a) => a.index === 'scoreIndex');
    writer = accesses.find((a) => a.kind === 'write')!;
    reader = accesses.find((a) => a.kind === 'read')!;
    assert.ok(writer && reader, 'the fixture has a writer and a reader of the index key');

    t = await startTestLab({ writeLimit: WRITE_LIMIT });
    await createTable(t.ddb, SCORES_TABLE);
    await t.ddb.send(
      new UpdateContributorInsightsCommand({
        TableName: 'scores',
        IndexName: 'scoreIndex',
        ContributorInsightsAction: 'ENABLE',
      }),
    );
    await sleep(150);
    sent = await recordWins(t, 1500);
    await sleep(1100); // the last period closes
    const o = await getHeat(
      { endpoint: t.lab.url },
      { table: 'scores', index: 'scoreIndex', window: '15m', periodSeconds: 1 },
      index,
    );
    assert.ok(o.ok, JSON.stringify(!o.ok && o.problem));
    report = o.report;
  });
  after(() => t?.close());

  test('the premise: distinct table keys, one index key past its ceiling', () => {
    assert.ok(sent.throttled > 0, `throttled ${sent.throttled}`);
    assert.ok(sent.accepted >= WRITE_LIMIT, `accepted ${sent.accepted}`);
    assert.equal(report.metrics?.consumedWriteUnits, sent.accepted);
    assert.equal(report.metrics?.writeThrottleEvents, sent.throttled);
    assert.equal(report.metrics?.consumedReadUnits, 0);
  });

  test('the index key’s units and throttles are the writer’s, none the reader’s', () => {
    const heat = heatForAccess(report, writer)!;
    assert.ok(heat, JSON.stringify(report.keys.map((k) => k.key.id)));
    assert.equal(heatForAccess(report, reader), heat, 'writer and reader share the logical key');
    assert.deepEqual(
      heat.topKeys.map((k) => [k.key, k.consumedUnits, k.throttles]),
      [[GAME, 3 * sent.accepted, sent.throttled]],
    );
    const { read, write, unknown } = heat.operations;
    assert.deepEqual([write.consumedUnits, write.throttles], [3 * sent.accepted, sent.throttled]);
    assert.deepEqual([read.consumedUnits, read.throttles, unknown.consumedUnits, unknown.throttles], [0, 0, 0, 0]);
  });

  test('hover and code lens: the writer shows the index writes, the reader none', () => {
    const n = sent.throttled.toLocaleString('en-US');
    const w = hoverLiveLine([report], writer)!;
    assert.equal(w.line, `Live (15m, index scoreIndex), writes: #1 of 1 key · 100% of consumed units · ${n} throttles`);
    assert.equal(w.throttles, sent.throttled);
    const r = hoverLiveLine([report], reader)!;
    assert.match(
      r.line,
      /^Live \(15m, index scoreIndex\), reads: none attributed in the window \(its writes: 100% of consumed units/,
    );
    assert.equal(r.throttles, 0);
    const heat = heatForAccess(report, writer)!;
    assert.match(codeLensTitle(report, heat, 'write')!, new RegExp(`^writes: 100% of index traffic · ${n} throttles`));
    assert.equal(codeLensTitle(report, heat, 'read'), null);
  });
});
