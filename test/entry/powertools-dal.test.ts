/**
 * AWS Lambda Powertools services that build their repository in another module: a route
 * calling a logic module that asks `get_dal_handler(table)` (a package's `__init__.py`) for a
 * data-access object whose class lives in a third module, and a handler module keeping the
 * repository `init_users_repository()` of a helpers module made at module level. Neither the
 * logic module nor the helpers module names an entry point; each read is reached from its route.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf, fixture } from './helpers';

test('a route reaches the data-access class a factory of another module returns', async () => {
  const found = await findingsOf(fixture('powertools-dal'));
  const featured = at(found, 'service/dal/dynamo_dal_handler.py:15');
  // Before, nothing was seen to reach it: the hot read was lowered as dead code.
  assert.equal(featured.severity, 'error');
  assert.match(featured.message, /Reached from GET \/products\/featured \(service\/handlers\/catalog_api\.py:13\)\.$/);
});

test('a route reaches the methods of a repository its module keeps, built by a helpers module', async () => {
  const found = await findingsOf(fixture('powertools-dal'));
  const banner = at(found, 'service/users/repository.py:6');
  assert.equal(banner.severity, 'error');
  assert.match(banner.message, /Reached from GET \/users\/banner \(service\/handlers\/users_api\.py:12\)\.$/);
});
