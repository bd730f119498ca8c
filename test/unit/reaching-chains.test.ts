/**
 * Which assignments reach a use (frontends/reaching.ts) in the shape a hand-written parser
 * takes: a variable set in a twelve-way `if`/`else if` chain with `if`/`else` inside some
 * branches, used after it in a loop. A public monorepo's parser of this shape took 100 ms a
 * lookup, asked for again and again. The work is counted in ancestors walked and edges read (a
 * count, not a time), and the findings are those of the chain: each operator's key is one of ten.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyzeSource } from '../../server/src/engine/analyze';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { reachingWork } from '../../server/src/engine/frontends/reaching';

const FILE = path.join(__dirname, '..', 'fixtures', 'reaching-chains', 'comparisons.ts');

test('an operator set in a twelve-way else-if chain is followed in a few thousand steps, with its findings', async () => {
  await initParsers();
  const before = { ...reachingWork };
  const a = analyzeSource('src/comparisons.ts', fs.readFileSync(FILE, 'utf8'), 'typescript');
  const steps = reachingWork.steps - before.steps;
  const edges = reachingWork.edges - before.edges;
  // 73,085 steps when each ancestor of each assignment met the use anew, for each assignment added.
  assert.ok(steps < 10_000, `${steps} ancestors walked`);
  // 2,533 edges when each ancestor's path to where it meets the use was read again from it.
  assert.ok(edges < 1_500, `${edges} edges read`);
  assert.deepEqual(
    a.findings.map((f) => [f.rule, f.span.startLine]),
    [
      ['SL003', 78],
      ['SL005', 78],
    ],
  );
  // Every operator the chain assigns reaches the key.
  assert.match(a.findings[0].message, /OPERATOR#\{low-cardinality\}/);
});
