import assert from 'node:assert/strict';

const CLIP = 300;

function clip(line: string | undefined): string {
  if (line === undefined) return '(no line)';
  return line.length > CLIP ? `${line.slice(0, CLIP)}…` : line;
}

/**
 * Asserts two whole reports are the same text. On a difference it names the first line that
 * differs: `assert.equal` would diff the two texts in full, which for reports of a few
 * hundred KB takes the test runner many minutes before the failure shows.
 */
export function assertSameText(actual: string, expected: string, what = 'output'): void {
  if (actual === expected) return;
  const a = actual.split('\n');
  const e = expected.split('\n');
  let i = 0;
  while (i < a.length && i < e.length && a[i] === e[i]) i++;
  // One long line (compact JSON): the first character that differs instead.
  let at = 0;
  while (at < (a[i] ?? '').length && a[i][at] === e[i]?.[at]) at++;
  const from = Math.max(0, at - 80);
  assert.fail(
    `${what} differs at line ${i + 1} of ${e.length} (character ${at + 1}):\n` +
      `  expected: ${clip(e[i]?.slice(from))}\n  actual:   ${clip(a[i]?.slice(from))}`,
  );
}
