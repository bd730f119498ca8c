import assert from 'node:assert/strict';
import { test } from 'node:test';
import { placeNamer } from '../../server/src/features/places';

test('a file is named by its base name when no other file of the workspace shares it', () => {
  const name = placeNamer(['/ws/src/tickets.ts', '/ws/src/db.ts']);
  assert.equal(name('/ws/src/tickets.ts'), 'tickets.ts');
});

test('Lambda folders of index.js: each named by the shortest tail no other file ends with', () => {
  const files = [
    '/ws/lambdas/update-score/index.js',
    '/ws/lambdas/get-leaderboard/index.js',
    '/ws/a/src/handler.py',
    '/ws/b/src/handler.py',
    '/ws/b/src/db.py',
  ];
  const name = placeNamer(files);
  assert.equal(name(files[0]), 'update-score/index.js');
  assert.equal(name(files[1]), 'get-leaderboard/index.js');
  assert.equal(name(files[2]), 'a/src/handler.py');
  assert.equal(name(files[3]), 'b/src/handler.py');
  assert.equal(name(files[4]), 'db.py');
});

test('a file outside the list is named against the list', () => {
  const name = placeNamer(['/ws/one/index.js']);
  assert.equal(name('/ws/two/index.js'), 'two/index.js');
  assert.equal(name('/ws/new.js'), 'new.js');
});

test('the same files give the same namer; a file added gives names that tell it apart', () => {
  const files = ['/ws/a/index.js', '/ws/b/util.js'];
  const first = placeNamer(files);
  assert.equal(first('/ws/a/index.js'), 'index.js');
  assert.equal(placeNamer([...files]), first, 'kept: an edit leaves the files as they were');
  const grown = placeNamer([...files, '/ws/c/index.js']);
  assert.notEqual(grown, first);
  assert.equal(grown('/ws/a/index.js'), 'a/index.js');
  assert.equal(placeNamer(files)('/ws/a/index.js'), 'index.js', 'and back');
});
