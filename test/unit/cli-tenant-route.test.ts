import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ensureBuilt, runCli, withService } from '../../fuzz/cli-runner';

/**
 * A service that routes tenants to shards by a hash and writes orders to DynamoDB: the
 * route is reported (SL021), but it is no call of any store, so the summary, the coverage
 * and `keys` count and list the DynamoDB call alone.
 */
ensureBuilt();

const ORDERS = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const NUM_SHARDS = 8;

export function shardFor(tenantId: string): number {
  return parseInt(createHash('md5').update(tenantId).digest('hex').slice(0, 8), 16) % NUM_SHARDS;
}

export async function placeOrder(tenantId: string, order: { id: string; total: number }) {
  const item = { pk: \`ORDER#\${order.id}\`, shard: shardFor(tenantId), total: order.total };
  await ddb.send(new PutCommand({ TableName: 'orders', Item: item }));
}
`;

test('check reports the route but counts only the DynamoDB call, in the summary and --stats', () => {
  withService({ 'src/orders.ts': ORDERS }, (dir) => {
    const r = runCli(['check', dir, '--stats', '--fail-on', 'never']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /orders\.ts:9:\d+ info SL021 `shardFor` routes each tenant by a hash of `tenantId`/);
    assert.match(r.stdout, /\n1 finding \(0 errors, 0 warnings, 1 info\) in 1 DynamoDB call across 1 file\./);
    assert.match(r.stdout, /Coverage: all 1 DynamoDB call understood\./);
  });
});

test('keys lists the DynamoDB table only', () => {
  withService({ 'src/orders.ts': ORDERS }, (dir) => {
    const r = runCli(['keys', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.split('\n').includes('table orders'), r.stdout);
    assert.ok(!r.stdout.includes('tenant-route:'), r.stdout);
    assert.match(r.stdout, /\n1 logical key on 1 table, 1 call site\.\n$/);
  });
});
