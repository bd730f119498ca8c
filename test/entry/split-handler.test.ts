/**
 * A route the template and the handler's signature both name: the template's function is
 * `index.handle = middyfy({ handler })`, and `handler` (an exported `async (event) => …`,
 * a Lambda handler by its signature) lives in `./handler`, which `index.js` imports. The read
 * is reached from the template's route alone, not from a second, guessed Lambda entry.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf, fixture } from './helpers';

test("a handler the template's function wraps from another module is one entry point, the template's", async () => {
  const found = await findingsOf(fixture('middy-split-handler'));
  const low = at(found, 'app/src/handlers/stock/handler.js:12');
  // Before: "read at 1 call site (from 2 entry points)", the route and `handler` as a Lambda of its own.
  assert.match(low.message, /read at 1 call site \(from 1 entry point\)/);
  assert.match(low.message, /Reached from GET \/stock\/low \(template\.yaml:36\)\.$/);
  assert.equal(low.related?.filter((r) => /handler\.js$/.test(r.file) && /Lambda/.test(r.message)).length ?? 0, 0);
});
