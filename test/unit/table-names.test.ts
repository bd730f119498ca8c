import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mayBeSameTable, tableKey } from '../../server/src/engine/keys/table';
import { analyze } from './helpers';

test('a table named by literal text around environment variables is one table, shown with the variables', async () => {
  const py = await analyze(
    'inv.py',
    [
      'import os',
      'import boto3',
      'STAGE = os.environ["STAGE"]',
      'table = boto3.resource("dynamodb").Table(f"inventory-{STAGE}")',
      'def stock():',
      '    return table.get_item(Key={"pk": "STOCK#ALL"})',
      '',
    ].join('\n'),
  );
  assert.deepEqual(py.accesses[0].table.kind, 'template');
  assert.match(py.findings[0].message, /on table inventory-\{\$STAGE\} is a constant/);
  const ts = await analyze(
    'orders.ts',
    [
      'import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";',
      'const doc = DynamoDBDocumentClient.from(client);',
      'const TABLE = `orders-${process.env.STAGE}-${process.env.REGION}`;',
      'export const a = (id: string) => doc.send(new GetCommand({ TableName: TABLE, Key: { pk: id } }));',
      'export const b = (t: string, id: string) => doc.send(new GetCommand({ TableName: `orders-${t}`, Key: { pk: id } }));',
      '',
    ].join('\n'),
  );
  assert.equal(tableKey(ts.accesses[0].table), 'template:orders-{$STAGE}-{$REGION}');
  // A part that is not an environment variable (a tenant) makes a table per value: not one table.
  assert.equal(ts.accesses[1].table.kind, 'unknown');
});

test('two tables by physical name may be one unless both are known and differ', () => {
  // One rule for the fixes' unread requests and the requests definitions make without code.
  assert.equal(mayBeSameTable('orders', 'orders'), true);
  assert.equal(mayBeSameTable('orders', 'tickets'), false);
  assert.equal(mayBeSameTable(null, 'tickets'), true);
  assert.equal(mayBeSameTable('$ORDERS_TABLE', 'tickets'), true);
  assert.equal(mayBeSameTable('tickets', '{$Stage}-tickets'), true);
  assert.equal(mayBeSameTable('app-{stage}', 'orders'), true);
});
