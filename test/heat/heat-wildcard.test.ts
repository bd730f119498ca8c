// A template with no literal text (`Key={"id": key}` with `key` a loop variable or a
// parameter) fits every live key. After a counter fix, the old counter item still shows
// the write throttles it took before the deploy, and the summing reader's `get_item` in a
// loop is the only template that fits it: heat all on writes is not linked to a call that
// only reads; its reads are the sharded key's, whose reader reads it beside the shards. A
// template written by a call of the traffic's kind still takes it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { linkReport } from '../../server/src/heat';
import type { LiveData, PeriodOps, RuleReport } from '../../server/src/heat/types';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';

const COUNTER = `import os
import random

import boto3

SHARDS = 10
client = boto3.client("dynamodb")


def lambda_handler(event, context):
    client.update_item(
        TableName=os.environ["TABLE"],
        Key={"id": {"S": f"visits#{random.randrange(SHARDS)}"}},
        UpdateExpression="ADD visits :one",
        ExpressionAttributeValues={":one": {"N": "1"}},
    )


def read_visits_total():
    total = 0
    for key in ["visits"] + [f"visits#{shard}" for shard in range(SHARDS)]:
        item = client.get_item(TableName=os.environ["TABLE"], Key={"id": {"S": key}}).get("Item", {})
        total += int(item.get("visits", {}).get("N", "0"))
    return total
`;

const PROFILES = `import os

import boto3

table = boto3.resource("dynamodb").Table(os.environ["TABLE"])


def save_profile(user_id, name):
    table.put_item(Item={"id": user_id, "name": name})
`;

let dir: string;
let index: WorkspaceIndex;
before(async () => {
  await initParsers();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-heat-wildcard-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function indexOf(files: Record<string, string>): WorkspaceIndex {
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const i = new WorkspaceIndex({ root: dir });
  i.analyzeAll(Object.keys(files).map((f) => path.join(dir, f)));
  return i;
}

/** One period's throttles of one kind, on one live key. */
function throttledOnce(key: string, kind: 'read' | 'write'): LiveData {
  const period: PeriodOps = {
    readUnits: 0,
    writeUnits: 0,
    readThrottles: kind === 'read' ? 100 : 0,
    writeThrottles: kind === 'write' ? 100 : 0,
  };
  const pkt: RuleReport = {
    kind: 'PKT',
    rule: 'DynamoDBContributorInsights-PKT-visits-1',
    keyLabels: ['id'],
    aggregateValue: 100,
    contributors: [{ keys: [key], value: 100, peak: 100, points: [{ t: 0, v: 100 }] }],
  };
  return {
    table: { table: 'visits', partitionKey: 'id', sortKey: null, billingMode: 'PAY_PER_REQUEST', indexes: [] },
    index: null,
    window: '15m',
    periodSeconds: 60,
    startMs: 0,
    endMs: 900_000,
    mode: 'THROTTLED_KEYS',
    reports: [pkt],
    metrics: null,
    series: null,
    periods: new Map([[0, period]]),
    problems: [],
  };
}

test("write throttles on the old counter item are not linked to the summing reader's loop", () => {
  index = indexOf({ 'visits.py': COUNTER });
  const r = linkReport(throttledOnce('visits', 'write'), index);
  assert.deepEqual(r.keys, [], 'no call of the code writes "visits" now');
  assert.deepEqual(
    r.unmatched.map((k) => [k.key, k.throttles]),
    [['visits', 100]],
  );
  // Read throttles on it are the reader's, which reads it beside the shards: the sharded
  // key's, on no shard of it.
  const reads = linkReport(throttledOnce('visits', 'read'), index);
  assert.deepEqual(
    reads.keys.map((k) => [k.template, k.throttles, k.topKeys.map((t) => t.key)]),
    [['visits', 100, ['visits']]],
  );
  assert.deepEqual(
    reads.keys[0].sites.map((s) => s.kind),
    ['write', 'read'],
  );
  assert.ok(reads.keys[0].shards?.every((s) => s.throttles === 0));
  assert.deepEqual(reads.unmatched, []);
  // A shard's key still goes to the sharded writer.
  const shard = linkReport(throttledOnce('visits#4', 'write'), index);
  assert.deepEqual(
    shard.keys.map((k) => [k.template, k.shards?.find((s) => s.throttles > 0)?.shard]),
    [['visits', 4]],
  );
});

test('a template with no literal text that a write fills still takes write throttles', () => {
  index = indexOf({ 'profiles.py': PROFILES });
  const r = linkReport(throttledOnce('user-7', 'write'), index);
  assert.equal(r.keys.length, 1);
  assert.deepEqual(r.unmatched, []);
  assert.deepEqual(
    r.keys[0].sites.map((s) => s.kind),
    ['write'],
  );
});
