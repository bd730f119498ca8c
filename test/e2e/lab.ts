// The lab as the end-to-end tests use it: `shardlens lab` (the built CLI) on a free loopback
// port with one-second periods, stopped by its PID; an SDK client for it; a PK/SK table.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { ROOT } from './vscode';

export interface Lab {
  child: ChildProcess;
  url: string;
}

/** Starts the lab (1 s periods, 100 WCU per partition so a few hundred writes throttle). */
export async function startLab(): Promise<Lab> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'bin', 'shardlens.js'), 'lab', '--port', '0', '--period', '1', '--write-limit', '100'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const end = Date.now() + 20_000;
  for (;;) {
    const m = /ShardLens lab on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    if (m) return { child, url: m[1] };
    if (child.exitCode !== null || Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`the lab did not start:\n${out}`);
    }
    await sleep(50);
  }
}

/** Stops the lab by its PID and waits for it to exit. */
export async function stopLab(lab: Lab | undefined): Promise<void> {
  if (!lab?.child.pid || lab.child.exitCode !== null) return;
  const exited = new Promise((r) => lab.child.once('exit', r));
  process.kill(lab.child.pid, 'SIGTERM');
  await exited;
}

export const labClient = (url: string) =>
  new DynamoDBClient({
    endpoint: url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'lab', secretAccessKey: 'lab' },
    maxAttempts: 1,
  });

/** An on-demand table keyed PK (hash) + SK (range), like the examples' tables. */
export const table = (name: string): CreateTableCommandInput => ({
  TableName: name,
  BillingMode: 'PAY_PER_REQUEST',
  KeySchema: [
    { AttributeName: 'PK', KeyType: 'HASH' },
    { AttributeName: 'SK', KeyType: 'RANGE' },
  ],
  AttributeDefinitions: [
    { AttributeName: 'PK', AttributeType: 'S' },
    { AttributeName: 'SK', AttributeType: 'S' },
  ],
});
