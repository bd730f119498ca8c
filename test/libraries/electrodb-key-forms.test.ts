/**
 * The keys ElectroDB stores for each form an access pattern can take — an index `scope`, an
 * index with no sort key, a `clustered` index with and without a collection, casing and
 * templates beside a scope — are the keys the engine renders. The reference is the real
 * library (electrodb 3.9.3): the `params()` of the same entity and call, which is the request
 * it sends. A wrong head makes live heat miss the key and `shardlens keys --match` name
 * nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { Access } from '../../server/src/engine/model';
import { indexedWorkspace } from '../unit/helpers';
import { renderText } from './helpers';

const { Entity } = createRequire(__filename)('electrodb') as {
  Entity: new (schema: object, config: object) => ElectroEntity;
};
interface ElectroEntity {
  put(item: object): { params(): { Item: Record<string, unknown> } };
  query: Record<string, (composites: object) => { params(): { ExpressionAttributeValues: Record<string, string> } }>;
}

const model = { entity: 'Vote', version: '1', service: 'Polls' };
const attributes = { poll: { type: 'string' }, user: { type: 'string' } };
const ITEM = { poll: 'P1', user: 'U7' };
const primary = { pk: { field: 'pk', composite: ['poll'] }, sk: { field: 'sk', composite: ['user'] } };

/** Each form, by name: its indexes, and the access pattern queried by `poll` alone. */
const FORMS: Record<string, { indexes: object; query: string }> = {
  'a scope on the table index': {
    indexes: { byPoll: { scope: 'org', ...primary } },
    query: 'byPoll',
  },
  'an index with no sort key': {
    indexes: { byPoll: { pk: { field: 'pk', composite: ['poll'] } } },
    query: 'byPoll',
  },
  'no sort key and a scope, beside a scoped index with no composite': {
    indexes: {
      byPoll: { scope: 'x', pk: { field: 'pk', composite: ['poll'] } },
      byUser: {
        index: 'gsi1',
        scope: 'y',
        pk: { field: 'gsi1pk', composite: [] },
        sk: { field: 'gsi1sk', composite: ['user'] },
      },
    },
    query: 'byPoll',
  },
  'a clustered index in a collection': {
    indexes: {
      byPoll: primary,
      votes: {
        index: 'gsi1',
        type: 'clustered',
        collection: 'votes',
        pk: { field: 'gsi1pk', composite: ['poll'] },
        sk: { field: 'gsi1sk', composite: ['user'] },
      },
    },
    query: 'votes',
  },
  'a clustered index in no collection': {
    indexes: {
      byPoll: primary,
      votes: {
        index: 'gsi1',
        type: 'clustered',
        pk: { field: 'gsi1pk', composite: ['poll'] },
        sk: { field: 'gsi1sk', composite: ['user'] },
      },
    },
    query: 'votes',
  },
  'a clustered index whose sort key has no composite': {
    indexes: {
      byPoll: primary,
      votes: {
        index: 'gsi1',
        type: 'clustered',
        collection: 'votes',
        pk: { field: 'gsi1pk', composite: ['poll'] },
        sk: { field: 'gsi1sk', composite: [] },
      },
    },
    query: 'votes',
  },
  'upper and no casing beside a scope': {
    indexes: {
      byPoll: {
        scope: 'Org',
        pk: { field: 'pk', composite: ['poll'], casing: 'upper' },
        sk: { field: 'sk', composite: ['user'], casing: 'none' },
      },
    },
    query: 'byPoll',
  },
  'a template beside a scope (the scope is not added)': {
    indexes: {
      byPoll: { scope: 'Org', pk: { field: 'pk', composite: ['poll'], template: 'POLL#${poll}' }, sk: primary.sk },
    },
    query: 'byPoll',
  },
  'a scoped index in a collection': {
    indexes: {
      byPoll: primary,
      votes: {
        index: 'gsi1',
        scope: 's',
        collection: 'votes',
        pk: { field: 'gsi1pk', composite: ['poll'] },
        sk: { field: 'gsi1sk', composite: ['user'] },
      },
    },
    query: 'votes',
  },
};

/** The module a project would write: the entity, one put of ITEM, one query by `poll`. */
function moduleOf(indexes: object, query: string): string {
  return [
    "const { Entity } = require('electrodb');",
    `const Vote = new Entity({ model: ${JSON.stringify(model)}, attributes: ${JSON.stringify(attributes)}, indexes: ${JSON.stringify(indexes)} }, { table: 'votes' });`,
    `exports.vote = () => Vote.put(${JSON.stringify(ITEM)}).go();`,
    `exports.votesOf = () => Vote.query.${query}({ poll: 'P1' }).go();`,
    '',
  ].join('\n');
}

/** The keys the engine read on the put, by attribute (the call's own, not a schema's constant-key site). */
function storedByEngine(accesses: Access[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of accesses.filter((x) => x.operation === 'PutItem' && !x.library?.schema)) {
    if (a.partitionKey) out[a.partitionKey.attribute] = renderText(a.partitionKey.template);
    if (a.sortKey) out[a.sortKey.attribute] = renderText(a.sortKey.template);
  }
  return out;
}

for (const [form, { indexes, query }] of Object.entries(FORMS)) {
  test(`${form}: the put's keys and the query's key values are the library's`, async () => {
    const entity = new Entity({ model, attributes, indexes }, { table: 'votes' });
    const item = entity.put(ITEM).params().Item;
    const keys = Object.fromEntries(
      Object.entries(item).filter(([name]) => !(name in ITEM) && !name.startsWith('__edb_')),
    );
    const { index } = await indexedWorkspace({ 'package.json': '{}', 'votes.js': moduleOf(indexes, query) });
    const accesses = index.results().flatMap((r) => r.accesses);
    assert.deepEqual(storedByEngine(accesses), keys);

    const sent = entity.query[query]({ poll: 'P1' }).params().ExpressionAttributeValues;
    const read = accesses.find((a) => a.operation === 'Query');
    assert.ok(read?.partitionKey, 'the query is read with its partition key');
    assert.equal(renderText(read.partitionKey.template), sent[':pk']);
    // ElectroDB sends the sort key's prefix as `:sk1` (begins_with) when the pattern has one.
    const prefix = read.sortCondition?.operands[0];
    assert.equal(prefix ? renderText(prefix.template) : undefined, sent[':sk1']);
  });
}
