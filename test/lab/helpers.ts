// Shared set-up for the lab tests: a lab on a free loopback port with a
// 1-second period, real SDK clients pointed at it, and small helpers that read
// numbers back through the public CloudWatch API.

import http from 'node:http';
import * as path from 'node:path';
import { CreateTableCommand, DynamoDBClient, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { CloudWatchClient, GetMetricStatisticsCommand } from '@aws-sdk/client-cloudwatch';
import { boardTable } from '../../lab/board-table';
import { startLab, type Lab, type LabOptions } from '../../lab/lab';

export interface TestLab {
  lab: Lab;
  ddb: DynamoDBClient;
  /** Same endpoint with SDK retries off, so every throttle is visible. */
  ddbNoRetry: DynamoDBClient;
  cw: CloudWatchClient;
  close(): Promise<void>;
}

export const CREDENTIALS = { accessKeyId: 'lab', secretAccessKey: 'lab' };

export async function startTestLab(options: LabOptions = {}): Promise<TestLab> {
  const lab = await startLab({ port: 0, periodSeconds: 1, tableStateMs: 0, insightsTransitionMs: 50, ...options });
  const base = { endpoint: lab.url, region: 'us-east-1', credentials: CREDENTIALS };
  const ddb = new DynamoDBClient(base);
  const ddbNoRetry = new DynamoDBClient({ ...base, maxAttempts: 1 });
  const cw = new CloudWatchClient(base);
  return {
    lab,
    ddb,
    ddbNoRetry,
    cw,
    async close() {
      ddb.destroy();
      ddbNoRetry.destroy();
      cw.destroy();
      await lab.close();
    },
  };
}

export { boardTable };

export async function createTable(client: DynamoDBClient, input: CreateTableCommandInput): Promise<void> {
  await client.send(new CreateTableCommand(input));
}

/**
 * An on-demand table keyed by the string `pk` (and the string `sk` with `sortKey`), with
 * one all-projected index per entry of `indexes` (index name → its string hash key).
 */
export function stringKeyTable(
  name: string,
  options: { sortKey?: boolean; indexes?: Record<string, string> } = {},
): CreateTableCommandInput {
  const indexes = Object.entries(options.indexes ?? {});
  const attributes = ['pk', ...(options.sortKey ? ['sk'] : []), ...indexes.map(([, key]) => key)];
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...new Set(attributes)].map((a) => ({ AttributeName: a, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      ...(options.sortKey ? [{ AttributeName: 'sk', KeyType: 'RANGE' as const }] : []),
    ],
    ...(indexes.length > 0
      ? {
          GlobalSecondaryIndexes: indexes.map(([IndexName, key]) => ({
            IndexName,
            KeySchema: [{ AttributeName: key, KeyType: 'HASH' as const }],
            Projection: { ProjectionType: 'ALL' as const },
          })),
        }
      : {}),
  };
}

/**
 * This process's environment with no AWS configuration in it: no AWS_ variable, a home
 * (`home`) with no config or credentials file, no instance metadata. The SDK's default
 * chain finds nothing, so an endpoint setting is the only connection.
 */
export function envWithoutAws(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('AWS_')) env[k] = v;
  return {
    ...env,
    HOME: home,
    AWS_CONFIG_FILE: path.join(home, 'no-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'no-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The Sum (or the SampleCount) of a metric over [startMs, endMs + 1 period), read through GetMetricStatistics. */
export async function metricSum(
  cw: CloudWatchClient,
  name: string,
  dims: Record<string, string>,
  startMs: number,
  endMs: number,
  statistic: 'Sum' | 'SampleCount' = 'Sum',
): Promise<number> {
  const res = await cw.send(
    new GetMetricStatisticsCommand({
      Namespace: 'AWS/DynamoDB',
      MetricName: name,
      Dimensions: Object.entries(dims).map(([Name, Value]) => ({ Name, Value })),
      StartTime: new Date(startMs - 1000),
      EndTime: new Date(endMs + 2000),
      Period: 1,
      Statistics: [statistic],
    }),
  );
  return (res.Datapoints ?? []).reduce((s, d) => s + (d[statistic] ?? 0), 0);
}

/** How many read requests the lab served on a table (one capacity sample each) and how many it throttled. */
export async function readsServed(
  cw: CloudWatchClient,
  tableName: string,
  from: number,
  to: number,
): Promise<{ reads: number; throttled: number }> {
  const dims = { TableName: tableName };
  return {
    reads: await metricSum(cw, 'ConsumedReadCapacityUnits', dims, from, to, 'SampleCount'),
    throttled: await metricSum(cw, 'ReadThrottleEvents', dims, from, to),
  };
}

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw POST, for inputs no SDK would send. */
export function rawPost(
  url: string,
  headers: Record<string, string | number>,
  body: string | Buffer,
): Promise<RawReply> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, method: 'POST', path: u.pathname + u.search, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export const DDB_HEADERS = (op: string) => ({
  'content-type': 'application/x-amz-json-1.0',
  'x-amz-target': `DynamoDB_20120810.${op}`,
});

export const THROTTLE_NAMES = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException']);

/**
 * A leaderboard table as Lambda workshops declare it: items by `playerId`, and a global
 * index `scoreIndex` keyed by the game (one constant per game) and sorted by score. The
 * lab, heat and fix tests of index writes and index readers all create this one table.
 */
export const SCORES_TABLE: CreateTableCommandInput = {
  TableName: 'scores',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [
    { AttributeName: 'playerId', AttributeType: 'S' },
    { AttributeName: 'gameTitle', AttributeType: 'S' },
    { AttributeName: 'score', AttributeType: 'N' },
  ],
  KeySchema: [{ AttributeName: 'playerId', KeyType: 'HASH' }],
  GlobalSecondaryIndexes: [
    {
      IndexName: 'scoreIndex',
      KeySchema: [
        { AttributeName: 'gameTitle', KeyType: 'HASH' },
        { AttributeName: 'score', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    },
  ],
};
