import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { wordOccurrences } from '../../server/src/engine/syntax/word-search';

// The searches replace per-name regular expressions: they must find exactly what those found.
const chars = fc.constantFrom('a', 'b', '$', '.', ' ', '_', '1', '(', 'é', '\n');
const texts = fc.array(chars, { maxLength: 40 }).map((x) => x.join(''));
const names = fc.constantFrom('a', 'ab', 'a_1', '$a', 'b$');
const offsets = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => m.index);

test('JavaScript: a name not after a word character, `$` or `.`, and not before a word character or `$`', () => {
  fc.assert(
    fc.property(texts, names, (text, name) => {
      const re = new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
      assert.deepEqual([...wordOccurrences(text, name, { dollar: true, notAfterDot: true })], offsets(text, re));
    }),
    { numRuns: 5000 },
  );
});

test('Python: a name or an attribute, not inside a longer word', () => {
  fc.assert(
    fc.property(texts, fc.constantFrom('a', 'ab', 'a_1'), (text, name) => {
      const re = new RegExp(`(?<![\\w.])${name}(?!\\w)|(?<=\\.)${name}(?!\\w)`, 'g');
      assert.deepEqual([...wordOccurrences(text, name, { dollar: false, notAfterDot: false })], offsets(text, re));
    }),
    { numRuns: 5000 },
  );
  assert.deepEqual(
    [...wordOccurrences('table.put_item(put_item, xput_item)', 'put_item', { dollar: false, notAfterDot: false })],
    [6, 15],
  );
});
