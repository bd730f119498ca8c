import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VersionedMemo } from '../../server/src/engine/workspace/versioned-memo';

test('a versioned memo computes a key once per version and forgets the last version on a new one', () => {
  const memo = new VersionedMemo<number>();
  let computed = 0;
  const compute = () => ++computed;
  assert.equal(memo.get('1', 'a', compute), 1);
  assert.equal(memo.get('1', 'a', compute), 1, 'kept within a version');
  assert.equal(memo.get('1', 'b', compute), 2, 'another key computes');
  assert.equal(memo.get('2', 'a', compute), 3, 'a new version computes again');
  assert.equal(memo.get('1', 'a', compute), 4, 'an old version is not kept');
});
