import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fittedPythonChange } from '../../server/src/features/fixes/fitted-call';

// A read replaced by a longer expression inside the line that used it (the summing reader's
// answer in place of a GetItem): the line is fitted as black fits it only when it grows past
// the width, and never across a comment.
const file = 'results.py';
const text = [
  'def handler(event, context):',
  '    total = db.vote_counters.get_item(Key={"PK": "VOTES#all"}).get("Item", {})',
  '    return total',
  '',
].join('\n');
const read = 'db.vote_counters.get_item(Key={"PK": "VOTES#all"})';
const span = { startLine: 1, startColumn: 12, endLine: 1, endColumn: 12 + read.length };
const answer = '{"Item": {"PK": "VOTES#all", "votes": read_votes_total()}}';

test('a replacement that keeps the line within the width is the plain change', () => {
  assert.deepEqual(fittedPythonChange(file, text, span, 'read_total()', '    ', 88), {
    file,
    span,
    newText: 'read_total()',
  });
});

test('a replacement that takes the line past the width splits its last brackets, as black does', () => {
  const change = fittedPythonChange(file, text, span, answer, '    ', 80);
  assert.deepEqual(change.span, { startLine: 1, startColumn: 0, endLine: 1, endColumn: 78 });
  assert.equal(
    change.newText,
    ['    total = {"Item": {"PK": "VOTES#all", "votes": read_votes_total()}}.get(', '        "Item", {}', '    )'].join(
      '\n',
    ),
  );
});

test('a line with a comment after the replacement is left as the plain change', () => {
  const commented = text.replace('.get("Item", {})', '.get("Item", {})  # the running total');
  assert.deepEqual(fittedPythonChange(file, commented, span, answer, '    ', 80).span, span);
  // A `#` inside a string is no comment.
  const hashInString = text.replace('.get("Item", {})', '.get("Item#1", {})');
  assert.equal(fittedPythonChange(file, hashInString, span, answer, '    ', 80).span.startColumn, 0);
});
