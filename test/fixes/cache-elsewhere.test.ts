// A hot read whose request is not written at the call: a wrapper's (the call here is the
// wrapper's, `await getItem<Flags>(TABLE, ...)`, called with type arguments), cached at the
// call, and a DynamoDB library's query whose results the cache's copy would change
// (dynamoose), which says why in the light bulb, never an empty one. A wrapper that caches
// its request makes its callers' reads notes.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes/index';
import { fixtureCopier, indexWorkspace } from './helpers-write';

const copyCache = fixtureCopier(path.join(__dirname, 'fixtures', 'cache'));
const LIBRARIES = path.join(__dirname, '..', 'fixtures', 'libraries');

test('a read-hot key read through a wrapper called with type arguments: found, and cached at the call', async () => {
  const ws = await indexWorkspace(copyCache('wrapper-ts'));
  const read = ws.findings.find((f) => f.rule === 'SL001' && path.basename(f.file) === 'flags.ts');
  assert.ok(read, `the read of FEATURE_FLAGS through getItem<Flags>(): ${ws.findings.map((f) => f.rule).join(', ')}`);
  assert.equal(read.messageId, 'readHot');
  assert.equal(read.span.startLine, 10, 'on the caller’s key argument');
  const actions = allFixes(read, ws.ctx);
  // The wrapper returns the request's data and the call is the same each time (./cache-wrapper.test.ts).
  assert.deepEqual(
    actions.map((a) => [a.id, a.title]),
    [['cache-read', "Cache reads of 'FEATURE_FLAGS' for 30 s (readers may see values up to 30 s old)"]],
  );
  assert.ok(actions[0].changes.every((c) => path.basename(c.file) === 'flags.ts'));
});

test('a hot read made by a library whose results a copy would change names the entity and says why', async () => {
  // Only read: the fixture itself is indexed. dynamoose resolves to documents (`save()`, `delete()`).
  const ws = await indexWorkspace(path.join(LIBRARIES, 'dynamoose', 'ts'));
  // Reads of keys hot to read (read-hot or both); a read of a write-hot key is fixed at its writes.
  const reads = ws.findings.filter(
    (f) =>
      f.access.kind === 'read' &&
      f.access.library?.library === 'dynamoose' &&
      !!f.keyUse &&
      f.keyUse.verdict !== 'write',
  );
  assert.ok(reads.length > 0);
  for (const r of reads) {
    const actions = allFixes(r, ws.ctx);
    assert.equal(actions.length, 1, r.message);
    assert.equal(actions[0].changes.length, 0);
    assert.equal(
      actions[0].title,
      `No cache fix: the ${r.access.operation} is made by the dynamoose entity ${r.access.library!.entity} (${r.access.library!.accessPattern}), and dynamoose returns documents whose methods (save, delete) a cached copy would lose: cache what you use of its result where it is used, with a short TTL`,
    );
  }
});

test('a wrapper whose request is served from the cache: the reads of its callers are notes, with nothing to fix', async () => {
  const dir = copyCache('wrapper-ts');
  const db = path.join(dir, 'db.ts');
  // The wrapper caches its request by hand, with the helper the cache fix writes.
  fs.writeFileSync(
    db,
    fs
      .readFileSync(db, 'utf8')
      .replace(
        'await doc.send(new GetCommand({ TableName: tableName, Key: { pk } }))',
        'await shardlensCached(`${tableName}|${pk}`, 30_000, () => doc.send(new GetCommand({ TableName: tableName, Key: { pk } })))',
      )
      .concat(
        'async function shardlensCached<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {\n  return load();\n}\n',
      ),
  );
  const ws = await indexWorkspace(dir);
  const read = ws.findings.find((f) => f.rule === 'SL001' && path.basename(f.file) === 'flags.ts');
  assert.ok(read);
  assert.deepEqual([read.severity, read.messageId, read.access.cachedBy], ['info', 'cachedRead', 'shardlensCached']);
  assert.deepEqual(allFixes(read, ws.ctx), []);
});
