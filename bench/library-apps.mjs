// Library files for bench/generate.mjs `--libraries`: the data layers real applications
// write with a DynamoDB modelling library instead of the SDK, each an app of a schema or
// model module and the service module that calls it: ElectroDB entities and a service,
// dynamodb-toolbox v1/v2 tables, entities and commands, dynamoose models, OneTable schemas
// and models, TypeDORM entities and their entity manager, PynamoDB models. Most keys are
// per item (an id the request gives); about a third of the apps also keep a hot key (a
// constant partition, a status index, a counter item, a constant default).

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const snake = (s) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
const kebab = (s) => snake(s).replace(/_/g, '-');
const upper = (s) => snake(s).toUpperCase();

/** What one app is about: a main entity keyed by its id under an owner, and its hot spot. */
function appPlan(r, words, i, name, taken) {
  const [entity, owner] = r.some(words.entities, 2, 2);
  // One app of a library per service (Python: per package and entity), so no two apps
  // write the same path and every import names the file it means.
  let service;
  let pyApp;
  let key;
  do {
    service = r.pick(words.services);
    pyApp = r.pick(words.pyApps);
    key = name === 'pynamodb' ? `${name}/${pyApp}/${entity}` : `${name}/${service}`;
  } while (taken.has(key));
  taken.add(key);
  return {
    i,
    service,
    pyApp,
    entity,
    owner,
    Entity: cap(entity),
    hot: r.chance(0.35) ? r.pick(['constant', 'status', 'counter', 'default']) : null,
    board: r.pick(['global', 'main', 'all', 'home', 'default']),
  };
}

// ---------------------------------------------------------------- ElectroDB

function electrodbApp(p) {
  const E = p.Entity;
  const entities = `import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { Entity, Service } from 'electrodb';

const client = new DynamoDBClient({});
const table = process.env.${upper(p.service)}_TABLE ?? '${p.service}';

/** ${E}s of a ${p.owner}, each by its id. */
export const ${E} = new Entity(
  {
    model: { entity: '${p.entity}', version: '1', service: '${p.service}' },
    attributes: {
      ${p.owner}Id: { type: 'string', required: true },
      ${p.entity}Id: { type: 'string', required: true, default: () => randomUUID() },
      status: { type: ['open', 'closed', 'archived'] as const, required: true, default: 'open' },
      title: { type: 'string' },
      updatedAt: { type: 'number', default: () => Date.now() },
    },
    indexes: {
      byId: {
        pk: { field: 'pk', composite: ['${p.owner}Id'] },
        sk: { field: 'sk', composite: ['${p.entity}Id'] },
      },
      byStatus: {
        index: 'gsi1',
        pk: { field: 'gsi1pk', composite: [${p.hot === 'status' ? '' : `'${p.owner}Id'`}] },
        sk: { field: 'gsi1sk', composite: ['status', 'updatedAt'] },
      },
    },
  },
  { table, client },
);

/** Activity counts per ${p.owner}. */
export const ${E}Stats = new Entity(
  {
    model: { entity: '${p.entity}Stats', version: '1', service: '${p.service}' },
    attributes: {
      ${p.owner}Id: { type: 'string', required: true },
      views: { type: 'number', default: 0 },
    },
    indexes: {
      byOwner: {
        pk: { field: 'pk', composite: ['${p.owner}Id'] },
        sk: { field: 'sk', composite: [] },
      },
    },
  },
  { table, client },
);

export const ${p.service}Service = new Service({ ${p.entity}: ${E}, stats: ${E}Stats }, { table, client });
`;
  const service = `import { ${E}, ${E}Stats, ${p.service}Service } from '../entities/${kebab(p.entity)}';

export async function create${E}(${p.owner}Id: string, title: string) {
  const { data } = await ${E}.create({ ${p.owner}Id, title }).go();
  return data.${p.entity}Id;
}

export async function get${E}(${p.owner}Id: string, ${p.entity}Id: string) {
  return (await ${E}.get({ ${p.owner}Id, ${p.entity}Id }).go()).data;
}

export async function list${E}s(${p.owner}Id: string) {
  const { data } = await ${E}.query.byId({ ${p.owner}Id }).go({ pages: 'all' });
  return data;
}

export async function close${E}(${p.owner}Id: string, ${p.entity}Id: string) {
  await ${E}.patch({ ${p.owner}Id, ${p.entity}Id }).set({ status: 'closed', updatedAt: Date.now() }).go();
}

export async function open${E}s(${p.hot === 'status' ? '' : `${p.owner}Id: string`}) {
  const { data } = await ${E}.query.byStatus({ ${p.hot === 'status' ? '' : `${p.owner}Id`} }).begins({ status: 'open' }).go({ limit: 50 });
  return data;
}

export async function countView(${p.owner}Id: string) {
  await ${E}Stats.update({ ${p.owner}Id${p.hot === 'counter' ? `: '${p.board}'` : ''} }).add({ views: 1 }).go();
}

export async function remove${E}(${p.owner}Id: string, ${p.entity}Id: string) {
  await ${p.service}Service.entities.${p.entity}.delete({ ${p.owner}Id, ${p.entity}Id }).go();
}
${
  p.hot === 'constant'
    ? `
export async function pin${E}(title: string) {
  await ${E}.put({ ${p.owner}Id: '${p.board}', title }).go();
}
`
    : ''
}`;
  return [
    [`services/${p.service}/src/entities/${kebab(p.entity)}.ts`, entities],
    [`services/${p.service}/src/services/${kebab(p.entity)}-service.ts`, service],
  ];
}

