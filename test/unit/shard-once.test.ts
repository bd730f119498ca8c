import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { analyze, indexedWorkspace, summarize } from './helpers';

/**
 * SL010: a random shard suffix (or random key part) drawn once per process, at module
 * level or in a class body, and used by a function that runs per request. It replaces
 * the SL001 the rest of the key would give; a draw per request, or a script that draws
 * and writes once at module level, is sharding and gives nothing.
 */

/** `line rule severity` per finding, 1-based lines. */
const found = (r: { findings: Array<{ span: { startLine: number }; rule: string; severity: string }> }) =>
  r.findings.map((f) => `${f.span.startLine + 1} ${f.rule} ${f.severity}`);

test('TS: a module-level suffix and a static field are SL010 (not SL001); a per-request draw is sharded', async () => {
  const r = await analyze(
    'src/handlers/feed.ts',
    `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { randomUUID } from "node:crypto";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const FEED_SHARDS = 10;
const SUFFIX = Math.floor(Math.random() * FEED_SHARDS);

class FeedKeys {
  static readonly HOT = \`HOT#\${Math.floor(Math.random() * 4)}\`;
}

export async function post(body: string) {
  await doc.send(new PutCommand({ TableName: "feed", Item: { pk: \`FEED#\${SUFFIX}\`, sk: randomUUID(), body } }));
  await doc.send(new PutCommand({ TableName: "feed", Item: { pk: FeedKeys.HOT, sk: randomUUID(), body } }));
  const shard = Math.floor(Math.random() * FEED_SHARDS);
  await doc.send(new PutCommand({ TableName: "feed", Item: { pk: \`NEW#\${shard}\`, sk: randomUUID(), body } }));
}
`,
  );
  assert.deepEqual(summarize(r), [
    '14 PutItem feed pk=FEED#{shard 0..9} sk={random} (constant)',
    '15 PutItem feed pk=HOT#{shard 0..3} sk={random} (constant)',
    '17 PutItem feed pk=NEW#{shard 0..9} sk={random} (sharded)',
  ]);
  assert.deepEqual(found(r), ['14 SL010 error', '10 SL010 error']);
  assert.match(r.findings[0].message, /takes its shard part SUFFIX, chosen once per process/);
  assert.match(r.findings[0].message, /every write of one process lands on one partition/);
});

test('Python: module level, class attribute and a per-process uuid are SL010; a script drawing at module level is not', async () => {
  const app = await analyze(
    'app/events.py',
    `import random
import uuid

import boto3

table = boto3.resource("dynamodb").Table("events")
SHARD = random.randint(0, 9)
WORKER_ID = str(uuid.uuid4())


class Keys:
    audit = f"AUDIT#{random.randrange(4)}"


def record(kind):
    table.put_item(Item={"pk": f"EVENTS#{SHARD}", "sk": str(uuid.uuid4()), "kind": kind})
    table.put_item(Item={"pk": Keys.audit, "sk": str(uuid.uuid4()), "kind": kind})
    table.put_item(Item={"pk": WORKER_ID, "sk": str(uuid.uuid4()), "kind": kind})
    table.put_item(Item={"pk": f"EVENTS#{random.randint(0, 9)}", "sk": str(uuid.uuid4()), "kind": kind})
`,
  );
  assert.deepEqual(
    found(app).map((l) => l.split(' ').slice(0, 2).join(' ')),
    ['16 SL010', '12 SL010', '18 SL010'],
  );
  const script = await analyze(
    'scripts/seed.py',
    `import random
import uuid

import boto3

table = boto3.resource("dynamodb").Table("events")
shard = random.randint(0, 9)
table.put_item(Item={"pk": f"EVENTS#{shard}", "sk": str(uuid.uuid4())})
`,
  );
  assert.deepEqual(summarize(script), ['8 PutItem events pk=EVENTS#{shard 0..9} sk={random} (sharded)']);
  assert.deepEqual(script.findings, []);
});

test('a shard constant drawn in another module is drawn once too', async () => {
  const { index, dir } = await indexedWorkspace({
    'app/__init__.py': '',
    'app/settings.py': 'import random\n\nSHARD = random.randrange(16)\nSHARD_COUNT = 16\n',
    'app/writer.py': `import uuid

import boto3

from .settings import SHARD

table = boto3.resource("dynamodb").Table("metrics")


def write(value):
    table.put_item(Item={"pk": f"METRICS#{SHARD}", "sk": str(uuid.uuid4()), "value": value})
`,
  });
  const r = index.results().find((x) => x.file === path.join(dir, 'app/writer.py'))!;
  assert.deepEqual(
    r.findings.map((f) => f.rule),
    ['SL010'],
  );
});
