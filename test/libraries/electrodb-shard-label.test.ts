/**
 * ElectroDB writes a shard attribute as a labelled composite (`$desk#shard_3`), so a key
 * sharded that way is the unsharded key plus `#shard_<n>`. The logical key leaves the
 * label out with the shard, so the sharded writes and a read of the bare key (`$desk`,
 * left from before the key was sharded) meet: the read misses every item and is reported
 * (SL006). Before, the label stayed in the logical key (`$desk#shard`), the two were
 * different keys, and the bare read was judged alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { indexedWorkspace } from '../unit/helpers';

test('an ElectroDB key sharded by a labelled shard attribute is one logical key with its bare form', async () => {
  const { index, dir } = await indexedWorkspace({
    'package.json': '{ "name": "desk" }\n',
    'src/ticket.ts': `import { Entity } from "electrodb";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";

export const TicketEntity = new Entity(
  {
    model: { entity: "ticket", version: "1", service: "desk" },
    attributes: {
      ticketId: { type: "string", required: true },
      shard: { type: "string", required: true, default: () => String(Math.floor(Math.random() * 8)) },
    },
    indexes: {
      byId: { pk: { field: "pk", composite: ["ticketId"] }, sk: { field: "sk", composite: [] } },
      all: { index: "gsi2", pk: { field: "gsi2pk", composite: ["shard"] }, sk: { field: "gsi2sk", composite: ["ticketId"] } },
    },
  },
  { table: "desk", client: new DynamoDBClient({}) },
);

export async function open(ticketId: string) {
  return TicketEntity.create({ ticketId }).go();
}
`,
    'src/report.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function allTickets() {
  const out = await doc.send(
    new QueryCommand({
      TableName: "desk",
      IndexName: "gsi2",
      KeyConditionExpression: "gsi2pk = :pk",
      ExpressionAttributeValues: { ":pk": "$desk" },
    }),
  );
  return out.Items ?? [];
}
`,
  });
  const found = index
    .results()
    .flatMap((r) => r.findings.map((f) => `${path.relative(dir, f.file)}:${f.span.startLine + 1} ${f.rule}`));
  assert.ok(found.includes('src/report.ts:12 SL006'), found.join('\n'));
});
