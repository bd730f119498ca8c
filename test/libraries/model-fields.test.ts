/**
 * Library models kept in a class's fields, the repository shape many applications use:
 * the constructor makes the OneTable table and keeps `table.getModel('Ticket')` in
 * `this.tickets`, or a field is initialised with an imported entity or model
 * (`private readonly shifts = ShiftEntity`), and each method calls the library through
 * `this.<field>`. Before, `this.<field>` was a name with no value, so none of those calls
 * was read: no key, no finding.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { indexedWorkspace } from '../unit/helpers';

const SCHEMA = `export default {
  format: 'onetable:1.1.0',
  version: '0.0.1',
  indexes: {
    primary: { hash: 'pk', sort: 'sk' },
    gs1: { hash: 'gs1pk', sort: 'gs1sk' },
  },
  models: {
    Ticket: {
      pk: { type: String, value: 'ticket#\${ticketId}' },
      sk: { type: String, value: 'ticket#' },
      ticketId: { type: String, generate: 'ulid' },
      queue: { type: String, required: true },
      state: { type: String, required: true },
      gs1pk: { type: String, value: 'state#\${state}' },
      gs1sk: { type: String, value: 'ticket#\${ticketId}' },
    },
    Queue: {
      pk: { type: String, value: 'queues' },
      sk: { type: String, value: 'queue#\${name}' },
      name: { type: String, required: true },
    },
  },
} as const;
`;

test('OneTable, ElectroDB and dynamoose models kept in class fields are read at each method', async () => {
  const { index, dir } = await indexedWorkspace({
    'package.json': '{ "name": "helpdesk" }\n',
    'src/schema.ts': SCHEMA,
    'src/tickets.repository.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { Entity, Table } from "dynamodb-onetable";
import schema from "./schema";

type TicketItem = Entity<typeof schema.models.Ticket>;

export class TicketsRepository {
  private readonly tickets;
  private readonly queues;

  constructor() {
    const table = new Table({ client: new DynamoDBClient({}), name: process.env.HELPDESK_TABLE, schema });
    this.tickets = table.getModel<TicketItem>("Ticket");
    this.queues = table.getModel("Queue");
  }

  async open(ticketId: string, queue: string) {
    return this.tickets.create({ ticketId, queue, state: "open" });
  }

  async escalated() {
    return this.tickets.find({ state: "escalated" }, { index: "gs1" });
  }

  async ticket(ticketId: string) {
    return this.tickets.get({ ticketId });
  }

  async allQueues() {
    return this.queues.find({});
  }
}
`,
    'src/shift.entity.ts': `import { Entity } from "electrodb";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";

export const ShiftEntity = new Entity(
  {
    model: { entity: "shift", version: "1", service: "helpdesk" },
    attributes: {
      shiftId: { type: "string", required: true },
      team: { type: "string", required: true },
    },
    indexes: {
      byId: { pk: { field: "pk", composite: ["shiftId"] }, sk: { field: "sk", composite: [] } },
      byTeam: { index: "gsi1", pk: { field: "gsi1pk", composite: ["team"] }, sk: { field: "gsi1sk", composite: ["shiftId"] } },
    },
  },
  { table: "helpdesk", client: new DynamoDBClient({}) },
);
`,
    'src/shifts.service.ts': `import { ShiftEntity } from "./shift.entity";

export class ShiftsService {
  private readonly shifts = ShiftEntity;

  async nightTeam() {
    return this.shifts.query.byTeam({ team: "night" }).go();
  }

  async shift(shiftId: string) {
    return this.shifts.get({ shiftId }).go();
  }
}
`,
    'src/agent.store.js': `const dynamoose = require("dynamoose");

const AgentSchema = new dynamoose.Schema({
  agentId: { type: String, hashKey: true },
  desk: { type: String, index: { name: "deskIndex", type: "global" } },
});

class AgentStore {
  constructor() {
    this.agents = dynamoose.model("Agent", AgentSchema);
  }

  onDesk() {
    return this.agents.query("desk").eq("front").exec();
  }

  agent(agentId) {
    return this.agents.get({ agentId });
  }
}

module.exports = { AgentStore };
`,
  });
  const sites = index
    .results()
    .flatMap((r) =>
      r.accesses
        .filter((a) => a.library && !a.library.schema)
        .map(
          (a) => `${path.relative(dir, r.file)} ${a.operation} ${a.library!.entity}${a.index ? ` @${a.index}` : ''}`,
        ),
    )
    .sort();
  for (const want of [
    'src/tickets.repository.ts PutItem Ticket',
    'src/tickets.repository.ts Query Ticket @gs1',
    'src/tickets.repository.ts GetItem Ticket',
    'src/tickets.repository.ts Query Queue',
    'src/shifts.service.ts Query shift @gsi1',
    'src/shifts.service.ts GetItem shift',
    'src/agent.store.js Query Agent @deskIndex',
    'src/agent.store.js GetItem Agent',
  ])
    assert.ok(sites.includes(want), `${want} not in\n${sites.join('\n')}`);
  // The constant keys the methods give: the escalated state, the night team, the front desk.
  const found = index
    .results()
    .flatMap((r) =>
      r.findings.map((f) => `${path.relative(dir, f.file)} ${f.rule} ${f.message.match(/"([^"]+)"/)?.[1]}`),
    );
  for (const want of [
    'src/tickets.repository.ts SL001 state#escalated',
    'src/shifts.service.ts SL001 $helpdesk#team_night',
    'src/agent.store.js SL001 front',
  ])
    assert.ok(found.includes(want), `${want} not in\n${found.join('\n')}`);
});
