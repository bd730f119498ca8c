/**
 * Entities passed on by an index module that imports them and exports them again by a
 * statement of its own (test/fixtures/libraries/reexported-entities): `import Job from
 * './job'; export { Job }` beside `export { default as Worker } from './worker'` (ElectroDB,
 * TypeScript), and `import Notice from './notice'; export { Notice as Bulletin }; export
 * default Notice` (dynamodb-toolbox v0, JavaScript). Each handler's call is read on the
 * entity, whichever way the index passes it on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableName } from '../../server/src/engine';
import { libraryFixture } from './helpers';

const fx = libraryFixture('reexported-entities');

const calls = () =>
  fx.accesses
    .filter((a) => a.library)
    .map((a) => `${fx.line(a)} ${a.library!.entity} ${a.operation} ${tableName(a.table)}/${a.index ?? '-'}`)
    .sort();

test('an entity imported and exported again by name, or as the default, is read at its callers', () => {
  assert.deepEqual(calls(), [
    'src/handlers/jobs.ts:12 worker Query crew-board/gsi1',
    'src/handlers/jobs.ts:4 job Query crew-board/gsi1',
    'src/handlers/jobs.ts:8 job Query crew-board/gsi2',
    'src/handlers/notices.js:10 Notice PutItem crew-notices/-',
    'src/handlers/notices.js:10 Notice PutItem crew-notices/GSI1',
    'src/handlers/notices.js:4 Notice Query crew-notices/GSI1',
  ]);
});

test('the constant keys queried through the re-exports are found; the crew id from the caller is not', () => {
  const found = fx.findings.map((f) => `${f.rule} ${fx.line(f)} ${f.access.index}`).sort();
  assert.deepEqual(found, [
    'SL001 src/handlers/jobs.ts:12 gsi1',
    'SL001 src/handlers/jobs.ts:4 gsi1',
    'SL001 src/handlers/notices.js:4 GSI1',
  ]);
});
