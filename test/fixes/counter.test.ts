// SL004: a counter item spread over N items. The fixed increment, run K times with
// the real SDK against dynalite, lands on the N counter items; the generated summing
// reader returns K. The fixed code parses, type-checks / compiles, and the engine
// reports no counter finding and nothing new.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, test } from 'node:test';
import dynalite from 'dynalite';
import { CreateTableCommand, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { writeFixes } from '../../server/src/features/fixes/index';
import { applyAction, cleanup, findingIds, indexWorkspace, pythonErrors, ROOT, typeErrors } from './helpers-write';

const run = promisify(execFile);
const K = 120;
const dirs: string[] = [];
after(() => dirs.forEach(cleanup));

const cases = [
  {
    name: 'ts',
    file: 'order-counter.ts',
    reader: 'readOrdersTotal',
    drive: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { OrderCounter } from './order-counter';
const c = new OrderCounter(DynamoDBDocumentClient.from(new DynamoDBClient({})));
(async () => {
  for (let i = 0; i < Number(process.env.K); i += 20) await Promise.all(Array.from({ length: 20 }, () => c.countOrder()));
  process.stdout.write(String(await c.readOrdersTotal()));
})();
`,
  },
  {
    name: 'py',
    file: 'page_views.py',
    reader: 'read_view_count_total',
    drive: `import os
from page_views import PageViews
v = PageViews()
for _ in range(int(os.environ["K"])):
    v.count_view()
print(v.read_view_count_total(), end="")
`,
  },
];

for (const c of cases) {
  test(`${c.name}: the counter is spread over N items and the generated reader sums them`, async () => {
    const dir = path.join(ROOT, 'test-output', 'fixes', `counter-${c.name}-${process.pid}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.cpSync(path.join(__dirname, 'fixtures', 'counter', c.name), dir, { recursive: true });
    dirs.push(dir);
    const original = await indexWorkspace(dir);
    const finding = original.findings.find((f) => f.rule === 'SL004');
    assert.ok(finding);
    const action = writeFixes.flatMap((p) => p(finding, original.ctx)).find((a) => a.id === 'spread-counter');
    assert.ok(action);
    assert.match(action.title, new RegExp(`sum them in ${c.reader}\\(\\)`));
    applyAction(original.ctx, action);

    const fixed = await indexWorkspace(dir);
    for (const r of fixed.index.results()) assert.equal(r.syntaxErrors, false);
    assert.deepEqual([...typeErrors(dir), ...pythonErrors(dir)], []);
    const before = new Set(findingIds(original.findings));
    assert.deepEqual(
      findingIds(fixed.findings).filter((f) => f.startsWith('SL004') || !before.has(f)),
      [],
    );
    assert.deepEqual(
      fixed.findings
        .flatMap((f) => writeFixes.flatMap((p) => p(f, fixed.ctx)))
        .filter((a) => a.id === 'spread-counter'),
      [],
    );

    const server = dynalite({ createTableMs: 0 });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const client = new DynamoDBClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 't', secretAccessKey: 't' },
    });
    try {
      await client.send(
        new CreateTableCommand({
          TableName: 'stats',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
        }),
      );
      const env = {
        ...process.env,
        AWS_ENDPOINT_URL: endpoint,
        AWS_REGION: 'us-east-1',
        AWS_DEFAULT_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 't',
        AWS_SECRET_ACCESS_KEY: 't',
        K: String(K),
        PYTHONPATH: dir,
      };
      let out: string;
      if (c.name === 'py') out = (await run('python3', ['-c', c.drive], { cwd: dir, env })).stdout;
      else {
        fs.writeFileSync(path.join(dir, 'drive.ts'), c.drive);
        out = (await run(process.execPath, ['--import', 'tsx', path.join(dir, 'drive.ts')], { cwd: ROOT, env })).stdout;
      }
      assert.equal(Number(out), K, 'the summing reader returns every increment');
      const items = (await client.send(new ScanCommand({ TableName: 'stats' }))).Items ?? [];
      assert.equal(items.length, 10, `one item per shard: ${items.map((i) => i.PK.S).join(', ')}`);
    } finally {
      client.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
}
