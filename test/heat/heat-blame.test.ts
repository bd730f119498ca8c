// Live heat is blamed on the call that made it. Against the lab over real HTTP with the
// real SDK: a writer of BOARD#global is driven past its partition's ceiling, the reader
// of the same key never runs, and a per-player reader runs. Contributor Insights counts
// a key's reads and writes on one scale; CloudWatch's per-period read/write split must
// put every throttle on the writer, none on the reader (hover, code lens, evidence, SL009).
// Then item by item: a key whose per-minute average stays far under 80% of a partition's
// ceiling but throttled raises SL009.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { normalizeSettings } from '../../protocol/src/settings';
import { analyzeSource } from '../../server/src/engine/analyze';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { hoverMarkdown } from '../../server/src/lsp/hover';
import {
  codeLensTitle,
  evidenceText,
  getHeat,
  heatForKey,
  hotKeyLiveFindings,
  hotKeysLive,
  liveLine,
  PARTITION_CEILING_UNITS,
} from '../../server/src/heat';
import type { HeatReport } from '../../server/src/heat/types';
import { startTestLab, type TestLab } from '../lab/helpers';
import { WRITE_LIMIT, blameIndex, driveBlame, type Sent } from './helpers';

const BOARD = 'boards · PK = BOARD#global';
const PLAYER = 'boards · PK = PLAYER#{entity-id}';

