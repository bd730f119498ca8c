import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { NameScan } from '../../server/src/engine/syntax/candidates';
import { CALL_START as JS_CALL_START } from '../../server/src/engine/frontends/js/calls';
import { CALL_START as PY_CALL_START } from '../../server/src/engine/frontends/python/calls';

/** Pieces of code the candidate patterns care about, and the characters that end their matches. */
const TOKENS = [
  'new',
  'new ',
  ' ',
  '\n',
  '\n  ',
  'Foo',
  'PutCommand',
  'QueryCommand',
  'COMMANDS',
  'paginateQuery',
  'put',
  'put_item',
  'query',
  'batch_writer',
  '.',
  '(',
  ')',
  '[',
  ']',
  "'put'",
  '"get"',
  'action',
  '$x',
  '1',
  ';',
  '{',
  '}',
  ',',
  '=',
  ':',
];

const text = fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((t) => t.join(''));
const edit = fc.record({
  at: fc.nat(),
  cut: fc.nat({ max: 10 }),
  insert: fc.oneof(
    fc.array(fc.constantFrom(...TOKENS), { maxLength: 4 }).map((t) => t.join('')),
    fc.string(),
  ),
});

for (const [language, pattern] of [
  ['JavaScript', JS_CALL_START],
  ['Python', PY_CALL_START],
] as const) {
  test(`${language}: the candidate scan kept across edits finds what a whole scan of the text finds`, () => {
    fc.assert(
      fc.property(
        text,
        fc.array(fc.array(edit, { maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        (start, batches) => {
          const kept = new NameScan();
          let current = start;
          assert.deepEqual(kept.offsets(current, pattern), new NameScan().offsets(current, pattern));
          // Several edits between two scans, as an editor sends keystrokes within one pause.
          for (const batch of batches) {
            for (const e of batch) {
              const from = e.at % (current.length + 1);
              const to = Math.min(current.length, from + e.cut);
              current = current.slice(0, from) + e.insert + current.slice(to);
              kept.edit(from, to, e.insert.length);
            }
            assert.deepEqual(kept.offsets(current, pattern), new NameScan().offsets(current, pattern));
          }
        },
      ),
      { numRuns: Number(process.env.SHARDLENS_PROPERTY_RUNS ?? 300) * 3 },
    );
  });
}
