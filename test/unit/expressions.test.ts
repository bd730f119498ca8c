import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIncrements, parseKeyCondition } from '../../server/src/engine/requests/expressions';
import { classifyName } from '../../server/src/engine/frontends/names';

test('key conditions: equality, begins_with, between, comparisons, placeholders and parens', () => {
  assert.deepEqual(parseKeyCondition('#pk = :pk AND begins_with(#sk, :p)'), [
    { attribute: '#pk', op: '=', values: [':pk'] },
    { attribute: '#sk', op: 'begins_with', values: [':p'] },
  ]);
  assert.deepEqual(parseKeyCondition('(pk = :pk) and sk BETWEEN :a AND :b'), [
    { attribute: 'pk', op: '=', values: [':pk'] },
    { attribute: 'sk', op: 'between', values: [':a', ':b'] },
  ]);
  assert.deepEqual(parseKeyCondition(':pk = PK AND :t < SK'), [
    { attribute: 'PK', op: '=', values: [':pk'] },
    { attribute: 'SK', op: '>', values: [':t'] },
  ]);
});

test('key conditions: what is not a key condition is rejected, not guessed', () => {
  assert.equal(parseKeyCondition('pk = :a OR pk = :b'), null);
  assert.equal(parseKeyCondition('a = :a AND b = :b AND c = :c'), null);
  assert.equal(parseKeyCondition('pk = '), null);
  assert.equal(parseKeyCondition(''), null);
  assert.equal(parseKeyCondition('pk = :a; DROP'), null);
});

test('update expressions: ADD and SET increments, not plain SETs', () => {
  assert.deepEqual(parseIncrements('ADD #n :one'), [{ attribute: '#n', by: ':one' }]);
  assert.deepEqual(parseIncrements('SET #c = #c + :inc, updatedAt = :now'), [{ attribute: '#c', by: ':inc' }]);
  assert.deepEqual(parseIncrements('SET seq = if_not_exists(seq, :zero) + :one'), [{ attribute: 'seq', by: ':one' }]);
  assert.deepEqual(parseIncrements('SET #n = :n REMOVE old'), []);
  assert.deepEqual(parseIncrements('SET a = b + :x'), []);
});

test('names: words decide the class, in any casing convention', () => {
  assert.deepEqual(classifyName('playerId'), { kind: 'entity-id' });
  assert.deepEqual(classifyName('PLAYER_ID'), { kind: 'entity-id' });
  assert.deepEqual(classifyName('shard_id'), { kind: 'shard' });
  assert.deepEqual(classifyName('orderStatus'), { kind: 'low-cardinality' });
  assert.deepEqual(classifyName('isPremium'), { kind: 'low-cardinality' });
  assert.deepEqual(classifyName('hourBucket'), { kind: 'time', time: 'bucket' });
  assert.deepEqual(classifyName('date'), { kind: 'time', time: 'bucket' });
  assert.deepEqual(classifyName('createdAt'), { kind: 'time', time: 'instant' });
  assert.deepEqual(classifyName('nextSeq'), { kind: 'counter' });
  assert.equal(classifyName('payload'), null);
  // The name of one of a small set (a category, a country, a feature flag) is no entity's name.
  assert.deepEqual(classifyName('productCategoryName'), { kind: 'low-cardinality' });
  assert.deepEqual(classifyName('country_name'), { kind: 'low-cardinality' });
  assert.deepEqual(classifyName('flagName'), { kind: 'low-cardinality' });
  assert.deepEqual(classifyName('userName'), { kind: 'entity-id' });
  assert.deepEqual(classifyName('channelName'), { kind: 'entity-id' });
});
