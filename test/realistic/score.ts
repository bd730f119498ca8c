import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { initParsers } from '../../server/src/engine/parser';
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
 * Expectations are markers in the case's own lines: `expect SL001` in a comment on the
 * line the finding belongs on. A line without a marker expects nothing.
 */

export interface Outcome {
  name: string;
  category: string;
  expected: string[];
  /** Findings counted: warning or error, and any finding a marker expects (SL005 is info by design). */
  reported: string[];
  missed: string[];
  extra: string[];
}

const MARKER = /\bexpect((?:\s+SL\d{3})+)/;

export function expectationsOf(c: Case): string[] {
  const out: string[] = [];
  for (const [file, text] of Object.entries(c.files)) {
    text.split('\n').forEach((line, i) => {
      const m = MARKER.exec(line);
      if (m) for (const rule of m[1].trim().split(/\s+/)) out.push(`${file}:${i + 1} ${rule}`);
    });
  }
  return out.sort();
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

export async function runCase(c: Case, category: string): Promise<Outcome> {
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-realistic-'));
  try {
    writeCase(c, dir);
    const index = new WorkspaceIndex({ root: dir });
    index.analyzeAll(collectFiles([dir]).files);
    const expected = expectationsOf(c);
    const want = new Set(expected);
    const reported: string[] = [];
    for (const r of index.results()) {
      for (const f of r.findings) {
        const id = `${path.relative(dir, f.file).split(path.sep).join('/')}:${f.span.startLine + 1} ${f.rule}`;
        if (f.severity !== 'info' || want.has(id)) reported.push(id);
      }
    }
    reported.sort();
    const got = new Set(reported);
    return {
      name: c.name,
      category,
      expected,
      reported,
      missed: expected.filter((e) => !got.has(e)),
      extra: reported.filter((r) => !want.has(r)),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface Score {
  category: string;
  cases: number;
  expected: number;
  found: number;
  reported: number;
  /** found / expected; null when nothing is expected. */
  recall: number | null;
  /** true findings / reported; null when nothing is reported. */
  precision: number | null;
}

export function score(category: string, outcomes: Outcome[]): Score {
  const expected = outcomes.reduce((n, o) => n + o.expected.length, 0);
  const missed = outcomes.reduce((n, o) => n + o.missed.length, 0);
  const reported = outcomes.reduce((n, o) => n + o.reported.length, 0);
  const extra = outcomes.reduce((n, o) => n + o.extra.length, 0);
  const found = expected - missed;
  return {
    category,
    cases: outcomes.length,
    expected,
    found,
    reported,
    recall: expected ? found / expected : null,
    precision: reported ? (reported - extra) / reported : null,
  };
}

const pct = (x: number | null) => (x === null ? '   —  ' : `${(100 * x).toFixed(1).padStart(5)}%`);

export function table(scores: Score[]): string {
  const head = 'category              cases  expected  found  reported  recall  precision';
  const rows = scores.map(
    (s) =>
      `${s.category.padEnd(20)} ${String(s.cases).padStart(6)} ${String(s.expected).padStart(9)} ` +
      `${String(s.found).padStart(6)} ${String(s.reported).padStart(9)}  ${pct(s.recall)}  ${pct(s.precision)}`,
  );
  return [head, ...rows].join('\n');
}
