import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { envWithoutAws } from '../lab/helpers';
import { startServer, until, type Session } from './lsp-client';

/**
 * What the language server writes to the editor's output channel, over real LSP: the AWS
 * SDK's Node-version notice (printed by Node on stderr as seven lines, which VS Code shows
 * as seven `[error]` lines) arrives as one info line, once; and a table's problem is logged
 * once, not again at every refresh.
 */

// An order service's repository: the table it names is what live heat reads.
const ORDERS_TS = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export class OrderRepository {
  async save(order: { id: string; total: number }): Promise<void> {
    await ddb.send(new PutCommand({ TableName: 'orders', Item: { pk: 'ORDERS', sk: order.id, total: order.total } }));
  }
}
`;

let session: Session | undefined;
let folder: string | undefined;
after(() => {
  session?.stop();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

/** No AWS configuration from this machine: the endpoint setting is the only connection. */
const bareEnv = envWithoutAws;

test('the SDK Node-version notice is one info line, and a problem repeated by each refresh is logged once', async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-log-'));
  fs.mkdirSync(path.join(folder, 'src'));
  fs.writeFileSync(path.join(folder, 'src', 'orders.ts'), ORDERS_TS);
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const s = startServer(folder, { env: bareEnv(folder) });
  session = s;
  s.settings = { aws: { endpoint: `http://127.0.0.1:${port}` }, heat: { window: '1h', refreshSeconds: 0 } };
  await s.initialize({ initializationOptions: { workspaceTrusted: true } });
  await until(
    'the first failed refresh',
    () => s.heatStatuses.find((x) => x.state === 'problem'),
    () => s.heatStatuses,
  );
  // Two more refreshes, each failing the same way.
  for (let i = 0; i < 2; i++)
    await s.conn.sendRequest('workspace/executeCommand', { command: 'shardlens.heat.refresh', arguments: [] });
  assert.ok(s.heatStatuses.filter((x) => x.state === 'problem').length >= 3, JSON.stringify(s.heatStatuses));

  // Counted nouns agree with their numbers.
  assert.ok(
    s.logs.some((l) =>
      /^\[info\] ShardLens indexed 1 file in \d+ ms: 1 error, 0 warnings, 0 info; 0 skipped\.$/.test(l),
    ),
    s.logs.join('\n'),
  );
  const problems = s.logs.filter((l) => l.startsWith('[info] live heat, orders:'));
  assert.equal(problems.length, 1, s.logs.join('\n'));
  assert.match(problems[0], new RegExp(`127\\.0\\.0\\.1:${port}`));

  // The SDK warns on Node < 22 (this machine's Node 20): the notice is one info line, nothing on stderr.
  const major = Number(process.versions.node.split('.')[0]);
  const notices = s.logs.filter((l) => l.includes('NodeVersionSupportWarning'));
  assert.doesNotMatch(s.stderr, /NodeVersionSupportWarning|AWS SDK for JavaScript/);
  if (major < 22) {
    assert.equal(notices.length, 1, s.logs.join('\n'));
    assert.match(
      notices[0],
      new RegExp(
        `^\\[info\\] NodeVersionSupportWarning: The AWS SDK for JavaScript \\(v3\\) .*You are running node ${process.version.replace(/\./g, '\\.')}\\. `,
      ),
    );
    assert.doesNotMatch(notices[0], /\n/);
  } else assert.equal(notices.length, 0, s.logs.join('\n'));
  assert.equal(s.exited, null);
});

test('the CLI prints the SDK Node-version notice as one line on stderr, not seven', async () => {
  const { spawnSync } = await import('node:child_process');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cli-log-'));
  try {
    fs.writeFileSync(path.join(dir, 'orders.ts'), ORDERS_TS);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const cli = path.resolve(__dirname, '../../bin/shardlens.js');
    const r = spawnSync(
      process.execPath,
      [cli, 'heat', dir, '--table', 'orders', '--endpoint', `http://127.0.0.1:${port}`],
      { env: bareEnv(dir), encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /Cannot connect to endpoint/);
    const lines = r.stderr.split('\n').filter((l) => /AWS SDK for JavaScript|node >=|a\.co\//.test(l));
    const major = Number(process.versions.node.split('.')[0]);
    assert.doesNotMatch(r.stderr, /\(node:\d+\) Warning/);
    if (major < 22) {
      assert.equal(lines.length, 1, r.stderr);
      assert.match(
        lines[0],
        /^shardlens: note: NodeVersionSupportWarning: The AWS SDK for JavaScript \(v3\) .* You are running node v/,
      );
    } else assert.equal(lines.length, 0, r.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
