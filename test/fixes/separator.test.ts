// One separator per key across fixes: a key some writer already shards
// (`LEADERBOARD_GLOBAL#${shard}` in board.ts, read by querying every shard) and another
// module writing it unsharded ('LEADERBOARD_GLOBAL', whose own last separator is `_`).
// The fix of the unsharded writer must store what the key's reader reads: the
// separator of the sharded writer (`#`), not the one its own text ends with.
// Run against dynalite before and after each fix.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { writeFixes } from '../../server/src/features/fixes/index';
import { applyAction, cleanup, copyFixture, indexWorkspace, typeErrors } from './helpers-write';
import { run, SAFETY_DIR, type SafetyFixture } from './safety-fixtures';

const scores: SafetyFixture = {
  name: 'scores-sep-ts',
  table: 'scores',
  pk: 'PK',
  sk: 'SK',
  offered: ['add-random-shard', 'add-hash-shard'],
  driver: {
    language: 'node',
    source: `import { globalBoard, submitScore } from './board';
import { importScore } from './imports';

void (async () => {
  for (let i = 0; i < 10; i++) await submitScore({ playerId: 'g' + i, points: i });
  for (let i = 0; i < 10; i++) await importScore({ playerId: 'p' + i, points: 100 + i });
  console.log(JSON.stringify({ board: (await globalBoard()).map((s) => s.SK) }));
})();
`,
  },
};

const board = (r: { output: unknown }) => (r.output as { board: string[] }).board;

describe('a fix of an unsharded writer uses the separator of the key’s sharded writer', () => {
  for (const id of scores.offered) {
    test(`${id}: the fixed writer's items are under LEADERBOARD_GLOBAL#<shard> and the reader finds all 20 (dynalite)`, async () => {
      const dir = copyFixture(scores.name, SAFETY_DIR);
      try {
        const before = await run(scores, dir);
        assert.equal(board(before).length, 10, 'unfixed, the reader misses the 10 partner scores');
        const ws = await indexWorkspace(dir);
        const finding = ws.findings.find((f) => f.rule === 'SL001' && f.access.file.endsWith('imports.ts'));
        assert.ok(finding, 'the unsharded writer is reported');
        const action = writeFixes.flatMap((p) => p(finding, ws.ctx)).find((a) => a.id === id);
        assert.ok(action, `${id} is offered`);
        const key = action.changes.find((c) => c.newText.includes('LEADERBOARD_GLOBAL'));
        assert.match(key?.newText ?? '', /^`LEADERBOARD_GLOBAL#\$\{/, 'the suffix follows the sharded writer’s #');
        applyAction(ws.ctx, action);
        assert.deepEqual(typeErrors(dir), []);
        const after = await run(scores, dir);
        assert.deepEqual(after.stored, before.stored, 'the same items, apart from the key');
        const expected = [
          ...Array.from({ length: 10 }, (_, i) => 'PLAYER#g' + i),
          ...Array.from({ length: 10 }, (_, i) => 'PLAYER#p' + i),
        ];
        assert.deepEqual(board(after), expected.sort(), 'the reader of every shard finds all 20 scores');
        assert.ok(after.keys > 1 && after.keys <= 4, `the items are on ${after.keys} of the 4 shard keys`);
      } finally {
        cleanup(dir);
      }
    });
  }
});
