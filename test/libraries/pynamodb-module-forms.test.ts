/**
 * PynamoDB's classes reached through their modules (test/fixtures/libraries/pynamodb-module-forms):
 * `import pynamodb.attributes` then `pynamodb.attributes.UnicodeAttribute(hash_key=True)` and
 * `pynamodb.models.Model` (the name the import binds is the package), beside `from pynamodb import
 * attributes, indexes` and `import pynamodb.attributes as attrs`. Each model is read on its table,
 * index and keys, and the constant queue default is found at the schema and at its query.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableName } from '../../server/src/engine';
import { libraryFixture } from './helpers';

const fx = libraryFixture('pynamodb-module-forms');

test('the calls on models declared through module attributes are read on their table, index and key', () => {
  const calls = fx.accesses
    .filter((a) => a.library?.library === 'pynamodb')
    .map(
      (a) =>
        `${fx.line(a)} ${a.operation} ${a.library!.entity} ${tableName(a.table)}${a.index ? `/${a.index}` : ''} ` +
        `${a.partitionKey?.attribute ?? '-'}${a.sortKey ? ` ${a.sortKey.attribute}` : ''}`,
    )
    .sort();
  assert.deepEqual(calls, [
    'chat/handlers.py:10 PutItem ChatSession chat-sessions session_id',
    // The index's range key: what the save writes to the queue's partition, sorted by the clock.
    'chat/handlers.py:10 PutItem ChatSession chat-sessions/sessions-by-queue queue opened_at',
    'chat/handlers.py:15 Query ChatSession chat-sessions/sessions-by-queue queue',
    'chat/handlers.py:19 GetItem ChatSession chat-sessions session_id',
    'chat/handlers.py:23 GetItem AgentLoad agent-load agent_id day',
    'chat/handlers.py:24 UpdateItem AgentLoad agent-load agent_id day',
    'chat/models.py:23 PutItem ChatSession chat-sessions/sessions-by-queue queue',
  ]);
});

test('the constant queue default is found at the attribute and at the query of its index', () => {
  const found = fx.findings.map((f) => `${f.rule} ${fx.line(f)}`).sort();
  // The session's opening time sorts the one `unassigned` partition: every new session at its end.
  assert.deepEqual(found, ['SL001 chat/handlers.py:15', 'SL001 chat/models.py:23', 'SL005 chat/handlers.py:9']);
  const schema = fx.findings.find((f) => fx.line(f) === 'chat/models.py:23')!;
  assert.equal(schema.access.index, 'sessions-by-queue');
  assert.match(schema.message, /"unassigned"/);
});
