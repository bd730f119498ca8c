import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePartiql } from '../../server/src/engine/requests/partiql';
import { analyze, findingLines, summarize } from './helpers';

test('PartiQL statements: kind, table, and key values as literals or numbered parameters', () => {
  assert.deepEqual(parsePartiql(`INSERT INTO "scores" VALUE {'pk': ?, 'sk': 'TOP', 'n': ?}`), {
    kind: 'insert',
    table: 'scores',
    attributes: [
      ['pk', { parameter: 0 }],
      ['sk', { literal: 'TOP' }],
      ['n', { parameter: 1 }],
    ],
  });
  assert.deepEqual(parsePartiql(`UPDATE "users" SET visits = visits + ? WHERE pk = ? AND sk = 'it''s'`), {
    kind: 'update',
    table: 'users',
    attributes: [
      ['pk', { parameter: 1 }],
      ['sk', { literal: "it's" }],
    ],
  });
  assert.deepEqual(parsePartiql(`SELECT * FROM "events"."byStatus" WHERE status = 'OPEN'`)?.attributes, [
    ['status', { literal: 'OPEN' }],
  ]);
  assert.equal(parsePartiql(`DELETE FROM events WHERE pk = ?`)?.kind, 'delete');
  assert.equal(parsePartiql('EXPLAIN nothing'), null);
  assert.equal(parsePartiql(''), null);
});

test('ExecuteStatement in SDK v3 and boto3 is judged like the item operation it performs', async () => {
  const js = await analyze(
    'p.ts',
    `import { ExecuteStatementCommand } from '@aws-sdk/client-dynamodb';
await client.send(new ExecuteStatementCommand({ Statement: 'INSERT INTO "scores" VALUE {\\'pk\\': ?, \\'sk\\': ?}', Parameters: [{ S: 'LEADERBOARD#GLOBAL' }, { S: userId }] }));
await client.send(new ExecuteStatementCommand({ Statement: "SELECT * FROM \\"scores\\" WHERE pk = 'LEADERBOARD#GLOBAL'" }));
await client.send(new ExecuteStatementCommand({ Statement: 'UPDATE "users" SET visits = visits + 1 WHERE pk = ?', Parameters: [{ S: \`USER#\${userId}\` }] }));
await client.send(new ExecuteStatementCommand({ Statement: dynamicSql }));`,
  );
  assert.deepEqual(summarize(js), [
    '2 ExecuteStatement scores pk=LEADERBOARD#GLOBAL sk={entity-id} (constant)',
    '3 ExecuteStatement scores pk=LEADERBOARD#GLOBAL (constant)',
    '4 ExecuteStatement users pk=USER#{entity-id} (high-cardinality)',
    '5 ExecuteStatement ? pk=? (unknown)',
  ]);
  assert.deepEqual(findingLines(js), ['2 SL001', '3 SL001']);
  assert.deepEqual(
    js.accesses.map((a) => a.kind),
    ['write', 'read', 'write', 'read'],
  );
  const py = await analyze(
    'p.py',
    `import boto3
client = boto3.client("dynamodb")
client.execute_statement(Statement='SELECT * FROM "cfg" WHERE pk = ?', Parameters=[{"S": "global-config"}])
`,
  );
  assert.deepEqual(summarize(py), ['3 ExecuteStatement cfg pk=global-config (constant)']);
  assert.deepEqual(findingLines(py), ['3 SL001']);
});