// ---------------------------------------------------------------- dynamodb-toolbox v1/v2

function toolboxApp(p, r) {
  const E = p.Entity;
  const table = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Table } from 'dynamodb-toolbox/table';

const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const ${cap(p.service)}Table = new Table({
  name: process.env.${upper(p.service)}_TABLE ?? '${p.service}',
  partitionKey: { name: 'PK', type: 'string' },
  sortKey: { name: 'SK', type: 'string' },
  indexes: {
    ${
      p.hot === 'status'
        ? `byStatus: { type: 'global', partitionKey: { name: 'status', type: 'string' }, sortKey: { name: 'SK', type: 'string' } },`
        : `byCreated: { type: 'local', sortKey: { name: 'createdAt', type: 'string' } },`
    }
  },
  documentClient,
});
`;
  const T = `${cap(p.service)}Table`;
  const entities = `import { randomUUID } from 'node:crypto';
import { Entity } from 'dynamodb-toolbox/entity';
import { item } from 'dynamodb-toolbox/schema/item';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { prefix } from 'dynamodb-toolbox/transformers/prefix';
import { ${T} } from './table';

export const ${E}Entity = new Entity({
  name: '${E}',
  table: ${T},
  schema: item({
    ${p.owner}Id: string().key().savedAs('PK').transform(prefix('${upper(p.owner)}')),
    ${p.entity}Id: string()
      .key()
      .savedAs('SK')
      .default(() => randomUUID()),
    status: string(),
    total: number().default(0),
  }),
});

export const ${E}FeedEntity = new Entity({
  name: '${E}Feed',
  table: ${T},
  schema: item({
    feed: string().key().savedAs('PK')${p.hot === 'default' ? `.default('FEED#${p.board}')` : `.transform(prefix('FEED'))`},
    postedAt: string().key().savedAs('SK'),
    text: string(),
  }),
});
`;
  const cmd = r.chance(0.5) ? 'build' : 'v2';
  const put = (ent, itemExpr) =>
    cmd === 'build'
      ? `${ent}.build(PutItemCommand).item(${itemExpr}).send()`
      : `${ent}.build(PutItemCommand).item(${itemExpr}).options({ returnValues: 'NONE' }).send()`;
  const service = `import { $add, DeleteItemCommand, GetItemCommand, PutItemCommand, QueryCommand, UpdateItemCommand } from 'dynamodb-toolbox';
import { ${E}Entity, ${E}FeedEntity } from '../db/entities';
import { ${T} } from '../db/table';

