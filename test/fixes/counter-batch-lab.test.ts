// The Python summing reader reads the counter's items in one BatchGetItem; DynamoDB returns
// the keys it could not read (a partition over its read limit) in UnprocessedKeys, and the
// reader must ask again for them or the total comes out short. Against the lab, whose read
// limit per partition key is lowered to 1 RCU/s, a likes counter fixed with the spread is
// incremented K times. Before each increment the driver drains one shard's read capacity
// (reads of it, without retries, until the lab refuses one), so that shard comes back
// unprocessed whatever the pace of the run. The driver counts the BatchGetItem answers that
// left keys unprocessed (botocore's after-call event) and what each increment returned:
// 1..K, with an answer left short.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { writeFixes } from '../../server/src/features/fixes/index';
import { createTable, startTestLab, type TestLab } from '../lab/helpers';
import { counterFixtures } from './helpers-counter';
import { table } from './helpers-programs';
import { applyAction, indexWorkspace, runDriverAt } from './helpers-write';

const K = 20;
const copy = counterFixtures();
let t: TestLab;

before(async () => {
  t = await startTestLab({ readLimit: 1 });
  await createTable(t.ddb, table('counters', 'pk', null));
});
after(() => t.close());

test('Python: keys a BatchGetItem leaves unprocessed are read again, and the total stays right', async () => {
  const dir = copy('py-resource');
  const ws = await indexWorkspace(dir);
  const finding = ws.findings.find((f) => f.rule === 'SL004');
  assert.ok(finding, 'the counter is reported');
  const action = writeFixes.flatMap((p) => p(finding, ws.ctx)).find((a) => a.id === 'spread-counter');
  assert.ok(action, 'the spread is offered');
  applyAction(ws.ctx, action);

  const driver = `import json, os
import likes, time
t0 = time.monotonic()
short = []
def count_unprocessed(parsed, **kwargs):
    short.append(len(parsed.get("UnprocessedKeys") or {}))
likes.dynamodb.meta.client.meta.events.register("after-call.dynamodb.BatchGetItem", count_unprocessed)
import boto3
from botocore.config import Config
from botocore.exceptions import ClientError
drain = boto3.resource("dynamodb", config=Config(retries={"max_attempts": 1})).Table("counters")
def drain_one_shard():
    for _ in range(50):
        try:
            drain.get_item(Key={"pk": "LIKES#landing#3"})
        except ClientError:  # throttled (an on-demand table's ThrottlingException)
            return
returned = []
for _ in range(int(os.environ["K"])):
    drain_one_shard()
    returned.append(likes.add_like())
print(json.dumps({"returned": returned, "calls": len(short), "short": sum(1 for s in short if s), "seconds": time.monotonic() - t0}))`;
  const out = JSON.parse(
    await runDriverAt(t.lab.url, dir, 'python', driver, { TABLE_NAME: 'counters', K: String(K) }),
  ) as {
    returned: number[];
    calls: number;
    short: number;
    seconds: number;
  };
  assert.deepEqual(
    out.returned,
    Array.from({ length: K }, (_, i) => i + 1),
    `the true total after each increment (${out.short} of ${out.calls} BatchGetItem answers left keys unprocessed)`,
  );
  assert.ok(
    out.short > 0,
    `the lab left keys unprocessed at least once (${out.calls} calls in ${out.seconds.toFixed(1)} s)`,
  );
  // A call whose keys were all throttled fails whole and is retried by botocore: it counts as a call too.
  assert.ok(out.calls >= K + out.short, 'one call per increment, and one more for each answer left short');
});
