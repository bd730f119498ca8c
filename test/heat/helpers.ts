// Set-up shared by the heat tests: a lab on a free loopback port (1-second
// periods, so a short run has per-second peaks), the workspace index of the
// fixture code, and traffic drivers that count what the lab accepted and
// throttled as the client saw it.

import * as path from 'node:path';
import {
  BatchWriteItemCommand,
  GetItemCommand,
  QueryCommand,
  UpdateContributorInsightsCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { boardTable, createTable, sleep, type TestLab } from '../lab/helpers';

export const FIXTURE = path.join(__dirname, 'fixture');

export async function fixtureIndex(): Promise<WorkspaceIndex> {
  await initParsers();
  const index = new WorkspaceIndex({ root: FIXTURE, maxBytes: 2 * 1024 * 1024 });
  for (const f of collectFiles([FIXTURE]).files) index.analyzeFile(f, false);
  return index;
}

export interface Sent {
  accepted: number;
  throttled: number;
}

const THROTTLES = new Set(['ThrottlingException', 'ProvisionedThroughputExceededException']);

/**
 * Writes `count` small items (1 WCU each) under partition key `pk` in batches of 25,
 * `parallel` batches at a time, with SDK retries off: every throttled item is counted.
 */
export async function writeItems(
  ddb: DynamoDBClient,
  table: string,
  pk: string,
  count: number,
  parallel = 4,
  tag = '',
): Promise<Sent> {
  const sent: Sent = { accepted: 0, throttled: 0 };
  let next = 0;
  const batch = async () => {
    while (next < count) {
      const n = Math.min(25, count - next);
      const start = next;
      next += n;
      const items = Array.from({ length: n }, (_, i) => ({
        PutRequest: { Item: { PK: { S: pk }, SK: { S: `p${tag}${start + i}` } } },
      }));
      try {
        const r = await ddb.send(new BatchWriteItemCommand({ RequestItems: { [table]: items } }));
        const left = r.UnprocessedItems?.[table]?.length ?? 0;
        sent.accepted += n - left;
        sent.throttled += left;
      } catch (e) {
        if (!THROTTLES.has((e as Error).name)) throw e;
        sent.throttled += n;
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, batch));
  return sent;
}

/** How many refusals `hammer` waits for: the tests ask for more than 100 throttle events. */
const ENOUGH_THROTTLES = 101;
/** How long `hammer` may go on for them: a machine that cannot offer that much in a minute fails the test. */
const HAMMER_DEADLINE_MS = 60_000;

/**
 * Offers far more than a partition takes for `ms`, and then on until the lab has refused
 * at least `ENOUGH_THROTTLES` requests: on a busy machine the writers send more slowly,
 * and a fixed time could end before the key throttled. Throttles are counted, not timed.
 */
export async function hammer(ddb: DynamoDBClient, table: string, pk: string, ms: number): Promise<Sent> {
  const total: Sent = { accepted: 0, throttled: 0 };
  const start = Date.now();
  const more = () =>
    Date.now() < start + ms || (total.throttled < ENOUGH_THROTTLES && Date.now() < start + HAMMER_DEADLINE_MS);
  for (let round = 0; more(); round++) {
    const s = await writeItems(ddb, table, pk, 400, 8, `r${round}-`);
    total.accepted += s.accepted;
    total.throttled += s.throttled;
  }
  return total;
}

/**
 * Queries `pk` (strongly consistent, `parallel` at a time, SDK retries off) for `ms` and
 * then on until the lab has refused `ENOUGH_THROTTLES` of them: `hammer` for readers.
 */
export async function hammerReads(
  ddb: DynamoDBClient,
  table: string,
  pk: string,
  ms: number,
  parallel = 8,
): Promise<Sent> {
  const total: Sent = { accepted: 0, throttled: 0 };
  const start = Date.now();
  const more = () =>
    Date.now() < start + ms || (total.throttled < ENOUGH_THROTTLES && Date.now() < start + HAMMER_DEADLINE_MS);
  const reader = async () => {
    while (more()) {
      try {
        await ddb.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'PK = :pk',
            ExpressionAttributeValues: { ':pk': { S: pk } },
            ConsistentRead: true,
          }),
        );
        total.accepted++;
      } catch (e) {
        if (!THROTTLES.has((e as Error).name)) throw e;
        total.throttled++;
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, reader));
  return total;
}

/** A repository class whose writer and reader share one key (test/heat/blame). */
export const BLAME = path.join(__dirname, 'blame');
/** A low ceiling, so the writer throttles however busy the machine is. */
export const WRITE_LIMIT = 100;

export async function blameIndex(): Promise<WorkspaceIndex> {
  await initParsers();
  const index = new WorkspaceIndex({ root: BLAME, maxBytes: 2 * 1024 * 1024 });
  for (const f of collectFiles([BLAME]).files) index.analyzeFile(f, false);
  return index;
}

/** The writer past its ceiling, then ten consistent reads of one player (1 RCU each). */
export async function driveBlame(t: TestLab): Promise<Sent> {
  await createTable(t.ddb, boardTable('boards'));
  await t.ddb.send(new UpdateContributorInsightsCommand({ TableName: 'boards', ContributorInsightsAction: 'ENABLE' }));
  await sleep(150);
  const hot = await hammer(t.ddbNoRetry, 'boards', 'BOARD#global', 1200);
  for (let i = 0; i < 10; i++)
    await t.ddbNoRetry.send(
      new GetItemCommand({
        TableName: 'boards',
        Key: { PK: { S: 'PLAYER#7' }, SK: { S: 'profile' } },
        ConsistentRead: true,
      }),
    );
  await sleep(1100); // the last period closes
  return hot;
}