export async function add${E}(${p.owner}Id: string, total: number) {
  await ${put(`${E}Entity`, `{ ${p.owner}Id, status: 'PENDING', total }`)};
}

export async function get${E}(${p.owner}Id: string, ${p.entity}Id: string) {
  return (await ${E}Entity.build(GetItemCommand).key({ ${p.owner}Id, ${p.entity}Id }).send()).Item;
}

export async function ${p.entity}sOf(${p.owner}Id: string) {
  const { Items } = await ${T}.build(QueryCommand)
    .entities(${E}Entity)
    .query({ partition: \`${upper(p.owner)}#\${${p.owner}Id}\` })
    .send();
  return Items ?? [];
}

export async function addTo${E}(${p.owner}Id: string, ${p.entity}Id: string, amount: number) {
  await ${E}Entity.build(UpdateItemCommand)
    .item({ ${p.owner}Id, ${p.entity}Id, total: $add(amount) })
    .send();
}

export async function drop${E}(${p.owner}Id: string, ${p.entity}Id: string) {
  await ${E}Entity.build(DeleteItemCommand).key({ ${p.owner}Id, ${p.entity}Id }).send();
}

export async function post(${p.hot === 'default' ? '' : 'feed: string, '}text: string) {
  await ${put(`${E}FeedEntity`, `{ ${p.hot === 'default' ? '' : 'feed, '}postedAt: new Date().toISOString(), text }`)};
}
${
  p.hot === 'status'
    ? `
export async function pending${E}s() {
  const { Items } = await ${T}.build(QueryCommand)
    .entities(${E}Entity)
    .query({ index: 'byStatus', partition: 'PENDING' })
    .send();
  return Items ?? [];
}
`
    : ''
}${
    p.hot === 'constant' || p.hot === 'counter'
      ? `
export async function bump${cap(p.board)}(amount: number) {
  await ${E}Entity.build(UpdateItemCommand)
    .item({ ${p.owner}Id: '${p.board}', ${p.entity}Id: 'TOTAL', total: $add(amount) })
    .send();
}
`
      : ''
  }`;
  return [
    [`services/${p.service}/src/db/table.ts`, table],
    [`services/${p.service}/src/db/entities.ts`, entities],
    [`services/${p.service}/src/handlers/${kebab(p.entity)}-handlers.ts`, service],
  ];
}

// ---------------------------------------------------------------- dynamoose

function dynamooseApp(p) {
  const E = p.Entity;
  const models = `const dynamoose = require('dynamoose');

const ${p.entity}Schema = new dynamoose.Schema(
  {
    ${p.owner}Id: { type: String, hashKey: true },
    ${p.entity}Id: { type: String, rangeKey: true },
    status: {
      type: String,
      ${p.hot === 'status' ? `index: { name: 'statusIndex', type: 'global', rangeKey: 'updatedAt' },` : `default: 'new',`}
    },
    updatedAt: Number,
  },
  { timestamps: false },
);

const ${E}Model = dynamoose.model('${E}', ${p.entity}Schema, {
  tableName: process.env.${upper(p.entity)}_TABLE || '${kebab(p.entity)}s',
  create: false,
  waitForActive: false,
});

const ${E}CounterModel = dynamoose.model(
  '${E}Counter',
  new dynamoose.Schema({ name: { type: String, hashKey: true${p.hot === 'default' ? `, default: '${p.board}'` : ''} }, count: Number }),
  { tableName: '${kebab(p.entity)}-counters', create: false, waitForActive: false },
);

module.exports = { ${E}Model, ${E}CounterModel };
`;
  const service = `const { ${E}Model, ${E}CounterModel } = require('../models/${kebab(p.entity)}');

async function save${E}(${p.owner}Id, ${p.entity}Id, body) {
  const item = new ${E}Model({ ${p.owner}Id, ${p.entity}Id, status: 'new', updatedAt: Date.now(), ...body });
  await item.save();
  return item;
}

async function find${E}(${p.owner}Id, ${p.entity}Id) {
  return ${E}Model.get({ ${p.owner}Id, ${p.entity}Id });
}

async function ${p.entity}sOf(${p.owner}Id) {
  return ${E}Model.query('${p.owner}Id').eq(${p.owner}Id).exec();
}

async function mark${E}(${p.owner}Id, ${p.entity}Id, status) {
  await ${E}Model.update({ ${p.owner}Id, ${p.entity}Id }, { status, updatedAt: Date.now() });
}

async function count${E}(name) {
  await ${E}CounterModel.update({ name${p.hot === 'counter' ? `: '${p.board}'` : ''} }, { $ADD: { count: 1 } });
}
${
  p.hot === 'status'
    ? `
async function failed${E}s() {
  return ${E}Model.query('status').eq('failed').using('statusIndex').exec();
}
`
    : ''
}${p.hot === 'default' ? `\nasync function tally() {\n  await new ${E}CounterModel({ count: 1 }).save();\n}\n` : ''}${
    p.hot === 'constant'
      ? `\nasync function latest${E}s() {\n  return ${E}Model.query('${p.owner}Id').eq('${p.board}').exec();\n}\n`
      : ''
  }
module.exports = { save${E}, find${E}, ${p.entity}sOf, mark${E}, count${E}${p.hot === 'status' ? `, failed${E}s` : ''}${p.hot === 'default' ? ', tally' : ''}${p.hot === 'constant' ? `, latest${E}s` : ''} };
`;
  return [
    [`services/${p.service}/lib/models/${kebab(p.entity)}.js`, models],
    [`services/${p.service}/lib/services/${kebab(p.entity)}-service.js`, service],
  ];
}

// ---------------------------------------------------------------- OneTable

function onetableApp(p) {
  const E = p.Entity;
  const schema = `// The ${p.service} table's OneTable schema: its indexes and the models stored in it.
export const ${cap(p.service)}Schema = {
  format: 'onetable:1.1.0',
  version: '0.0.1',
  indexes: {
    primary: { hash: 'pk', sort: 'sk' },
    gs1: { hash: 'gs1pk', sort: 'gs1sk', project: 'all' },
  },
  models: {
    ${E}: {
      pk: { type: String, value: '${p.owner}#\${${p.owner}Id}' },
      sk: { type: String, value: '${p.entity}#\${id}' },
      ${p.owner}Id: { type: String, required: true },
      id: { type: String, generate: 'ulid' },
      status: { type: String, required: true, enum: ['new', 'done', 'failed'] },
      gs1pk: { type: String, value: ${p.hot === 'status' ? `'status#\${status}'` : `'${p.owner}#\${${p.owner}Id}#status'`} },
      gs1sk: { type: String, value: '\${status}#\${id}' },
    },
    ${E}Counter: {
      pk: { type: String, value: ${p.hot === 'constant' ? `'\${_type}'` : `'counter#\${name}'`} },
      sk: { type: String, value: 'counter#' },
      name: { type: String, required: true },
      count: { type: Number, default: 0 },
    },
  } as const,
  params: { isoDates: true, timestamps: true },
};
`;
  const db = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { Table, type Entity } from 'dynamodb-onetable';
import { ${cap(p.service)}Schema } from './schema';

export const table = new Table({
  client: new DynamoDBClient({}),
  name: process.env.${upper(p.service)}_TABLE ?? '${p.service}',
  schema: ${cap(p.service)}Schema,
  partial: true,
});

export type ${E}Item = Entity<typeof ${cap(p.service)}Schema.models.${E}>;
export const ${E} = table.getModel<${E}Item>('${E}');
export const ${E}Counter = table.getModel('${E}Counter');
`;
  const service = `import { ${E}, ${E}Counter } from '../data/db';

export async function create${E}(${p.owner}Id: string) {
  const item = await ${E}.create({ ${p.owner}Id, status: 'new' });
  return item.id;
}

export async function get${E}(${p.owner}Id: string, id: string) {
  return ${E}.get({ ${p.owner}Id, id });
}

export async function ${p.entity}sOf(${p.owner}Id: string) {
  return ${E}.find({ ${p.owner}Id });
}

export async function finish${E}(${p.owner}Id: string, id: string) {
  return ${E}.update({ ${p.owner}Id, id, status: 'done' });
}

export async function ${p.hot === 'status' ? 'failed' : 'statusOf'}${E}s(${p.hot === 'status' ? '' : `${p.owner}Id: string`}) {
  return ${E}.find({ ${p.hot === 'status' ? "status: 'failed'" : `${p.owner}Id, status: 'failed'`} }, { index: 'gs1' });
}

export async function count${E}(name: string) {
  return ${E}Counter.upsert({ name${p.hot === 'counter' ? `: '${p.board}'` : ''} }, { add: { count: 1 } });
}
`;
  return [
    [`services/${p.service}/src/data/schema.ts`, schema],
    [`services/${p.service}/src/data/db.ts`, db],
    [`services/${p.service}/src/services/${kebab(p.entity)}s.ts`, service],
  ];
}

// ---------------------------------------------------------------- TypeDORM

function typedormApp(p) {
  const E = p.Entity;
  const table = `import { INDEX_TYPE, Table } from '@typedorm/common';

export const table = new Table({
  name: process.env.${upper(p.service)}_TABLE ?? '${p.service}',
  partitionKey: 'PK',
  sortKey: 'SK',
  indexes: {
    GSI1: { partitionKey: 'GSI1PK', sortKey: 'GSI1SK', type: INDEX_TYPE.GSI },
  },
});
`;
  const entity = `import { Attribute, AUTO_GENERATE_ATTRIBUTE_STRATEGY, AutoGenerateAttribute, Entity, INDEX_TYPE } from '@typedorm/common';

@Entity({
  name: '${p.entity}',
  primaryKey: {
    partitionKey: '${upper(p.owner)}#{{${p.owner}Id}}',
    sortKey: '${upper(p.entity)}#{{id}}',
  },
  indexes: {
    GSI1: {
      partitionKey: ${p.hot === 'status' ? `'STATUS#{{status}}'` : p.hot === 'constant' ? `'${upper(p.entity)}S'` : `'${upper(p.owner)}#{{${p.owner}Id}}#STATUS'`},
      sortKey: '{{status}}#{{id}}',
      type: INDEX_TYPE.GSI,
    },
  },
})
export class ${E} {
  @AutoGenerateAttribute({ strategy: AUTO_GENERATE_ATTRIBUTE_STRATEGY.UUID4 })
  id!: string;

  @Attribute()
  ${p.owner}Id!: string;

  @Attribute()
  status!: string;
}
`;
  const db = `import 'reflect-metadata';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createConnection } from '@typedorm/core';
import { DocumentClientV3 } from '@typedorm/document-client';
import { table } from './table';
import { ${E} } from './${kebab(p.entity)}.entity';

export const connection = createConnection({
  table,
  entities: [${E}],
  documentClient: new DocumentClientV3(new DynamoDBClient({})),
});
`;
  const service = `import { connection } from '../entities/db';
import { ${E} } from '../entities/${kebab(p.entity)}.entity';

const entityManager = connection.entityManager;

export async function create${E}(${p.owner}Id: string) {
  const item = new ${E}();
  item.${p.owner}Id = ${p.owner}Id;
  item.status = 'NEW';
  return entityManager.create(item);
}

export async function find${E}(${p.owner}Id: string, id: string) {
  return entityManager.findOne(${E}, { ${p.owner}Id, id });
}

export async function close${E}(${p.owner}Id: string, id: string) {
  return entityManager.update(${E}, { ${p.owner}Id, id }, { status: 'CLOSED' });
}

export async function ${p.entity}sByStatus(${p.hot ? '' : `${p.owner}Id: string`}) {
  return entityManager.find(${E}, { ${p.hot === 'status' ? "status: 'OPEN'" : p.hot ? '' : `${p.owner}Id`} }, { queryIndex: 'GSI1', limit: 50 });
}
`;
  return [
    [`services/${p.service}/src/entities/table.ts`, table],
    [`services/${p.service}/src/entities/${kebab(p.entity)}.entity.ts`, entity],
    [`services/${p.service}/src/entities/db.ts`, db],
    [`services/${p.service}/src/repositories/${kebab(p.entity)}-repo.ts`, service],
  ];
}

// ---------------------------------------------------------------- PynamoDB

function pynamodbApp(p) {
  const E = p.Entity;
  const e = snake(p.entity);
  const o = snake(p.owner);
  const models = `"""${E} models of ${p.pyApp}."""
import os
from uuid import uuid4

from pynamodb.attributes import NumberAttribute, UnicodeAttribute
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex
from pynamodb.models import Model


class StatusIndex(GlobalSecondaryIndex):
    class Meta:
        index_name = "status-index"
        projection = AllProjection()

    status = UnicodeAttribute(hash_key=True)
    updated_at = NumberAttribute(range_key=True)


class ${E}(Model):
    class Meta:
        table_name = os.environ.get("${upper(p.entity)}_TABLE", "${e}s")

    ${o}_id = UnicodeAttribute(hash_key=True)
    ${e}_id = UnicodeAttribute(range_key=True, default=lambda: str(uuid4()))
    status = UnicodeAttribute(default="new")
    updated_at = NumberAttribute(default=0)
${p.hot === 'status' ? '    by_status = StatusIndex()\n' : ''}

class ${E}Tally(Model):
    class Meta:
        table_name = "${e}-tallies"

    name = UnicodeAttribute(hash_key=True${p.hot === 'default' ? `, default="${p.board}"` : ''})
    count = NumberAttribute(default=0)
`;
  const service = `"""Reads and writes of ${e}s."""
import time
from typing import List

from ..models.${e}_model import ${E}, ${E}Tally


def create_${e}(${o}_id: str) -> str:
    item = ${E}(${o}_id, status="new", updated_at=int(time.time()))
    item.save()
    return item.${e}_id


def get_${e}(${o}_id: str, ${e}_id: str) -> ${E}:
    return ${E}.get(${o}_id, ${e}_id)


def ${e}s_of(${o}_id: str) -> List[${E}]:
    return list(${E}.query(${o}_id, limit=100))


def close_${e}(${o}_id: str, ${e}_id: str) -> None:
    ${E}.get(${o}_id, ${e}_id).update(actions=[${E}.status.set("closed")])


def tally(name: str) -> None:
    ${E}Tally(${p.hot === 'counter' ? `"${p.board}"` : p.hot === 'default' ? '' : 'name'}).update(actions=[${E}Tally.count.add(1)])
${p.hot === 'status' ? `\n\ndef failed_${e}s() -> List[${E}]:\n    return list(${E}.by_status.query("failed"))\n` : ''}${
    p.hot === 'constant' ? `\n\ndef ${p.board}_${e}s() -> List[${E}]:\n    return list(${E}.query("${p.board}"))\n` : ''
  }`;
  return [
    [`python/${p.pyApp}/models/${e}_model.py`, models],
    [`python/${p.pyApp}/services/${e}_service.py`, service],
  ];
}

const LIBRARIES = [
  ['electrodb', electrodbApp],
  ['dynamodb-toolbox', toolboxApp],
  ['dynamoose', dynamooseApp],
  ['onetable', onetableApp],
  ['typedorm', typedormApp],
  ['pynamodb', pynamodbApp],
];

/**
 * Writes library apps round the six libraries until `files` files are written; returns
 * the files by library and the number of apps with a hot key.
 */
export function writeLibraryApps({ write, rngFor, words, files }) {
  const byLibrary = Object.fromEntries(LIBRARIES.map(([name]) => [name, 0]));
  const written = [];
  const taken = new Set();
  let hotApps = 0;
  for (let i = 0; written.length < files; i++) {
    const [name, app] = LIBRARIES[i % LIBRARIES.length];
    const r = rngFor(`library-${i}`);
    const plan = appPlan(r, words, i, name, taken);
    if (plan.hot) hotApps++;
    for (const [rel, text] of app(plan, r)) {
      written.push({ path: write(rel, text), text });
      byLibrary[name]++;
    }
  }
  return { written, byLibrary, hotApps };
}
