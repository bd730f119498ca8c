/**
 * Domain modules that name themselves: `export * as Pipe from "."` at the end of a module
 * (so callers write `Pipe.create(...)`), a folder index re-exporting its own members the
 * same way, and two barrels passing each other on (`export * from`), which ES modules
 * allow. Before, `export * as X from` was read as a whole-module re-export, and looking a
 * name up through one of these recursed until the stack ran out: the file's analysis
 * failed and its ElectroDB calls were not read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { indexedWorkspace } from '../unit/helpers';

const ENTITY = `import { Entity } from "electrodb";
import { Dynamo } from "../dynamo";

export const LinkEntity = new Entity(
  {
    model: { entity: "Link", version: "1", service: "ledger" },
    attributes: {
      kind: { type: "string", required: true },
      linkID: { type: "string", required: true },
      owner: { type: "string", required: true },
    },
    indexes: {
      primary: { pk: { field: "pk", composite: ["linkID"] }, sk: { field: "sk", composite: [] } },
      byKind: { index: "gsi1", pk: { field: "gsi1pk", composite: ["kind"] }, sk: { field: "gsi1sk", composite: ["linkID"] } },
    },
  },
  Dynamo.Configuration,
);
`;

test('modules re-exporting themselves as a namespace are analysed, and their ElectroDB calls read', async () => {
  const { index, dir } = await indexedWorkspace({
    'package.json': '{ "name": "ledger" }\n',
    'core/dynamo/index.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
export const Client = new DynamoDBClient({});
export const Configuration = { table: process.env.TABLE_NAME, client: Client };
export * as Dynamo from ".";
`,
    'core/link/index.ts': `export * as Link from "./index";
export * as Bank from "./bank";
export * from "../shared";
`,
    'core/shared/index.ts': `export * from "../link";
export const PAGE = 50;
`,
    'core/link/bank.ts': `${ENTITY}
import { Link, PAGE } from ".";

export async function listBanks() {
  return LinkEntity.query.byKind({ kind: "bank" }).go({ limit: PAGE });
}

export async function connect(linkID: string, owner: string) {
  return LinkEntity.create({ kind: Link.KIND ?? "bank", linkID, owner }).go();
}

export * as Bank from ".";
`,
  });
  const results = index.results();
  const skipped = results.filter((r) => r.skipped).map((r) => `${path.relative(dir, r.file)}: ${r.skipped}`);
  assert.deepEqual(skipped, []);
  const bank = results.find((r) => r.file.endsWith('bank.ts'))!;
  const reads = bank.accesses.map((a) => `${a.operation} ${a.index ?? '-'} ${a.partitionKey?.template.id ?? ''}`);
  assert.ok(
    reads.some((r) => r.startsWith('Query gsi1')),
    reads.join('\n'),
  );
  // The constant `kind` queried: the one partition every bank link is read from.
  const queryLine = bank.accesses.find((a) => a.operation === 'Query')!.partitionKey!.span.startLine;
  const findings = bank.findings.map((f) => `${f.rule} ${f.span.startLine - queryLine}`);
  assert.ok(findings.includes('SL001 0'), findings.join('\n'));
});

test("a value read through the module's own namespace (`Dynamo.Configuration`) is the module's: the entity's table", async () => {
  const { index } = await indexedWorkspace({
    'package.json': '{ "name": "ledger" }\n',
    'core/dynamo.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
export * as Dynamo from "./dynamo";
export const Client = new DynamoDBClient({});
export const Configuration = { table: "ledger-links", client: Client };
`,
    'core/link/bank.ts': `${ENTITY}
export async function listBanks() {
  return LinkEntity.query.byKind({ kind: "bank" }).go();
}
`,
  });
  const bank = index.results().find((r) => r.file.endsWith('bank.ts'))!;
  const tables = [...new Set(bank.accesses.map((a) => (a.table.kind === 'literal' ? a.table.name : a.table.kind)))];
  assert.deepEqual(tables, ['ledger-links']);
});