describe('live heat blamed on the call that made it', () => {
  let t: TestLab;
  let hot: Sent;
  let perSecond: HeatReport;
  let perMinute: HeatReport;

  before(async () => {
    const index = await blameIndex();
    t = await startTestLab({ writeLimit: WRITE_LIMIT });
    hot = await driveBlame(t);
    const read = async (periodSeconds: number) => {
      const o = await getHeat({ endpoint: t.lab.url }, { table: 'boards', window: '15m', periodSeconds }, index);
      assert.ok(o.ok, JSON.stringify(!o.ok && o.problem));
      return o.report;
    };
    perSecond = await read(1);
    perMinute = await read(60);
  });
  after(() => t?.close());

  test('the premise: the writer throttled, the reads did not', () => {
    assert.ok(hot.throttled > 100, `throttled ${hot.throttled}`);
    assert.equal(perSecond.metrics?.readThrottleEvents, 0);
    assert.equal(perSecond.metrics?.writeThrottleEvents, hot.throttled);
  });

  test("the key's throttles and units are the writer's; the reader's figures are zero", () => {
    for (const report of [perSecond, perMinute]) {
      const board = heatForKey(report, BOARD)!;
      assert.equal(board.throttles, hot.throttled);
      const { read, write, unknown } = board.operations;
      assert.equal(write.throttles, hot.throttled);
      assert.deepEqual([read.consumedUnits, read.throttles, unknown.throttles], [0, 0, 0]);
      // The player reads may share a period with the last writes: up to their 10 units stay
      // open between reads and writes (the key has a reader in the code); none is a read.
      assert.equal(write.consumedUnits! + unknown.consumedUnits!, 3 * hot.accepted);
      assert.ok(unknown.consumedUnits! <= 10, `open ${unknown.consumedUnits}`);
      // The player reads: a reader only, 10 read units.
      assert.equal(heatForKey(report, PLAYER)!.operations.read.consumedUnits, 10);
    }
  });

  test('code lens and hover: the writer shows the throttles, the reader that never ran shows none', () => {
    const board = heatForKey(perSecond, BOARD)!;
    const n = hot.throttled.toLocaleString('en-US');
    assert.match(
      codeLensTitle(perSecond, board, 'write')!,
      new RegExp(`^writes: \\d+% of table traffic · ${n} throttles \\(15m\\)$`),
    );
    assert.equal(codeLensTitle(perSecond, board, 'read'), null);
    assert.match(
      liveLine(perSecond, board, 'write'),
      new RegExp(`^Live \\(15m\\), writes: #1 of 2 keys · \\d+% of consumed units · ${n} throttles$`),
    );
    assert.equal(
      liveLine(perSecond, board, 'read'),
      `Live (15m), reads: none attributed in the window (its writes: ${Math.round((board.operations.write.consumedUnits! / perSecond.totalUnits!) * 100)}% of consumed units · ${n} throttles).`,
    );
  });

  test('check --heat evidence goes on the writer finding only', () => {
    const board = heatForKey(perSecond, BOARD)!;
    assert.match(
      evidenceText(perSecond, board, 'write'),
      new RegExp(
        `^ Live \\(15m\\), writes: ${hot.throttled.toLocaleString('en-US')} throttle events, \\d+% of table boards's consumed units\\.$`,
      ),
    );
    assert.equal(evidenceText(perSecond, board, 'read'), '');
  });

  test('SL009 is published at the writers (TypeScript and Python), never at the readers', () => {
    const found = hotKeyLiveFindings(perSecond).filter((f) => f.message.includes(BOARD));
    assert.deepEqual(
      found.map((f) => [path.basename(f.file), f.access.operation, f.access.kind, f.span.startLine + 1]).sort(),
      [
        ['board-repo.ts', 'PutItem', 'write', 14],
        ['board_dao.py', 'PutItem', 'write', 13],
      ],
    );
  });

  test('a key whose busiest minute stays far under 80% of the ceiling but throttled raises SL009', () => {
    const board = heatForKey(perMinute, BOARD)!;
    // At most 100 WCU/s were admitted: 300 units/s, 10% of a partition's 3,000.
    assert.ok(board.peakUnitsPerSecond! < 0.8 * PARTITION_CEILING_UNITS, `peak ${board.peakUnitsPerSecond}`);
    const h = hotKeysLive(perMinute).find((x) => x.key.key.id === BOARD)!;
    assert.ok(h, 'no SL009 for a throttled key');
    assert.deepEqual([h.nearCeiling, h.throttled, h.ops], [false, true, ['write']]);
    assert.match(h.message, new RegExp(`${hot.throttled.toLocaleString('en-US')} throttle events, all on writes`));
    assert.deepEqual(
      hotKeyLiveFindings(perMinute)
        .filter((f) => f.message.includes(BOARD))
        .map((f) => f.access.kind),
      ['write', 'write'],
    );
    // The unthrottled reader key raises nothing.
    assert.equal(
      hotKeysLive(perMinute).find((x) => x.key.key.id === PLAYER),
      undefined,
    );
  });
});

test('a hover under live throttles never says the traffic spreads', async () => {
  await initParsers();
  const source = [
    "import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';",
    'const doc = DynamoDBDocumentClient.from({} as never);',
    'export async function save(userId: string, body: string) {',
    "  await doc.send(new PutCommand({ TableName: 'users', Item: { PK: `USER#${userId}`, SK: 'profile', body } }));",
    '}',
    'export async function load(userId: string) {',
    "  return doc.send(new QueryCommand({ TableName: 'users', KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `USER#${userId}` } }));",
    '}',
  ].join('\n');
  const analysis = analyzeSource('/w/src/users.ts', source, 'typescript');
  assert.equal(analysis.accesses.length, 2);
  for (const access of analysis.accesses) {
    const quiet = hoverMarkdown(access, [], normalizeSettings({}), {
      line: 'Live (15m), writes: #1 of 1 key',
      throttles: 0,
    });
    assert.match(quiet.value, /spread/, 'the premise: a high-cardinality key is said to spread');
    const md = hoverMarkdown(access, [], normalizeSettings({}), {
      line: 'Live (15m), writes: #1 of 1 key · 991 throttles',
      throttles: 991,
    }).value;
    assert.doesNotMatch(md, /spread/i, md);
    assert.match(md, /live data shows this key throttled/);
  }
});
