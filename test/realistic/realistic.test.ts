import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Case } from './case';
import { cases as r0_direct } from './cases/r0-direct';
import { cases as r1_wrapper } from './cases/r1-wrapper';
import { cases as r2_mutation } from './cases/r2-mutation';
import { cases as r3_index } from './cases/r3-index';
import { cases as r4_legacy } from './cases/r4-legacy';
import { cases as r5_branches } from './cases/r5-branches';
import { cases as r6_names } from './cases/r6-names';
import { cases as r7_anchor } from './cases/r7-anchor';
import { cases as r8_git } from './cases/r8-git';
import { cases as r9_layers } from './cases/r9-layers';
import { cases as r10_shared_utils } from './cases/r10-shared-utils';
import { cases as r11_next_app } from './cases/r11-next-app';
import { cases as p1_params } from './cases/p1-params';
import { cases as p2_context } from './cases/p2-context';
import { cases as p3_values } from './cases/p3-values';
import { cases as p4_cross_file } from './cases/p4-cross-file';
import { cases as p5_layers_quiet } from './cases/p5-layers-quiet';
import { cases as p6_key_shapes } from './cases/p6-key-shapes';
import { cases as p7_rules } from './cases/p7-rules';
import { checkBars, ruleScores, rulesOverride, selfCheck } from './bars';
import { runCase, score, show, table, type Outcome } from './score';

/**
 * The realistic suite: small repositories in the shapes real projects use, each with
 * the findings a reviewer expects, rule and severity. Recall and precision are held to
 * bars over all cases and for every rule (bars.ts); an expected finding reported at
 * another severity than marked is a miss, and unexpected info findings have a bar of
 * their own. The tables and every miss or extra finding are printed, so a run says
 * which shapes the engine does not follow yet.
 */
const SUITE: Array<[string, Case[]]> = [
  ['r0-direct', r0_direct],
  ['r1-wrapper', r1_wrapper],
  ['r2-mutation', r2_mutation],
  ['r3-index', r3_index],
  ['r4-legacy', r4_legacy],
  ['r5-branches', r5_branches],
  ['r6-names', r6_names],
  ['r7-anchor', r7_anchor],
  ['r8-git', r8_git],
  ['r9-layers', r9_layers],
  ['r10-shared-utils', r10_shared_utils],
  ['r11-next-app', r11_next_app],
  ['p1-params', p1_params],
  ['p2-context', p2_context],
  ['p3-values', p3_values],
  ['p4-cross-file', p4_cross_file],
  ['p5-layers-quiet', p5_layers_quiet],
  ['p6-key-shapes', p6_key_shapes],
  ['p7-rules', p7_rules],
];

function report(outcomes: Outcome[]): string {
  const byCategory = SUITE.map(([category]) =>
    score(
      category,
      outcomes.filter((o) => o.category === category),
    ),
  );
  const total = score('total', outcomes);
  const lines = [table([...byCategory, total]), '', table(ruleScores(outcomes)).replace('category', 'rule    '), ''];
  for (const o of outcomes) {
    if (o.missed.length === 0 && o.extra.length === 0 && o.infoExtra.length === 0) continue;
    lines.push(`${o.category} / ${o.name}`);
    for (const m of o.missed) {
      const wrong = o.wrongSeverity.find((w) => w.expected === m);
      lines.push(`    missed ${show(m)}${wrong ? ` (reported as ${wrong.got})` : ''}`);
    }
    for (const e of o.extra) lines.push(`    extra  ${show(e)}`);
    for (const e of o.infoExtra) lines.push(`    info   ${show(e)}`);
  }
  return lines.join('\n');
}

test('realistic suite: recall and precision per category and per rule', async () => {
  const severity = rulesOverride();
  const outcomes: Outcome[] = [];
  for (const [category, cases] of SUITE) for (const c of cases) outcomes.push(await runCase(c, category, severity));
  console.log(report(outcomes));
  assert.ok(outcomes.length >= 80, `at least 80 cases (${outcomes.length})`);
  assert.deepEqual(checkBars(outcomes), [], 'every bar met');
  // The bars must catch any one rule vanishing or falling to info on this very run.
  assert.deepEqual(selfCheck(outcomes), [], 'each rule, switched off or reported as info, fails a bar');
});
