/**
 * Entities imported from a project's build output (test/fixtures/libraries/built-entities):
 * scripts import `../dist/entities` and require `../dist/entities/vehicle.js`, which exist only
 * after `tsc` runs; the tsconfig compiles `./src` to `./dist`. The import is read on the source
 * the output is built from, so the scripts' calls are read on the entity.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { tableName } from '../../server/src/engine';
import { PathAliases } from '../../server/src/engine/workspace/path-aliases';
import { libraryFixture } from './helpers';

const fx = libraryFixture('built-entities');

test('calls on an entity imported from the build folder are read on its source', () => {
  const calls = fx.accesses
    .map((a) => `${fx.line(a)} ${a.library?.entity ?? '-'} ${a.operation} ${tableName(a.table)}/${a.index ?? '-'}`)
    .sort();
  assert.deepEqual(calls, [
    'scripts/inspect.js:3 vehicle GetItem fleet/-',
    'scripts/recall.ts:5 vehicle Query fleet/gsi1',
  ]);
  assert.deepEqual(
    fx.findings.map((f) => `${f.rule} ${fx.line(f)}`),
    ['SL001 scripts/recall.ts:5'],
  );
});

test('a build path maps to its source only under the outDir of the nearest config', () => {
  const aliases = new PathAliases(fx.dir);
  const at = (p: string) => aliases.builtSource(path.join(fx.dir, p));
  assert.equal(at('dist/entities/vehicle'), path.join(fx.dir, 'src/entities/vehicle'));
  assert.equal(at('lib/entities/vehicle'), null);
  assert.equal(at('dist'), null);
});
