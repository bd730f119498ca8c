/**
 * One OneTable schema given to several tables, as repositories that each make their own
 * `new Table({ client, name, schema })` do: a model whose partition key the schema alone
 * fixes (`pk: { value: 'region' }`) is one key made by one field, reported once, at the
 * first table, with the other tables as related locations. Before, each table was a
 * finding of its own (three repositories, three findings of one key).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { indexedWorkspace } from '../unit/helpers';

const repository = (name: string, model: string) => `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { Table } from "dynamodb-onetable";
import schema from "./schema";

export class ${name} {
  private readonly model;

  constructor() {
    const table = new Table({ client: new DynamoDBClient({}), name: process.env.DEPOT_TABLE, schema });
    this.model = table.getModel("${model}");
  }

  async byId(id: string) {
    return this.model.get({ id });
  }
}
`;

test('a constant key of a schema given to several tables is reported once', async () => {
  const { index, dir } = await indexedWorkspace({
    'package.json': '{ "name": "depot" }\n',
    'src/schema.ts': `export default {
  indexes: { primary: { hash: 'pk', sort: 'sk' } },
  models: {
    Region: {
      pk: { type: String, value: 'region' },
      sk: { type: String, value: 'region#\${id}' },
      id: { type: String, required: true },
    },
    Parcel: {
      pk: { type: String, value: 'parcel#\${id}' },
      sk: { type: String, value: 'parcel#' },
      id: { type: String, generate: 'ulid' },
    },
  },
};
`,
    'src/regions.ts': repository('Regions', 'Region'),
    'src/parcels.ts': repository('Parcels', 'Parcel'),
    'src/depots.ts': repository('Depots', 'Region'),
  });
  const atSchema = index
    .results()
    .flatMap((r) => r.findings.filter((f) => f.rule === 'SL001' && f.access.library?.schema))
    .map((f) => ({
      at: `${path.relative(dir, f.file)}:${f.span.startLine + 1}`,
      related: f.related.map((r) => `${path.relative(dir, r.file)}:${r.span.startLine + 1}`),
    }));
  assert.deepEqual(atSchema, [
    { at: 'src/depots.ts:9', related: ['src/schema.ts:5', 'src/parcels.ts:9', 'src/regions.ts:9'] },
  ]);
});
