// A few seconds of the lab's fuzz part (fuzz/lab.ts) with a fixed seed: the
// hostile requests that once answered 500, hung or spun the lab must find
// nothing now. The full run is `npm run fuzz -- --only lab`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeInput, run } from '../../fuzz/lab';

test('inputs are reproducible from the seed and the input number alone', () => {
  const a = makeInput(7, 123);
  const b = makeInput(7, 123);
  assert.deepEqual(a, b);
  assert.notDeepEqual(makeInput(7, 124).body, a.body);
});

test('five seconds of hostile lab requests: no 5xx, no hang, no crash', async (t) => {
  const r = await run({ seed: 1, seconds: 5 });
  t.diagnostic(`${r.inputs} inputs; ${r.notes.join('; ')}`);
  assert.ok(r.inputs >= 200, `only ${r.inputs} inputs in 5 s`);
  assert.deepEqual(r.crashes, []);
  assert.deepEqual(r.hangs, []);
});
