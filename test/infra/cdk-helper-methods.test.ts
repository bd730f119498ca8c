import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { readCdkFixture } from './read-cdk';
import type { InfraDeclarations } from '../../server/src/engine/model/entry-point';
import { checkJson, FIXTURES } from './check-json';

/**
 * CDK stacks and constructs split into helper methods, as larger apps write them: one
 * method builds the table and returns it, another builds a function from the table it is
 * given and returns it, a third wires that function to an HTTP API route. What a helper
 * returns, and what a helper called once is given, are read as if written inline
 * (TypeScript: cdk-http-helpers; Python: cdk-http-helpers-python).
 */

before(() => initParsers());

const read = readCdkFixture;

const summary = (d: InfraDeclarations) =>
  d.functions
    .map((f) => [f.name, f.triggers.map((t) => t.trigger)])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

test('TypeScript: a function made by a helper, its id a parameter, gets the route another helper adds for it', () => {
  const d = read('cdk-http-helpers/lib/review-routes.ts');
  assert.deepEqual(summary(d), [['PostReview', ['POST /products/{productId}/reviews']]]);
});

test('TypeScript: a helper called for two functions binds neither to the other’s route', () => {
  // Each call gives `fn` another value: the route is not guessed for either.
  const d = read('cdk-http-helpers/lib/admin-routes.ts');
  assert.deepEqual(summary(d), [
    ['HideReview', []],
    ['PurgeReviews', []],
  ]);
});

test('Python: self._create_function(...) and self._add_route(api, path, fn) are read through', () => {
  const d = read('cdk-http-helpers-python/stacks/feed_stack.py');
  assert.deepEqual(summary(d), [['PostActivity', ['POST /activity']]]);
  const env = d.functions[0].environment?.ACTIVITY_TABLE;
  assert.equal(env && 'logicalId' in env ? env.logicalId : null, 'ActivityTable', 'the table the helper returned');
});

for (const [app, handler, index, route] of [
  ['cdk-http-helpers', 'src/handlers/post-review.ts', 'ByNewest', 'POST /products/{productId}/reviews'],
  ['cdk-http-helpers-python', 'functions/feed/post_activity.py', 'Recent', 'POST /activity'],
] as const) {
  test(`shardlens check (${app}): the constant index key is judged on the index the table defines, per request`, () => {
    const report = checkJson(FIXTURES, app);
    const file = `${app}/${handler}`;
    const writes = report.accesses.filter((a) => a.file === file && a.index);
    // Only the defined index: the attribute names (`GSI1PK`, `gsi1_pk`) no longer make up a `GSI1` beside it.
    assert.deepEqual(
      writes.map((a) => a.index),
      [index],
    );
    assert.deepEqual(
      writes[0].entryPoints?.map((e) => e.trigger),
      [route],
    );
    const hot = report.findings.filter((f) => f.file === file && f.severity === 'error');
    assert.deepEqual(
      hot.map((f) => f.rule),
      ['SL012'],
    );
    assert.match(hot[0].message, new RegExp(`Index "${index}" of table`));
  });
}
