/**
 * An ElectroDB service named at deploy time: SST apps write `service: Config.APP` (a
 * parameter of `sst/node/config`), others `service: process.env.SERVICE_NAME`. The name is
 * not known here, but it is one value for every item of the entity, so an index whose
 * partition key has no composite attribute is still one partition. The key is shown by what
 * the code writes (`${Config.APP}`), never as if "config.app" were the stored text, and the
 * keys the real library stores under any service name are matched to it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import { render } from '../../server/src/engine/model/template';
import { indexedWorkspace } from '../unit/helpers';
import { CLI } from './helpers';

const { Entity } = createRequire(__filename)('electrodb') as {
  Entity: new (schema: object, config: object) => { put(item: object): { params(): { Item: Record<string, string> } } };
};

const ATTRIBUTES = {
  petId: { type: 'string', required: true },
  name: { type: 'string', required: true },
  species: { type: 'string' },
};
const INDEXES = {
  primary: { pk: { field: 'pk', composite: ['petId'] }, sk: { field: 'sk', composite: [] } },
  byName: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['name'] } },
};

/** An SST-style core package: the entity module, and the API handlers that use it. */
function project(service: string, imports: string): Record<string, string> {
  return {
    'packages/core/src/pet.ts': `import { Entity } from 'electrodb';
${imports}import { Client } from './dynamo';

export const PetEntity = new Entity(
  {
    model: { entity: 'pet', version: '1', service: ${service} },
    attributes: ${JSON.stringify(ATTRIBUTES)},
    indexes: ${JSON.stringify(INDEXES)},
  },
  { client: Client, table: process.env.TABLE_NAME },
);

export const create = (petId: string, name: string) => PetEntity.create({ petId, name }).go();
export const listByName = () => PetEntity.query.byName({}).go({ pages: 'all' });
`,
    'packages/core/src/dynamo.ts': `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
export const Client = new DynamoDBClient({});
`,
    'packages/functions/src/pets.ts': `import { create, listByName } from '@app/core/pet';
export const post = async (event: { body: string }) => {
  const { petId, name } = JSON.parse(event.body);
  return create(petId, name);
};
export const list = async () => listByName();
`,
    'tsconfig.json': JSON.stringify({
      compilerOptions: { baseUrl: '.', paths: { '@app/core/*': ['packages/core/src/*'] } },
    }),
  };
}

const CASES = [
  { what: 'an SST Config parameter', service: 'Config.APP', imports: "import { Config } from 'sst/node/config';\n" },
  { what: 'an environment variable', service: 'process.env.SERVICE_NAME', imports: '' },
];

for (const c of CASES) {
  test(`a service named by ${c.what}: the entity is read, its constant index is one partition, stored keys match`, async () => {
    const { index, dir } = await indexedWorkspace(project(c.service, c.imports));
    try {
      const entityFile = `${dir}/packages/core/src/pet.ts`;
      const accesses = index.results().flatMap((r) => r.accesses);
      const gsi = accesses.filter((a) => a.index === 'gsi1' && a.partitionKey);
      assert.ok(gsi.length >= 2, `the index's write and query are read: ${gsi.length}`);
      for (const a of gsi) assert.equal(render(a.partitionKey!.template), `\${${c.service}}`);
      const primary = accesses.find((a) => a.operation === 'PutItem' && !a.index && a.file === entityFile);
      assert.equal(render(primary!.partitionKey!.template), `\${${c.service}}#petid_{entity-id}`);

      const hot = index.findingsFor(entityFile).filter((f) => f.rule === 'SL001');
      assert.ok(hot.length >= 1, 'the index keyed by no composite attribute is a constant partition');
      assert.match(hot[0].message, new RegExp(`"\\$\\{${c.service.replace(/\./g, '\\.')}\\}" on index "gsi1"`));

      // The real library, under whatever name the deploy gives the service.
      const stored = new Entity(
        { model: { entity: 'pet', version: '1', service: 'PetStore' }, attributes: ATTRIBUTES, indexes: INDEXES },
        { table: 'pets' },
      )
        .put({ petId: 'p-1', name: 'Rex' })
        .params().Item;
      for (const [field, key] of [
        ['gsi1pk', 'byName'],
        ['pk', 'primary'],
      ]) {
        const out = execFileSync(process.execPath, [CLI, 'keys', dir, '--match', stored[field]], { encoding: 'utf8' });
        assert.match(out, new RegExp(`pet entity · ${key} `), `${stored[field]} names the ${key} key: ${out}`);
      }
      assert.equal(stored.gsi1pk, '$petstore', 'the library lower-cases the service it stores');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
