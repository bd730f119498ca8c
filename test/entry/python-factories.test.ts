/**
 * Python Lambda handlers made by a factory: `handler = make_handler(PromotionRepository())`,
 * where `make_handler(repo)` defines `inner(event, context)` calling `repo.active_promotions()`
 * and returns it, and a handler decorated by `@with_repository`, a decorator of another module
 * whose `wrapper` hands it a store that module builds. Each read is reached from its template's
 * route, and the table the functions' environment names comes through.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf, fixture } from './helpers';

test('a handler a factory makes at module level reaches what the returned function calls', async () => {
  const found = await findingsOf(fixture('python-factories'));
  const active = at(found, 'functions/promotions/repository.py:14');
  // Before, nothing was seen to reach it: the hot read was lowered as dead code on $PROMOTIONS_TABLE.
  assert.equal(active.severity, 'error');
  assert.match(active.message, /on table "storefront-promotions"/);
  assert.match(active.message, /Reached from GET \/promotions \(template\.yaml:43\)\.$/);
  assert.doesNotMatch(active.message, /make_handler/, 'the factory is no Lambda handler of its own');
});

test("a handler wrapped by another module's decorator reaches the store that decorator hands it", async () => {
  const found = await findingsOf(fixture('python-factories'));
  const settings = at(found, 'functions/settings/settings_store.py:11');
  assert.equal(settings.severity, 'error');
  assert.match(settings.message, /on table "storefront-promotions"/);
  assert.match(settings.message, /Reached from GET \/settings \(template\.yaml:58\)\.$/);
});
