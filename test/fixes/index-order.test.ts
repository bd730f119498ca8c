// An ascending Query of a global index whose sort key the code never names
// (`byLeague`: league, wins): the template declaring the table names it, and a reader of
// every shard merges the shards by it, so the standings keep their order. Run against
// dynalite before and after each offered fix of the index key written by an update.
// Without the template the reader can only join the shards (the order is lost).

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes/index';
import { cleanup, copyFixture } from './helpers-write';
import { checkProgram, hotWriter, indexed, table, withIndex, type Program } from './helpers-programs';

const FIXTURES = path.join(__dirname, 'fixtures');
const PLAYERS = withIndex(table('players', 'playerId', null), 'byLeague', ['league', 'S'], ['wins', 'N']);

const LEAGUE: Program = {
  fixture: 'league',
  table: PLAYERS,
  key: 'league',
  // The template makes it SL012 (a hot key of an index it declares).
  writer: { rule: 'SL012', operation: 'UpdateItem' },
  offered: ['add-random-shard', 'add-hash-shard'],
  // Player i wins i + 1 games, in rounds that reach the players in another order than their ids.
  drive: `const AWS = require('aws-sdk');
AWS.config.update({ endpoint: process.env.AWS_ENDPOINT_URL, region: 'us-east-1' });
const league = require('./league');
(async () => {
  const players = Array.from({ length: 20 }, (_, i) => ({ id: 'p' + String((i * 7) % 20).padStart(2, '0'), wins: ((i * 7) % 20) + 1 }));
  for (let round = 0; round < 20; round++) {
    const winners = players.filter((p) => p.wins > round).map((p) => ({ dynamodb: { NewImage: { winner: { S: p.id } } } }));
    await league.handler({ Records: winners });
  }
  console.log(JSON.stringify({ standings: await league.standings() }));
})();
`,
};

test('the index sort key a template declares orders the merged standings (dynalite)', async () => {
  const before = (await checkProgram(LEAGUE, FIXTURES)).read as { standings: Array<{ wins: number }> };
  const wins = before.standings.map((p) => p.wins);
  assert.deepEqual(
    wins,
    Array.from({ length: 20 }, (_, i) => i + 1),
    'the single-key Query returns the players by wins',
  );
});

test('the reader merges by the declared sort key, and without the template only joins', async () => {
  const readerOf = async (withTemplate: boolean) => {
    const copy = copyFixture(LEAGUE.fixture, FIXTURES);
    try {
      if (!withTemplate) fs.rmSync(path.join(copy, 'template.yaml'));
      const { ctx, findings } = await indexed(copy);
      const writer = hotWriter(
        { ...LEAGUE, writer: { rule: withTemplate ? 'SL012' : 'SL001', operation: 'UpdateItem' } },
        findings,
      );
      const fix = allFixes(writer!, ctx).find((a) => a.id === 'add-hash-shard');
      assert.ok(fix, 'the calculated shard is offered');
      return fix.changes.map((c) => c.newText).join('\n');
    } finally {
      cleanup(copy);
    }
  };
  assert.match(await readerOf(true), /const sortKey = \(item\) => item\['wins'\];/);
  assert.doesNotMatch(await readerOf(false), /sortKey/);
});
