/**
 * Lambda handlers a factory makes: `export const handler = makeFeedHandler({ feed: new
 * FeedRepository() })`, whose handler calls `feed.latest()` on what it was given (typed by an
 * interface of its own module, which imports no repository), and `export const handler =
 * trendingService.handler()`, a method of an imported service returning the handler. Each
 * repository read is reached from its template's route, and the table the functions'
 * environment names comes through the handler files, which call no wrapper.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf, fixture } from './helpers';

test('a handler made by a factory given its dependencies reaches the repository it is given', async () => {
  const found = await findingsOf(fixture('factory-handlers'));
  const feed = at(found, 'src/repositories/feed-repository.ts:21');
  // Before, nothing was seen to reach it, and the hot read was lowered as dead code.
  assert.equal(feed.severity, 'error');
  assert.match(feed.message, /on table "feed-items"/);
  assert.match(feed.message, /Reached from GET \/feed \(template\.yaml:43\)\.$/);
  assert.doesNotMatch(feed.message, /makeFeedHandler/, 'the factory is no Lambda handler of its own');
});

test("a handler made by an imported service's method reaches what it calls", async () => {
  const found = await findingsOf(fixture('factory-handlers'));
  const trending = at(found, 'src/repositories/feed-repository.ts:35');
  assert.equal(trending.severity, 'error');
  assert.match(trending.message, /on table "feed-items"/);
  assert.match(trending.message, /Reached from GET \/trending \(template\.yaml:59\)\.$/);
});
