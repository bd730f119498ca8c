// The generated scatter-gather reader against a sequential loop over the same shards,
// on dynalite in its own process (as a DynamoDB endpoint is another process): 10 shards
// of 3 pages each. Prints one markdown row; the target is a wall-time ratio <= 0.5.
//
//   node --import tsx bench/reader.ts

import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { transform } from 'esbuild';
import { generateReader } from '../server/src/features/generate';
import type { ReaderSpec } from '../server/src/features/generate/reader-spec';

const SHARDS = 10;
const PER_SHARD = 60; // ~40 KB items: 3 pages of 1 MB per shard
const ROUNDS = 7;
/** A same-region round trip to DynamoDB, for the second row. */
const RTT_MS = 10;

async function startDynalite(): Promise<{ endpoint: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    ['-e', "require('dynalite')({createTableMs:0}).listen(0,'127.0.0.1',function(){console.log(this.address().port)})"],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/**
 * A loopback proxy that holds each request `ms` before forwarding it: the round trip to a
 * regional endpoint, which dynalite on loopback does not have and which the parallel
 * reader exists to overlap. Reported as its own row.
 */
async function latencyProxy(target: string, ms: number): Promise<{ endpoint: string; close(): void }> {
  const url = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () =>
      setTimeout(() => {
        const out = http.request(
          { host: url.hostname, port: url.port, path: req.url, method: req.method, headers: req.headers, agent },
          (r) => {
            res.writeHead(r.statusCode ?? 500, r.headers);
            r.pipe(res);
          },
        );
        out.end(Buffer.concat(chunks));
      }, ms),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => (server.close(), agent.destroy()),
  };
}

const spec: ReaderSpec = {
  style: 'lib-dynamodb',
  call: 'send',
  typed: true,
  name: 'readAllShards',
  keyId: 'bench · PK = BOARD#global',
  client: 'client',
  clientParam: { name: 'client', type: null },
  table: "'bench'",
  index: null,
  consistent: false,
  partition: { attribute: 'PK', before: [{ literal: 'BOARD#global#' }], after: '' },
  shards: { kind: 'range', start: 0, count: String(SHARDS) },
  sort: null,
  top: null,
  order: null,
  params: [],
  indentUnit: '  ',
  quote: "'",
};

async function main() {
  const db = await startDynalite();
  const raw = new DynamoDBClient({
    endpoint: db.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'b', secretAccessKey: 'b' },
  });
  const doc = DynamoDBDocumentClient.from(raw);
  try {
    await raw.send(
      new CreateTableCommand({
        TableName: 'bench',
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: [
          { AttributeName: 'PK', AttributeType: 'S' },
          { AttributeName: 'SK', AttributeType: 'S' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    const pad = 'x'.repeat(40_000);
    for (let s = 0; s < SHARDS; s++)
      for (let i = 0; i < PER_SHARD; i += 20) {
        const batch = Array.from({ length: 20 }, (_, j) => ({
          PutRequest: { Item: { PK: `BOARD#global#${s}`, SK: `S#${String(i + j).padStart(4, '0')}`, pad } },
        }));
        await doc.send(new BatchWriteCommand({ RequestItems: { bench: batch } }));
      }
    // The generated reader, compiled as a user's build would, bound to this module's QueryCommand.
    const { code } = await transform(generateReader(spec).code, { loader: 'ts', format: 'cjs' });
    const parallel = new Function('QueryCommand', `${code}\nreturn readAllShards;`)(QueryCommand) as (
      c: DynamoDBDocumentClient,
    ) => Promise<{ Count: number }>;
    // The sequential loop a reader without the fix would be: shard after shard, page after page.
    const sequential = async (c: DynamoDBDocumentClient) => {
      let count = 0;
      for (let shard = 0; shard < SHARDS; shard++) {
        let startKey: Record<string, unknown> | undefined;
        do {
          const page = await c.send(
            new QueryCommand({
              TableName: 'bench',
              KeyConditionExpression: 'PK = :pk',
              ExpressionAttributeValues: { ':pk': `BOARD#global#${shard}` },
              ExclusiveStartKey: startKey,
            }),
          );
          count += page.Count ?? 0;
          startKey = page.LastEvaluatedKey;
        } while (startKey);
      }
      return { Count: count };
    };
    const time = async (f: () => Promise<{ Count: number }>) => {
      const t = performance.now();
      const r = await f();
      if (r.Count !== SHARDS * PER_SHARD) throw new Error(`read ${r.Count} items, wrote ${SHARDS * PER_SHARD}`);
      return performance.now() - t;
    };
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const measure = async (client: DynamoDBDocumentClient) => {
      await time(() => parallel(client));
      await time(() => sequential(client));
      const p: number[] = [];
      const q: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        p.push(await time(() => parallel(client)));
        q.push(await time(() => sequential(client)));
      }
      return { p: median(p), q: median(q) };
    };
    const row = (what: string, m: { p: number; q: number }) => {
      const ratio = m.p / m.q;
      return `| ${what} | ${SHARDS} x 3 | ${m.p.toFixed(1)} | ${m.q.toFixed(1)} | ${ratio.toFixed(2)} | <= 0.5 ${ratio <= 0.5 ? 'met' : 'not met'} |`;
    };
    const local = await measure(doc);
    const proxy = await latencyProxy(db.endpoint, RTT_MS);
    const far = new DynamoDBClient({
      endpoint: proxy.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'b', secretAccessKey: 'b' },
    });
    const remote = await measure(DynamoDBDocumentClient.from(far));
    far.destroy();
    proxy.close();
    console.log(
      '| generated parallel reader vs sequential loop | shards x pages | parallel ms (median) | sequential ms (median) | ratio | target |',
    );
    console.log('| --- | --- | --- | --- | --- | --- |');
    console.log(row('dynalite on loopback (no network latency)', local));
    console.log(row(`dynalite + ${RTT_MS} ms round trip (loopback proxy)`, remote));
  } finally {
    raw.destroy();
    db.stop();
  }
}

void main();
