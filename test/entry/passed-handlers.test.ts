/**
 * Handlers passed as values reach what they call: an Express route's handler wrapped in an
 * error catcher (`catchAsync(books.getBook)`, inline or named, on a chained
 * `router.route(path)`), middy's http-router route objects, a Lambda handler given to
 * middleware in an options object (`middyfy({ handler, eventSchema })`) or from a module
 * required in place (`withLogging(require('./purge-job.cjs').run)`), a Python handler made by
 * wrapping one at module level (`lambda_handler = logger.inject_lambda_context(process_batch)`),
 * and a FastAPI view registered by `add_api_route` behind `handler = Mangum(app)`.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf, fixture } from './helpers';

test('Express: a wrapped handler, named or inline, is reached from its route', async () => {
  const found = await findingsOf(fixture('express-wrapped'));
  const list = at(found, 'src/controllers/books.js:9');
  // Before, nothing was seen to reach it, and it was lowered as dead code.
  assert.equal(list.severity, 'error');
  assert.match(list.message, /Reached from GET \/bestsellers \(src\/routes\/books\.js:9\)\.$/);
  assert.match(
    at(found, 'src/routes/books.js:19').message,
    /Reached from POST \/:isbn\/views \(src\/routes\/books\.js:13\)\.$/,
  );
});

test('middy: route objects, a handler in an options object and one required in place reach their triggers', async () => {
  const found = await findingsOf(fixture('middy-router'));
  assert.match(
    at(found, 'src/handlers/cart.js:9').message,
    /Reached from GET \/carts\/\{cartId\} \(src\/api\.js:7\)\.$/,
  );
  const tally = at(found, 'src/handlers/notify/handler.js:9', 'SL004');
  assert.match(tally.message, /Reached from POST \/carts\/\{cartId\}\/notify \(template\.yaml:46\)\.$/);
  const purge = at(found, 'src/purge-job.cjs:11');
  assert.equal(purge.severity, 'info');
  assert.match(purge.message, /Cold path: runs on rate\(1 day\) \(template\.yaml:57\)/);
});

test('Python: a wrapped Lambda handler takes its template trigger; a view added by add_api_route is a route', async () => {
  const found = await findingsOf(fixture('python-wrapped'));
  const settings = at(found, 'orders/worker.py:13');
  // The queue's trigger, not the signature's guess: read once per batch, one level lower.
  assert.equal(settings.severity, 'warning');
  assert.match(settings.message, /once per batch, not per record/);
  const featured = at(found, 'catalog/store.py:11');
  assert.equal(featured.severity, 'error');
  assert.match(featured.message, /Reached from GET \/featured\/ \(catalog\/routers\/featured\.py:12\)\.$/);
});
