// The ast-grep peer's recall and precision on the realistic suite (test/realistic/cases/):
// small repositories in the shapes real projects use, whose expected findings are
// `expect SL0NN` markers on their lines. The bench workspace cannot give this figure (its
// generator keeps counts, not a list of planted traps, and writes most keys inline).
//
//   node --import tsx bench/peer/realistic.ts      (from the repository root)
//
// Each case is written to a folder of its own (a git work tree when the case says so, as
// test/realistic/score.ts does) and scanned with `ast-grep scan -c bench/peer/sgconfig.yml`.
// A match counts by line: it agrees with a marker on the line where the match starts.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Case } from '../../test/realistic/case';
import { expectationsOf } from '../../test/realistic/score';

const ROOT = process.cwd();
const HERE = path.join(ROOT, 'bench', 'peer');
const BIN = path.join(ROOT, 'node_modules', '.bin', 'ast-grep');
const CONFIG = path.join(HERE, 'sgconfig.yml');
/** What the peer's rules are written for: a constant key, a counter's constant key, a date key. */
const IN_SCOPE = new Set(['SL001', 'SL002', 'SL004']);

function writeCase(c: Case, dir: string): void {
  for (const [rel, text] of Object.entries(c.files)) {
    const name = path.basename(rel) === 'gitignore.txt' ? path.join(path.dirname(rel), '.gitignore') : rel;
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  if (c.git) {
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', '-f', '.'], { cwd: dir });
  }
}

/** The lines (`file:line`) the peer matches in one case. */
function peerLines(c: Case): Set<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-peer-'));
  try {
    writeCase(c, dir);
    const out = execFileSync(BIN, ['scan', '-c', CONFIG, '--json=stream', dir], { encoding: 'utf8' });
    const lines = new Set<string>();
    for (const l of out.split('\n').filter((x) => x.trim())) {
      const m = JSON.parse(l) as { file: string; range: { start: { line: number } } };
      lines.add(`${path.relative(dir, m.file).split(path.sep).join('/')}:${m.range.start.line + 1}`);
    }
    return lines;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface Tally {
  cases: number;
  expectedLines: number;
  inScopeLines: number;
  foundLines: number;
  foundInScope: number;
  matches: number;
  agreeing: number;
}

async function main(): Promise<void> {
  const dir = path.join(ROOT, 'test', 'realistic', 'cases');
  const byCategory = new Map<string, Tally>();
  for (const file of fs.readdirSync(dir).sort()) {
    const { cases } = (await import(path.join(dir, file))) as { cases: Case[] };
    const t: Tally = {
      cases: 0,
      expectedLines: 0,
      inScopeLines: 0,
      foundLines: 0,
      foundInScope: 0,
      matches: 0,
      agreeing: 0,
    };
    for (const c of cases) {
      // `file:line` -> the rules expected on it.
      const expected = new Map<string, string[]>();
      for (const e of expectationsOf(c)) {
        const where = e.id.split(' ')[0];
        expected.set(where, [...(expected.get(where) ?? []), e.rule]);
      }
      const got = peerLines(c);
      t.cases++;
      for (const [where, rules] of expected) {
        const scoped = rules.some((r) => IN_SCOPE.has(r));
        t.expectedLines++;
        if (scoped) t.inScopeLines++;
        if (got.has(where)) {
          t.foundLines++;
          if (scoped) t.foundInScope++;
        }
      }
      t.matches += got.size;
      t.agreeing += [...got].filter((w) => expected.has(w)).length;
    }
    byCategory.set(file.replace(/\.ts$/, ''), t);
  }
  const pct = (x: number, n: number) => (n ? `${((100 * x) / n).toFixed(1)}%` : '—');
  const all: Tally = {
    cases: 0,
    expectedLines: 0,
    inScopeLines: 0,
    foundLines: 0,
    foundInScope: 0,
    matches: 0,
    agreeing: 0,
  };
  const rows = [
    '| Category | Cases | Lines expected (in scope) | Found (in scope) | Matches | Agreeing | Recall | Recall in scope | Precision |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const [name, t] of [...byCategory, ['all', all] as [string, Tally]]) {
    if (name !== 'all') for (const k of Object.keys(all) as Array<keyof Tally>) all[k] += t[k];
    rows.push(
      `| ${name} | ${t.cases} | ${t.expectedLines} (${t.inScopeLines}) | ${t.foundLines} (${t.foundInScope}) | ${t.matches} | ${t.agreeing} | ` +
        `${pct(t.foundLines, t.expectedLines)} | ${pct(t.foundInScope, t.inScopeLines)} | ${pct(t.agreeing, t.matches)} |`,
    );
  }
  process.stdout.write(rows.join('\n') + '\n');
}

void main();
