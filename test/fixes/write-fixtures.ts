// The write fixtures, in the shapes real projects use, and how to run each one's
// writer K times against an endpoint: a driver in the fixture's own language that
// calls the fixture's exported function or class the way an application would.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './helpers-write';

export interface WriteFixture {
  name: string;
  /** The file with the hot write. */
  writer: string;
  table: string;
  pk: string;
  sk: string;
  /** The fixes every finding of this fixture must offer. */
  fixes: string[];
  /**
   * A program in the fixture's own language that calls the writer `K` times (from the
   * environment) the way an application would; `drive` runs it.
   */
  driver: { language: 'node' | 'python'; source: string };
}

/**
 * Runs a fixture's driver `k` times against `endpoint` in a child process; asynchronously,
 * since the server under test runs in this process's event loop.
 */
export function drive(fx: WriteFixture, dir: string, endpoint: string, k: number): Promise<unknown> {
  return fx.driver.language === 'python'
    ? python(dir, endpoint, k, fx.driver.source)
    : node(dir, endpoint, k, fx.driver.source);
}

const ENV = (endpoint: string) => ({
  ...process.env,
  AWS_ENDPOINT_URL: endpoint,
  AWS_REGION: 'us-east-1',
  AWS_DEFAULT_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  EVENTS_TABLE: 'events',
  K: '0',
});

/** Runs a Node driver (TypeScript through tsx) placed in the fixture copy. */
const run = promisify(execFile);

async function node(dir: string, endpoint: string, k: number, source: string): Promise<unknown> {
  const file = path.join(dir, 'drive.ts');
  fs.writeFileSync(file, source);
  try {
    return await run(process.execPath, ['--import', 'tsx', file], {
      cwd: ROOT,
      env: { ...ENV(endpoint), K: String(k) },
      timeout: 60_000,
    });
  } finally {
    fs.rmSync(file);
  }
}

function python(dir: string, endpoint: string, k: number, source: string): Promise<unknown> {
  return run('python3', ['-c', source], {
    cwd: dir,
    env: { ...ENV(endpoint), K: String(k), PYTHONPATH: dir },
    timeout: 60_000,
  });
}

/** Runs `call(i)` for i in 0..K-1, 20 at a time. */
const BATCHED = `
async function times(k: number, call: (i: number) => Promise<unknown>) {
  for (let i = 0; i < k; i += 20) {
    await Promise.all(Array.from({ length: Math.min(20, k - i) }, (_, j) => call(i + j)));
  }
}
`;

export const WRITE_FIXTURES: WriteFixture[] = [
  {
    name: 'repo-ts',
    writer: 'leaderboard-repository.ts',
    table: 'leaderboard',
    pk: 'PK',
    sk: 'SK',
    fixes: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'node',
      source: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LeaderboardRepository } from './leaderboard-repository';
${BATCHED}
const repo = new LeaderboardRepository(DynamoDBDocumentClient.from(new DynamoDBClient({})));
void times(Number(process.env.K), (i) => repo.recordScore('player-' + i, i));
`,
    },
  },
  {
    // The key is written in the caller and put by a helper in another module: the fix edits the caller.
    name: 'wrapper-ts',
    writer: 'lobby.ts',
    table: 'messages',
    pk: 'room',
    sk: 'messageId',
    fixes: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'node',
      source: `import { postToLobby } from './lobby';
${BATCHED}
void times(Number(process.env.K), (i) => postToLobby('m-' + i, 'hello'));
`,
    },
  },
  {
    name: 'lambda-v3',
    writer: 'handler.js',
    table: 'events',
    pk: 'pk',
    sk: 'sk',
    fixes: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'node',
      source: `const { handler } = require('./handler');
${BATCHED}
void times(Number(process.env.K), (i) => handler({ body: JSON.stringify({ eventId: 'evt-' + i, kind: 'click' }) }));
`,
    },
  },
  {
    name: 'v2-script',
    writer: 'import-orders.js',
    table: 'orders',
    pk: 'pk',
    sk: 'sk',
    fixes: ['add-random-shard', 'add-hash-shard'],
    // SDK v2 reads its endpoint from the global config, set before the script creates its client.
    driver: {
      language: 'node',
      source: `const AWS = require('aws-sdk');
AWS.config.update({ endpoint: process.env.AWS_ENDPOINT_URL, region: 'us-east-1' });
const { importOrder } = require('./import-orders');
${BATCHED}
void times(Number(process.env.K), (i) => importOrder({ orderId: 'order-' + i, total: i }));
`,
    },
  },
  {
    // The key is in a `params` object built before the call, in a function the handler calls.
    name: 'v2-params',
    writer: 'record-visit.js',
    table: 'visits',
    pk: 'pk',
    sk: 'sk',
    fixes: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'node',
      source: `const AWS = require('aws-sdk');
AWS.config.update({ endpoint: process.env.AWS_ENDPOINT_URL, region: 'us-east-1' });
const { handler } = require('./record-visit');
${BATCHED}
void times(Number(process.env.K), (i) => handler({ body: JSON.stringify({ visitId: 'visit-' + i, page: '/' }) }));
`,
    },
  },
  {
    name: 'cross-ts',
    writer: 'weekly.ts',
    table: 'leaderboard',
    pk: 'PK',
    sk: 'SK',
    fixes: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'node',
      source: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { recordWeekly } from './weekly';
${BATCHED}
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
void times(Number(process.env.K), (i) => recordWeekly(doc, 'player-' + i, i));
`,
    },
  },
  {
    name: 'dao-py',
    writer: 'score_dao.py',
    table: 'leaderboard',
    pk: 'PK',
    sk: 'SK',
    fixes: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'python',
      source: `import os
from score_dao import ScoreDao
dao = ScoreDao()
for i in range(int(os.environ["K"])):
    dao.record_score(f"player-{i}", i)
`,
    },
  },
  {
    // The key is a parameter's default (evaluated once, when the def runs): the random
    // suffix goes where the item uses it, never into the default.
    name: 'py-default-param',
    writer: 'events.py',
    table: 'events',
    pk: 'source',
    sk: 'event_id',
    fixes: ['add-random-shard'],
    driver: {
      language: 'python',
      source: `import os
from events import handler
for i in range(int(os.environ["K"])):
    handler({"body": f"page-view-{i}"}, None)
`,
    },
  },
  {
    // A TypeScript parameter's default (`stream: string = 'GLOBAL'`) that a call in the
    // same module leaves out: the suffix goes where the item uses it, never into the default.
    name: 'ts-default-param',
    writer: 'audit-log.ts',
    table: 'audit',
    pk: 'stream',
    sk: 'entryId',
    fixes: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'node',
      source: `import { recordLogin } from './audit-log';
${BATCHED}
void times(Number(process.env.K), (i) => recordLogin('user-' + i));
`,
    },
  },
  {
    name: 'client-py',
    writer: 'events.py',
    table: 'events',
    pk: 'pk',
    sk: 'sk',
    fixes: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'python',
      source: `import os
from events import record_event
for i in range(int(os.environ["K"])):
    record_event(f"evt-{i}", "click")
`,
    },
  },
  {
    name: 'cross-py',
    writer: 'weekly.py',
    table: 'leaderboard',
    pk: 'PK',
    sk: 'SK',
    fixes: ['add-random-shard', 'add-hash-shard'],
    driver: {
      language: 'python',
      source: `import os
import boto3
from weekly import record_weekly
table = boto3.resource("dynamodb").Table("leaderboard")
for i in range(int(os.environ["K"])):
    record_weekly(table, f"player-{i}", i)
`,
    },
  },
];
