/**
 * A library request built in steps, the builder kept in a variable between them: a
 * dynamodb-toolbox query whose options are added later (`const q = Table.build(QueryCommand)
 * .entities(E).query({...}); await q.options(opts).send()`), a dynamoose query extended
 * before `exec()`. The chain goes on through a `const` the function declares once.
 * Before, the chain's root was the variable, which is no model: the request was not read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { indexedWorkspace } from '../unit/helpers';

test('toolbox and dynamoose requests continued through a variable holding the builder are read', async () => {
  const { index, dir } = await indexedWorkspace({
    'package.json': '{ "name": "kiosk" }\n',
    'src/tickets.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Entity, item, string, Table, QueryCommand } from "dynamodb-toolbox";

const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const KioskTable = new Table({
  name: "kiosk",
  partitionKey: { name: "PK", type: "string" },
  sortKey: { name: "SK", type: "string" },
  indexes: { byLane: { type: "global", partitionKey: { name: "lane", type: "string" } } },
  documentClient,
});

export const TicketEntity = new Entity({
  name: "Ticket",
  table: KioskTable,
  schema: item({
    ticketId: string().key().savedAs("PK"),
    issuedAt: string().key().savedAs("SK"),
    lane: string(),
  }),
});

export async function expressLane(limit?: number) {
  const builder = KioskTable.build(QueryCommand)
    .entities(TicketEntity)
    .query({ index: "byLane", partition: "express" });
  const { Items } = await builder.options({ limit }).send();
  return Items ?? [];
}
`,
    'src/counters.js': `const dynamoose = require("dynamoose");

const Counter = dynamoose.model(
  "Counter",
  new dynamoose.Schema({
    counterId: { type: String, hashKey: true },
    zone: { type: String, index: { name: "zoneIndex", type: "global" } },
  }),
);

async function northCounters() {
  const query = Counter.query("zone").eq("north");
  return query.limit(20).exec();
}

module.exports = { northCounters };
`,
  });
  const reads = index
    .results()
    .flatMap((r) =>
      r.accesses.map(
        (a) =>
          `${path.relative(dir, r.file)} ${a.operation} ${a.index} ${a.partitionKey && a.partitionKey.span.startLine + 1}`,
      ),
    );
  assert.deepEqual(reads.sort(), ['src/counters.js Query zoneIndex 12', 'src/tickets.ts Query byLane 28']);
  const found = index
    .results()
    .flatMap((r) => r.findings.map((f) => `${path.relative(dir, f.file)} ${f.rule} ${f.span.startLine + 1}`));
  assert.ok(found.includes('src/tickets.ts SL001 28'), found.join('\n'));
  assert.ok(found.includes('src/counters.js SL001 12'), found.join('\n'));
});
