/**
 * A Python package's `__init__` that gathers a layer's classes (`from .services.member_service
 * import MemberService`), and a route that imports the class from the package (`from app
 * import MemberService`): the route reaches the service's methods, and through them the
 * repository's requests. A method nothing calls stays unreached.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf, fixture } from './helpers';

test('a class imported from a package __init__ that imports it: the route reaches its calls', async () => {
  const fs = await findingsOf(fixture('python-packages'));
  const listed = at(fs, 'src/infra/persistence/member_repository.py:13');
  assert.match(listed.message, /Reached from GET \/members \(src\/main\.py:9\)\.$/);
  assert.ok(listed.related.some((r) => r.message.startsWith('Entry point: GET /members')));
  // audit_log() is called by nothing: no route is named for it.
  assert.doesNotMatch(at(fs, 'src/infra/persistence/member_repository.py:17').message, /Reached from/);
});

test('a name the package __init__ does not import is not followed into another module', async () => {
  const files = fixture('python-packages');
  const fs = await findingsOf({ ...files, 'src/app/__init__.py': '' });
  assert.doesNotMatch(at(fs, 'src/infra/persistence/member_repository.py:13').message, /Reached from/);
});
