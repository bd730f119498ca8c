import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ensureBuilt, runCli, withService } from '../../fuzz/cli-runner';

/**
 * A service that writes orders to DynamoDB and announces them on a Kafka topic: the CLI's
 * text counts and names the two kinds of call apart (a Kafka send is not a DynamoDB call).
 */
ensureBuilt();

const ORDERS = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Kafka } from 'kafkajs';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const producer = new Kafka({ clientId: 'orders', brokers: ['broker:9092'] }).producer();

export async function placeOrder(order: { id: string; status: string; total: number }) {
  await ddb.send(new PutCommand({ TableName: 'orders', Item: { pk: \`ORDER#\${order.id}\`, total: order.total } }));
  await producer.send({
    topic: 'order-events',
    messages: [{ key: order.status, value: JSON.stringify(order) }],
  });
}
`;

test('check counts DynamoDB calls and Kafka producer calls apart, in the summary and --stats', () => {
  withService({ 'src/orders.ts': ORDERS }, (dir) => {
    const r = runCli(['check', dir, '--stats', '--fail-on', 'never']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /SL020/);
    assert.match(r.stdout, /\n1 finding \(0 errors, 1 warning, 0 info\) in 1 DynamoDB call and 1 Kafka producer call/);
    assert.match(r.stdout, /Coverage: all 2 DynamoDB or Kafka producer calls understood\./);
  });
});

test('keys lists a Kafka topic as a topic and its records as sends', () => {
  withService({ 'src/orders.ts': ORDERS }, (dir) => {
    const r = runCli(['keys', dir]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.ok(lines.includes('topic order-events'), r.stdout);
    assert.ok(lines.includes('table orders'), r.stdout);
    assert.ok(!r.stdout.includes('table kafka:'), r.stdout);
    assert.ok(
      lines.some((l) => /^ {4}write +send +\{low-cardinality\} +.*orders\.ts:12:\d+ +SL020$/.test(l)),
      r.stdout,
    );
    assert.match(r.stdout, /\n2 logical keys on 1 table and 1 Kafka topic, 2 call sites\.\n$/);
  });
});
