import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeAt, withTree } from '../../server/src/features/fixes/syntax';
import { initParsers } from '../../server/src/engine/syntax/parser';

/**
 * Nodes by span, as the fixes look them up: a span over several lines ends at a column
 * of its own last line, whatever column it started at on the first.
 */
const SOURCE = `export const Schema = {
  models: {
    Score: {
      pk: { type: String, value: 'board#\${board}' },
    },
  },
};
const short = { a: 1 };
`;

/** The node's type and where it starts (0-based line:column). */
function nodeOf(span: { startLine: number; startColumn: number; endLine: number; endColumn: number }): string | null {
  return withTree('schema.ts', SOURCE, (tree) => {
    const n = nodeAt(tree, span);
    return n ? `${n.type} ${n.startPosition.row}:${n.startPosition.column}` : null;
  });
}

test('nodeAt finds an object spanning several lines that ends left of where it starts', async () => {
  await initParsers();
  // `Score: {` opens at line 2 column 11 and its `}` closes at line 4 column 4.
  assert.equal(nodeOf({ startLine: 2, startColumn: 11, endLine: 4, endColumn: 5 }), 'object 2:11');
  // The whole `models` object: from line 1 column 10 to line 5 column 3.
  assert.equal(nodeOf({ startLine: 1, startColumn: 10, endLine: 5, endColumn: 3 }), 'object 1:10');
});

test('nodeAt on one line, and on an empty span, finds the node there', async () => {
  await initParsers();
  assert.equal(nodeOf({ startLine: 7, startColumn: 14, endLine: 7, endColumn: 22 }), 'object 7:14');
  assert.equal(nodeOf({ startLine: 7, startColumn: 6, endLine: 7, endColumn: 6 }), 'identifier 7:6');
});
