// Throughput and latency of one server (dynalite alone, or the lab) on a fixed
// request mix, measured from a separate process over loopback HTTP with a
// plain keep-alive client: the SDK's own cost (about 1 ms per request here)
// would otherwise hide the server's.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { boardTable } from '../board-table';
import { percentile } from '../load/paced-load';

export interface HttpRound {
  server: 'dynalite' | 'lab';
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  throttled: number;
  /** The server process's resident memory after the round (Linux /proc), MB. */
  serverRssMb?: number;
}

export interface MixOptions {
  seconds: number;
  concurrency: number;
}

const TABLE = 'bench';
const KEYS = 10_000;
const PARTITIONS = 500;
const AUTH = {
  authorization:
    'AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
  'x-amz-date': '20260101T000000Z',
};

export async function startServer(which: 'dynalite' | 'lab'): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/lab-prof'] : []),
      '--import',
      'tsx',
      path.join(__dirname, 'server.ts'),
      which,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (c: Buffer) => {
      text += c.toString();
      const m = /PORT (\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { port, child };
}

export function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function caller(port: number, agent: http.Agent) {
  return (op: string, body: unknown): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const data = JSON.stringify(body);
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/',
          agent,
          headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `DynamoDB_20120810.${op}`, ...AUTH },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        },
      );
      req.on('error', reject);
      req.end(data);
    });
}

function rssMb(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Math.round(Number(kb[1]) / 102.4) / 10 : undefined;
  } catch {
    return undefined;
  }
}

const key = (k: number) => ({ PK: { S: `USER#${k % PARTITIONS}` }, SK: { S: `ITEM#${k}` } });

/** The mix: 40% PutItem, 35% GetItem, 15% UpdateItem, 10% Query (Limit 10), on 10,000 items in 500 partitions. */
export function mixRequest(i: number): [string, unknown] {
  const k = (i * 7919) % KEYS;
  const r = i % 20;
  if (r < 8)
    return ['PutItem', { TableName: TABLE, Item: { ...key(k), score: { N: String(i) }, name: { S: `player-${k}` } } }];
  if (r < 15) return ['GetItem', { TableName: TABLE, Key: key(k) }];
  if (r < 18) {
    return [
      'UpdateItem',
      {
        TableName: TABLE,
        Key: key(k),
        UpdateExpression: 'ADD score :d',
        ExpressionAttributeValues: { ':d': { N: '1' } },
      },
    ];
  }
  return [
    'Query',
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': { S: `USER#${k % PARTITIONS}` } },
      Limit: 10,
    },
  ];
}

/** Creates the bench table and loads its 10,000 items through `call`. */
export async function setUpTable(call: (op: string, body: unknown) => Promise<unknown>): Promise<void> {
  await call('CreateTable', boardTable(TABLE));
  await new Promise((r) => setTimeout(r, 100));
  for (let b = 0; b < KEYS / 25; b++) {
    const items = Array.from({ length: 25 }, (_, j) => ({
      PutRequest: { Item: { ...key(b * 25 + j), score: { N: '0' } } },
    }));
    await call('BatchWriteItem', { RequestItems: { [TABLE]: items } });
  }
}

/** One round: fresh server, table with 10,000 items, closed loop at `concurrency` for `seconds`. */
export async function runRound(which: 'dynalite' | 'lab', o: MixOptions): Promise<HttpRound> {
  const { port, child } = await startServer(which);
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency });
  const call = caller(port, agent);
  try {
    await setUpTable(call);
    // Warm-up, not measured: lets both servers' JIT settle.
    await closedLoop(call, o.concurrency, 1500);
    const measured = await closedLoop(call, o.concurrency, o.seconds * 1000);
    return { server: which, ...measured, serverRssMb: rssMb(child.pid) };
  } finally {
    agent.destroy();
    await stopServer(child);
  }
}

async function closedLoop(call: ReturnType<typeof caller>, concurrency: number, ms: number) {
  const latencies: number[] = [];
  let errors = 0;
  let throttled = 0;
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (performance.now() - start < ms) {
      const [op, body] = mixRequest(next++);
      const t0 = performance.now();
      const res = await call(op, body);
      latencies.push(performance.now() - t0);
      if (res.status !== 200) {
        if (/Throughput|Throttling/.test(res.text)) throttled++;
        else errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    throttled,
  };
}
