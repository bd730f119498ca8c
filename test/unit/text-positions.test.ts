/**
 * Offsets and line/column positions in a text, as the fixes convert them (apply.ts): worked
 * out from each text's line starts, kept for the last few texts, they must be what walking
 * the text from its top gives, for every position of random texts with LF, CRLF and empty
 * lines, positions past a line's end or the text's, and texts asked about in turn. The engine's
 * points (tree-sitter's rows, which a lone CR also ends) counted on from a known point must be
 * those counted from the top.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { lineOf, offsetAt, positionAt } from '../../server/src/features/fixes/apply';
import { seededRandom } from './seeded-random';
import { pointAfter, pointAt } from '../../server/src/engine/syntax/positions';

/** The walk from the top: the definition the line starts must agree with. */
function offsetByWalk(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 0; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + column, text.length);
}

function positionByWalk(text: string, offset: number): { line: number; column: number } {
  let line = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start };
}

function randomText(next: () => number): string {
  const pieces = ['a', 'bc', ' ', '\n', '\r\n', '\n\n', 'é', '😀'];
  let out = '';
  const n = Math.floor(next() * 60);
  for (let i = 0; i < n; i++) out += pieces[Math.floor(next() * pieces.length)];
  return out;
}

test('offsets, positions and lines from line starts are those a walk from the top gives', () => {
  const next = seededRandom(11);
  // More texts than are kept, asked about in turn: a text asked again after others is right too.
  const texts = Array.from({ length: 40 }, () => randomText(next));
  let checked = 0;
  for (let round = 0; round < 3; round++)
    for (const text of texts) {
      const lines = text.split('\n');
      for (let line = -1; line <= lines.length + 1; line++) {
        assert.equal(lineOf(text, line), lines[line] ?? '', `line ${line} of ${JSON.stringify(text)}`);
        for (let column = 0; column <= 4; column++) {
          assert.equal(offsetAt(text, line, column), offsetByWalk(text, line, column));
          checked++;
        }
      }
      for (let offset = -1; offset <= text.length + 1; offset++)
        assert.deepEqual(positionAt(text, offset), positionByWalk(text, offset), `offset ${offset}`);
    }
  assert.ok(checked > 1000, `positions checked: ${checked}`);
});

test('a point counted on from a known one is the point tree-sitter counts from the top (LF, CRLF, lone CR)', () => {
  const next = seededRandom(12);
  const pieces = ['a', 'bc', '\n', '\r\n', '\r', '\r\r\n', 'é'];
  let checked = 0;
  for (let t = 0; t < 60; t++) {
    let text = '';
    const n = Math.floor(next() * 40);
    for (let i = 0; i < n; i++) text += pieces[Math.floor(next() * pieces.length)];
    for (let from = 0; from <= text.length; from++)
      for (let offset = from; offset <= text.length; offset++) {
        const at = pointAfter(text, pointAt(text, from), from, offset);
        assert.deepEqual(at, pointAt(text, offset), `${JSON.stringify(text)} from ${from} to ${offset}`);
        checked++;
      }
  }
  assert.ok(checked > 5_000, `${checked} pairs checked`);
});
