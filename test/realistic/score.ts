import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SeverityOverrides } from '../../server/src/engine/rules';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import type { Case } from './case';

/**
 * Runs the engine over one realistic case as a user would: the case's files are
 * written to a folder of their own (a repository of their own: no folder above it
 * names it a test), listed as `shardlens check` lists them, and indexed together so
 * imports and cross-file rules work. A case marked `git` becomes a git work tree
 * whose files are all tracked, `.gitignore` (written as `gitignore.txt`) included.
 *
 * Expectations are markers in the case's own lines: `expect SL001:error` in a comment
 * on the line the finding belongs on, the rule and the severity a user should see.
 * A line without a marker expects nothing.
 */

export type Severity = 'error' | 'warning' | 'info';

/** One finding, expected or reported: `src/a.ts:12 SL001` at a severity. */
export interface Mark {
  /** `file:line rule`, the finding without its severity. */
  id: string;
  rule: string;
  severity: Severity;
}

export interface Outcome {
  name: string;
  category: string;
  expected: Mark[];
  /** Every finding the engine reported, info included. */
  reported: Mark[];
  /** Expected findings not reported at their marked severity (`weaker` says which came lower). */
  missed: Mark[];
  /** Expected findings reported, but at another severity than marked: a subset of `missed`. */
  wrongSeverity: Array<{ expected: Mark; got: Severity }>;
  /** Unexpected warnings and errors: these count against precision. */
  extra: Mark[];
  /** Unexpected info findings: counted in a bar of their own. */
  infoExtra: Mark[];
}

const SEVERITIES = '(?:error|warning|info)';
const MARKER = new RegExp(`\\bexpect((?:\\s+SL\\d{3}(?::\\w+)?)+)`);
const TERM = new RegExp(`^(SL\\d{3}):(${SEVERITIES})$`);

export const show = (m: Mark) => `${m.id}:${m.severity}`;

export function expectationsOf(c: Case): Mark[] {
  const out: Mark[] = [];
  for (const [file, text] of Object.entries(c.files)) {
    text.split('\n').forEach((line, i) => {
      const m = MARKER.exec(line);
      if (!m) return;
      for (const term of m[1].trim().split(/\s+/)) {
        // The severity is part of what a reviewer expects: a marker without one is a mistake.
        const t = TERM.exec(term);
        if (!t) throw new Error(`${c.name}: ${file}:${i + 1}: marker '${term}' must be RULE:severity`);
        out.push({ id: `${file}:${i + 1} ${t[1]}`, rule: t[1], severity: t[2] as Severity });
      }
    });
  }
  return out.sort((a, b) => show(a).localeCompare(show(b)));
}

function writeCase(c: Case, dir: string): void {
  for (const [rel, text] of Object.entries(c.files)) {
    const name = path.basename(rel) === 'gitignore.txt' ? path.join(path.dirname(rel), '.gitignore') : rel;
    const full = path.join(dir, name);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
  }
  if (c.git) {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-f', '.');
  }
}

/** Compares what a case expects with what the engine reported (pure: the self-check re-scores with it). */
export function compare(name: string, category: string, expected: Mark[], reported: Mark[]): Outcome {
  const byId = new Map(reported.map((r) => [r.id, r] as const));
  const wanted = new Set(expected.map((e) => e.id));
  const missed: Mark[] = [];
  const wrongSeverity: Outcome['wrongSeverity'] = [];
  for (const e of expected) {
    const got = byId.get(e.id);
    if (got?.severity === e.severity) continue;
    missed.push(e);
    if (got) wrongSeverity.push({ expected: e, got: got.severity });
  }
  const unexpected = reported.filter((r) => !wanted.has(r.id));
  return {
    name,
    category,
    expected,
    reported,
    missed,
    wrongSeverity,
    extra: unexpected.filter((r) => r.severity !== 'info'),
    infoExtra: unexpected.filter((r) => r.severity === 'info'),
  };
}

export async function runCase(c: Case, category: string, severity?: SeverityOverrides): Promise<Outcome> {
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-realistic-'));
  try {
    writeCase(c, dir);
    const index = new WorkspaceIndex({ root: dir, severity });
    index.analyzeAll(collectFiles([dir]).files);
    const reported: Mark[] = [];
    for (const r of index.results()) {
      for (const f of r.findings) {
        const id = `${path.relative(dir, f.file).split(path.sep).join('/')}:${f.span.startLine + 1} ${f.rule}`;
        reported.push({ id, rule: f.rule, severity: f.severity });
      }
    }
    reported.sort((a, b) => show(a).localeCompare(show(b)));
    return compare(c.name, category, expectationsOf(c), reported);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface Score {
  /** A category, a rule, or `total`. */
  label: string;
  cases: number;
  expected: number;
  found: number;
  /** Warnings and errors reported, and expected info findings. */
  reported: number;
  /** found / expected; null when nothing is expected. */
  recall: number | null;
  /** (reported - extra) / reported; null when nothing is reported. */
  precision: number | null;
  /** Unexpected info findings. */
  infoExtra: number;
}

/** Scores the outcomes, or only one rule's marks in them when `rule` is given. */
export function score(label: string, outcomes: Outcome[], rule?: string): Score {
  const of = (marks: Mark[]) => (rule ? marks.filter((m) => m.rule === rule) : marks);
  let expected = 0;
  let missed = 0;
  let extra = 0;
  let infoExtra = 0;
  for (const o of outcomes) {
    expected += of(o.expected).length;
    missed += of(o.missed).length;
    extra += of(o.extra).length;
    infoExtra += of(o.infoExtra).length;
  }
  const found = expected - missed;
  // Precision is over what a user is shown as a problem: the warnings and errors, and
  // the findings the markers ask for (an expected info finding counts when reported).
  const reported = outcomes.reduce((n, o) => n + of(o.reported).length - of(o.infoExtra).length, 0);
  return {
    label,
    cases: outcomes.length,
    expected,
    found,
    reported,
    recall: expected ? found / expected : null,
    precision: reported ? (reported - extra) / reported : null,
    infoExtra,
  };
}

const pct = (x: number | null) => (x === null ? '   —  ' : `${(100 * x).toFixed(1).padStart(5)}%`);

export function table(scores: Score[]): string {
  const head = 'category              cases  expected  found  reported  recall  precision  info extra';
  const rows = scores.map(
    (s) =>
      `${s.label.padEnd(20)} ${String(s.cases).padStart(6)} ${String(s.expected).padStart(9)} ` +
      `${String(s.found).padStart(6)} ${String(s.reported).padStart(9)}  ${pct(s.recall)}  ${pct(s.precision)}` +
      `  ${String(s.infoExtra).padStart(10)}`,
  );
  return [head, ...rows].join('\n');
}
