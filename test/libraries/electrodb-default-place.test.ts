/**
 * A create that leaves an ElectroDB attribute to its `default` writes the default's value
 * into the keys it makes (`status: { default: "active" }` in `$desk#status_active`). When
 * the entity is declared in another module, the finding stands at the create, in the
 * create's file. Before, it carried the default's position in the entity's module, so the
 * handler's file was given a line and column of another file (a place that may not exist
 * there).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { indexedWorkspace } from '../unit/helpers';

test("a key filled by an imported entity's default is reported at the create that leaves it out", async () => {
  const { index, dir } = await indexedWorkspace({
    'package.json': '{ "name": "desk" }\n',
    'src/entities/agent.ts': `import { Entity } from "electrodb";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";

export const AgentEntity = new Entity(
  {
    model: { entity: "agent", version: "1", service: "desk" },
    attributes: {
      agentId: { type: "string", required: true },
      name: { type: "string", required: true },
      status: { type: ["active", "away", "offline"] as const, required: true, default: "active" },
    },
    indexes: {
      byId: { pk: { field: "pk", composite: ["agentId"] }, sk: { field: "sk", composite: [] } },
      byStatus: { index: "gsi1", pk: { field: "gsi1pk", composite: ["status"] }, sk: { field: "gsi1sk", composite: ["agentId"] } },
    },
  },
  { table: "desk", client: new DynamoDBClient({}) },
);
`,
    'src/agents.ts': `import { AgentEntity } from "./entities/agent";

export async function hire(agentId: string, name: string) {
  return AgentEntity.create({ agentId, name }).go();
}
`,
  });
  const agents = index.results().find((r) => path.relative(dir, r.file) === 'src/agents.ts')!;
  const found = agents.findings
    .filter((f) => f.rule === 'SL001')
    .map((f) => `${f.span.startLine + 1}:${f.span.startColumn + 1} ${f.message.match(/"([^"]+)"/)?.[1]}`);
  assert.deepEqual(found, ['4:10 $desk#status_active']);
});
