/**
 * The index partitions an ElectroDB create writes are named by the entity's access
 * patterns (`index: "gsi2"`), the name ElectroDB sends with each query, whatever file the
 * create and the query are in. Before, a create in a file with no query of the index had
 * its index named from the field (`gsi2pk` → `GSI2`), so the writes and the reads of one
 * key were two logical keys: the reader was judged "written at none". The table is one
 * the code cannot name (SST's `Table.rota.tableName`), so no query of it tells its indexes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { indexedWorkspace } from '../unit/helpers';

test('a create and a query of one ElectroDB index in different files meet on the index ElectroDB names', async () => {
  const { index, dir } = await indexedWorkspace({
    'package.json': '{ "name": "rota" }\n',
    'src/shift.ts': `import { Entity } from "electrodb";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { Table } from "sst/node/table";

export const Shift = new Entity(
  {
    model: { entity: "shift", version: "1", service: "rota" },
    attributes: {
      shiftId: { type: "string", required: true },
      site: { type: "string", required: true },
      startsAt: { type: "string", required: true },
    },
    indexes: {
      byId: { pk: { field: "pk", composite: ["shiftId"] }, sk: { field: "sk", composite: [] } },
      bySite: {
        index: "gsi2",
        pk: { field: "gsi2pk", composite: ["site"] },
        sk: { field: "gsi2sk", composite: ["startsAt"] },
      },
    },
  },
  { table: Table.rota.tableName, client: new DynamoDBClient({}) },
);
`,
    'src/handlers/open-shift.ts': `import { Shift } from "../shift";

export async function handler(event: { body: string }) {
  const { shiftId, startsAt } = JSON.parse(event.body);
  await Shift.create({ shiftId, site: "warehouse", startsAt }).go();
}
`,
    'src/handlers/site-shifts.ts': `import { Shift } from "../shift";

export async function handler() {
  return Shift.query.bySite({ site: "warehouse" }).go();
}
`,
  });
  const byFile = (name: string) =>
    index
      .results()
      .find((r) => path.relative(dir, r.file) === name)!
      .accesses.filter((a) => a.index)
      .map((a) => `${a.kind} ${a.index} ${a.partitionKey?.attribute}`);
  assert.deepEqual(byFile('src/handlers/open-shift.ts'), ['write gsi2 gsi2pk']);
  assert.deepEqual(byFile('src/handlers/site-shifts.ts'), ['read gsi2 gsi2pk']);
  // One logical key, written and read: the constant site is reported as written, not only read-hot.
  const messages = index
    .results()
    .flatMap((r) => r.findings)
    .filter((f) => f.rule === 'SL001')
    .map((f) => f.message);
  assert.ok(messages.length > 0 && messages.every((m) => !/written at none/.test(m)), messages.join('\n'));
});
