// A constant key that is one value of a key another Query reads by a parameter
// (`"STATE#QUEUED"` written, `f"STATE#{state}"` read on the same index): a shard fix of
// the constant alone moves its items to `STATE#QUEUED#<n>`, where the parameter's Query,
// asked for QUEUED, no longer finds them. The fix is refused and says which read it would lose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { allFixes, blockedFixes } from '../../server/src/features/fixes';
import { cleanup, copyFixture } from './helpers-write';
import { indexed } from './helpers-programs';

const FIXTURES = path.join(__dirname, 'fixtures');

test("a constant index key that another Query reads as one of its parameter's values gets no shard fix", async () => {
  const dir = copyFixture('job-states-py', FIXTURES);
  try {
    const { ctx, findings } = await indexed(dir);
    const put = findings.find((f) => f.rule === 'SL001' && f.access.operation === 'PutItem');
    assert.ok(put, 'SL001 on the put of STATE#QUEUED');
    const shardFixes = allFixes(put, ctx).filter((a) => a.changes.length > 0 && /shard/.test(a.id));
    assert.deepEqual(
      shardFixes.map((a) => a.title),
      [],
    );
    const blocked = blockedFixes(put, ctx).map((a) => a.title);
    assert.deepEqual(blocked, [
      'No shard fix: the Query at jobs.py:26 reads STATE#{low-cardinality}, of which this key is one value: it would no longer find the items of this key once they are sharded',
    ]);
  } finally {
    cleanup(dir);
  }
});

test('a Query asked for the constant by default (`.get("state", "QUEUED")`) still gets no shard fix', async () => {
  const dir = copyFixture('job-states-py', FIXTURES);
  try {
    // The handler now reads QUEUED where the request names no state: that Query reads this
    // key on some paths and other states on the others, so no reader of every shard replaces it.
    const jobs = path.join(dir, 'jobs.py');
    const text = fs.readFileSync(jobs, 'utf8');
    const defaulted = text.replace(
      'event["pathParameters"]["state"]',
      '(event.get("queryStringParameters") or {}).get("state", "QUEUED")',
    );
    assert.notEqual(defaulted, text);
    fs.writeFileSync(jobs, defaulted);
    const { ctx, findings } = await indexed(dir);
    const put = findings.find((f) => f.rule === 'SL001' && f.access.operation === 'PutItem');
    assert.ok(put, 'SL001 on the put of STATE#QUEUED');
    assert.deepEqual(
      allFixes(put, ctx).filter((a) => a.changes.length > 0 && /shard/.test(a.id)),
      [],
    );
    const blocked = blockedFixes(put, ctx).map((a) => a.title);
    assert.equal(blocked.length, 1);
    assert.match(blocked[0], /^No shard fix: .*the Query at jobs\.py:26/);
  } finally {
    cleanup(dir);
  }
});

test('a Query whose key is this one on some paths only (`BOARD#${board}`, board defaulting to global) refuses the shard fix', async () => {
  const dir = copyFixture('board-default-ts', FIXTURES);
  try {
    const { ctx, findings } = await indexed(dir);
    const put = findings.find((f) => f.rule === 'SL001' && f.access.operation === 'PutItem');
    assert.ok(put, 'SL001 on the put of BOARD#global');
    // Replaced by a reader of BOARD#global's shards, GET /boards/weekly would list the global board.
    assert.deepEqual(
      allFixes(put, ctx).filter((a) => a.changes.length > 0),
      [],
    );
    assert.deepEqual(
      blockedFixes(put, ctx).map((a) => a.title),
      [
        "No shard fix: the Query at board.ts:16 uses this key on some paths only (its value can be another key): a reader of this key's shards would answer the other values with this key's items",
      ],
    );
  } finally {
    cleanup(dir);
  }
});
