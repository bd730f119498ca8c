// Batch requests built from a list, as import jobs write them: a BatchWriteItem whose
// requests come from `chunk.map((s) => ({ PutRequest: { Item } }))` (TypeScript) or a list
// comprehension (boto3 client), 25 a request. The engine reads the item the callback
// builds, so the key's writer is seen and the shard fix edits the key inside the callback:
// run against dynalite, each item is stored once with the same attributes, the key spread,
// and the reader of every shard lists the round the single Query listed.
import * as path from 'node:path';
import { test } from 'node:test';
import { checkProgram, table } from './helpers-programs';

const FIXTURES = path.join(__dirname, 'fixtures', 'batch-map');

test('a round stored with BatchWriteItem from chunk.map(...): the shard fixes edit the key in the callback', async () => {
  await checkProgram(
    {
      fixture: 'scores-ts',
      table: table('scores', 'pk', ['sk', 'S']),
      key: 'pk',
      writer: { rule: 'SL001', operation: 'BatchWriteItem' },
      offered: ['add-random-shard', 'add-hash-shard'],
      drive: `import { latestRound, saveRound } from './round-store';
void (async () => {
  await saveRound(Array.from({ length: 60 }, (_, i) => ({ playerId: 'p' + String(i).padStart(2, '0'), points: (i * 37) % 100 })));
  const round = await latestRound();
  console.log(JSON.stringify({ round: round.sort((a, b) => a.playerId.localeCompare(b.playerId)) }));
})();
`,
    },
    FIXTURES,
  );
});

test('the same with boto3 and a list comprehension', async () => {
  await checkProgram(
    {
      fixture: 'scores-py',
      table: table('scores', 'pk', ['sk', 'S']),
      key: 'pk',
      writer: { rule: 'SL001', operation: 'BatchWriteItem' },
      offered: ['add-random-shard', 'add-hash-shard'],
      language: 'python',
      drive: `import json
import round_store
round_store.save_round([{"player_id": f"p{i:02d}", "points": (i * 37) % 100} for i in range(60)])
print(json.dumps({"round": sorted(round_store.latest_round(), key=lambda s: s["player_id"])}))
`,
    },
    FIXTURES,
  );
});
