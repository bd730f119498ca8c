// A feed written under one constant key and read newest first through a secondary index
// whose partition key is the same attribute: the index keys each item by that attribute,
// so a shard suffix on the writes reaches the index too, and a fix that shards the writes
// while the index read still asks for the bare key would leave the feed page empty of
// every new post. The shard fixes must count such a read as a reader of the key.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes/index';
import { fixtureCopier, indexWorkspace } from './helpers-write';

const copy = fixtureCopier(path.join(__dirname, 'fixtures', 'index-feed'));

test('a write shard is not offered while a read through an index on the same attribute would miss the shards', async () => {
  const ws = await indexWorkspace(copy('feed'));
  const write = ws.findings.find((f) => f.rule === 'SL001' && f.access.operation === 'PutItem');
  assert.ok(write, 'the constant feed key is reported on the put');
  const offered = allFixes(write, ws.ctx);
  assert.deepEqual(
    offered.filter((a) => a.changes.length > 0).map((a) => a.id),
    [],
    'no shard fix that leaves the index read on the bare key',
  );
  assert.deepEqual(
    offered.map((a) => a.title),
    ['No shard fix: the Query at feed.ts:27 cannot be replaced by a reader of every shard'],
  );
  const read = ws.findings.find((f) => f.access.operation === 'Query' && f.access.index === 'byPostedAt');
  assert.ok(read, 'the index read is reported');
  assert.deepEqual(
    allFixes(read, ws.ctx).map((a) => a.id),
    ['cache-read'],
    'the index read keeps its own fix',
  );
});
