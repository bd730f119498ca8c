import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  declaredDefinitions,
  declaredNameMatches,
  withDeclared,
  type NamedTable,
} from '../../server/src/engine/requests/declared-names';
import { WorkspaceIndex } from '../../server/src/engine';
import { initParsers } from '../../server/src/engine/syntax/parser';

/**
 * Literal table names in code take the key schema of the table a template declares with
 * that name, or with a name whose deploy-time holes it fills; matches that disagree give
 * nothing, and a template edited afterwards re-analyses the code that names it.
 */

const table = (name: string, partition: string, extra: Partial<NamedTable['hint']> = {}): NamedTable => {
  const hint = { partition, ...extra };
  return { name, hint, shape: JSON.stringify(hint) };
};

test('a name with holes matches the names that fill them, not names that only share the holes', () => {
  assert.ok(declaredNameMatches('orders-api-orders-{$sls:stage}', 'orders-api-orders-prod'));
  assert.ok(declaredNameMatches('{$Stage}-poll-votes', 'dev-poll-votes'));
  assert.ok(declaredNameMatches('GameScores', 'GameScores'));
  assert.ok(!declaredNameMatches('GameScores', 'gamescores'));
  assert.ok(!declaredNameMatches('orders-{$sls:stage}', 'orders-'), 'a hole stands for some text');
  assert.ok(!declaredNameMatches('orders-{$sls:stage}', 'orders-prod/archive'));
  assert.ok(!declaredNameMatches('{$var.name}', 'anything'), 'a name that is all holes matches nothing');
  assert.ok(!declaredNameMatches('{$app}-{$stage}', 'orders-prod'));
});

test('one definition per name; definitions that disagree on keys give none', () => {
  const orders = table('orders-{$stage}', 'customerId', { indexes: { byStatus: { partition: 'status' } } });
  const same = table('orders-prod', 'customerId', { indexes: { byStatus: { partition: 'status' } } });
  assert.deepEqual(declaredDefinitions(['orders-prod', 'orders-prod', 'users'], [orders, same]), [
    ['literal:orders-prod', orders.hint],
  ]);
  const other = table('orders-{$env}', 'orderId');
  assert.deepEqual(declaredDefinitions(['orders-prod'], [orders, other]), [], 'two templates, two schemas');
});

test("a declared table's keys replace what calls suggest; the indexes calls name stay beside the declared ones", () => {
  const hints = new Map([
    ['literal:GameScores', { partition: 'playerId', indexes: { byPlayer: { partition: 'playerId' } } }],
  ]);
  const out = withDeclared(hints, [
    ['literal:GameScores', { partition: 'gameId', sort: 'playerId', indexes: { top: { partition: 'region' } } }],
  ]);
  assert.deepEqual(out.get('literal:GameScores'), {
    partition: 'gameId',
    sort: 'playerId',
    indexes: { byPlayer: { partition: 'playerId' }, top: { partition: 'region' } },
  });
});

test('a template added after the code is analysed re-keys the literal table and writes its index', async () => {
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-declared-'));
  try {
    const code = path.join(dir, 'src', 'scores.py');
    fs.mkdirSync(path.dirname(code), { recursive: true });
    fs.writeFileSync(
      code,
      [
        'import boto3',
        '',
        'table = boto3.resource("dynamodb").Table("GameScores")',
        '',
        'def record(game_id, player_id, score):',
        '    table.put_item(Item={"playerId": player_id, "gameId": game_id, "region": "eu", "score": score})',
        '',
      ].join('\n'),
    );
    const index = new WorkspaceIndex({ root: dir });
    index.analyzeAll([code]);
    const before = index.analysisOf(code)!.accesses;
    assert.deepEqual(
      before.map((a) => [a.index ?? null, a.partitionKey?.attribute]),
      [[null, 'playerId']],
      'guessed from the item: its first attribute',
    );
    const template = path.join(dir, 'template.yaml');
    fs.writeFileSync(
      template,
      [
        'Resources:',
        '  Scores:',
        '    Type: AWS::DynamoDB::Table',
        '    Properties:',
        '      TableName: GameScores',
        '      KeySchema:',
        '        - { AttributeName: gameId, KeyType: HASH }',
        '        - { AttributeName: playerId, KeyType: RANGE }',
        '      GlobalSecondaryIndexes:',
        '        - IndexName: topByRegion',
        '          KeySchema:',
        '            - { AttributeName: region, KeyType: HASH }',
        '            - { AttributeName: score, KeyType: RANGE }',
        '',
      ].join('\n'),
    );
    assert.ok(index.readInfrastructure([template]));
    index.rebindEnv();
    const after = index.analysisOf(code)!.accesses;
    assert.deepEqual(
      after.map((a) => [a.index ?? null, a.partitionKey?.attribute]),
      [
        [null, 'gameId'],
        ['topByRegion', 'region'],
      ],
    );
    assert.deepEqual(
      index.findingsFor(code).map((f) => f.rule),
      ['SL012'],
      'the constant region fills the declared index',
    );
    // The template gone: the code is read as before.
    assert.ok(index.removeInfrastructure(template));
    index.rebindEnv();
    assert.deepEqual(
      index.analysisOf(code)!.accesses.map((a) => a.partitionKey?.attribute),
      ['playerId'],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
