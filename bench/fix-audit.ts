// Applies every quick fix ShardLens offers on a tree, one at a time, to a copy of it, and
// checks each: the changed files still type-check (TypeScript 5.9, JavaScript with checkJs)
// or compile (python3 -m py_compile, a self-contained boto3 module imported too), counting
// only complaints the unfixed file did not have; and the engine, run again on the fixed
// copy, no longer reports the finding, reports nothing new (no SL006 above all) and still
// finds every access of the key it found before. Prints a row per fix and the totals.
// Usage: node --import tsx bench/fix-audit.ts <tree>... [--json] [--diff] [--out FILE]

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  collectFiles,
  DEFAULT_MAX_BYTES,
  indexWorkspace,
  initParsers,
  WorkspaceIndex,
  type Finding,
} from '../server/src/engine';
import { applyChanges } from '../server/src/features/fixes/apply';
import { fixContextOf } from '../server/src/features/fixes/context';
import type { FixAction, FixContext } from '../server/src/features/fixes/fix-model';
import { allFixes, blockedFixes } from '../server/src/features/fixes/index';
import {
  accessesOfKey,
  added,
  findingId,
  keyIdOf,
  pyCompile,
  pyImport,
  selfContained,
  typeComplaints,
} from './fix-audit-checks';

export type Outcome =
  'no-fix' | 'ok' | 'type-errors' | 'python-errors' | 'new-findings' | 'lost-accesses' | 'not-fixed' | 'failed';

export interface Row {
  repo: string;
  at: string;
  rule: string;
  fix: string;
  title: string;
  outcome: Outcome;
  /** What went wrong, one line each: the new complaints, the new findings, the lost accesses. */
  details: string[];
  /** With --diff: what the fix changed, as `diff -u` shows it. */
  diff?: string;
}

interface Indexed {
  index: WorkspaceIndex;
  ctx: FixContext;
  findings: Finding[];
}

/** Indexes a tree as `shardlens check` does: templates first, every file, then the workspace passes. */
async function indexTree(root: string): Promise<Indexed> {
  await initParsers();
  const list = collectFiles([root]);
  const index = new WorkspaceIndex({ root });
  await indexWorkspace(index, list, { maxBytes: DEFAULT_MAX_BYTES });
  const ctx = fixContextOf(index, { shards: { defaultCount: 10, peakWriteUnits: 0 } });
  return { index, ctx, findings: index.results().flatMap((r) => r.findings) };
}

/** A copy of the tree without its VCS folder and installed packages. */
function copyTree(tree: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fix-audit-${path.basename(tree)}-`));
  const skip = new Set(['.git', 'node_modules', '.venv', 'venv', '__pycache__']);
  fs.cpSync(tree, dir, { recursive: true, filter: (src) => !skip.has(path.basename(src)) });
  return dir;
}

/** Writes an action's changes; returns each changed file's text before (null: the file is new). */
function apply(ctx: FixContext, action: FixAction): Map<string, string | null> {
  const byFile = new Map<string, FixAction['changes']>();
  for (const c of action.changes) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  const before = new Map<string, string | null>();
  const texts = [...byFile].map(([file, changes]) => {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    before.set(file, text);
    return [file, applyChanges(text ?? '', changes)] as const;
  });
  for (const [file, text] of texts) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return before;
}

function restore(before: Map<string, string | null>): void {
  for (const [file, text] of before) {
    if (text === null) fs.rmSync(file, { force: true });
    else fs.writeFileSync(file, text);
  }
}

let showDiff = false;

/** `diff -u` of each changed file, before against after. */
function diffOf(root: string, before: Map<string, string | null>, after: Map<string, string>): string {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fix-audit-diff-'));
  try {
    return [...before]
      .map(([file, text]) => {
        const rel = path.relative(root, file);
        fs.writeFileSync(path.join(tmp, 'a'), text ?? '');
        fs.writeFileSync(path.join(tmp, 'b'), after.get(file) ?? '');
        const r = spawnSync('diff', ['-u', '--label', `a/${rel}`, '--label', `b/${rel}`, 'a', 'b'], { cwd: tmp });
        return r.stdout.toString();
      })
      .join('');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const isScript = (f: string) => /\.(m|c)?(ts|js)x?$/.test(f) && !f.endsWith('.d.ts');

/** New compiler complaints in the changed files: after the fix, against the same files before it. */
function compileCheck(
  root: string,
  before: Map<string, string | null>,
): { outcome: Outcome | null; details: string[] } {
  const scripts = [...before.keys()].filter(isScript);
  const after = typeComplaints(scripts, root);
  const old = new Map<string, string[]>();
  restore(new Map([...before].filter(([f]) => isScript(f))));
  const unfixed = typeComplaints(
    scripts.filter((f) => before.get(f) !== null),
    root,
  );
  for (const [f, said] of unfixed) old.set(f, said);
  const typeErrors = scripts.flatMap((f) =>
    added(old.get(f) ?? [], after.get(f) ?? []).map((e) => `${path.relative(root, f)}: ${e}`),
  );
  if (typeErrors.length) return { outcome: 'type-errors', details: typeErrors };
  return { outcome: null, details: [] };
}

function pythonCheck(root: string, before: Map<string, string | null>, fixedTexts: Map<string, string>) {
  const details: string[] = [];
  for (const [file, original] of before) {
    if (!file.endsWith('.py')) continue;
    fs.writeFileSync(file, fixedTexts.get(file)!);
    const compiled = pyCompile(file);
    if (compiled) details.push(`${path.relative(root, file)}: ${compiled}`);
    else if (original !== null && selfContained(original)) {
      const imported = pyImport(file);
      if (imported) {
        fs.writeFileSync(file, original);
        if (!pyImport(file)) details.push(`${path.relative(root, file)}: import: ${imported}`);
      }
    }
  }
  return details;
}

/** Applies one action to the copy and checks it; the copy is as it was afterwards. */
async function audit(repo: string, root: string, ws: Indexed, finding: Finding, action: FixAction): Promise<Row> {
  const at = `${path.relative(root, finding.file)}:${finding.span.startLine + 1}`;
  const row: Row = { repo, at, rule: finding.rule, fix: action.id, title: action.title, outcome: 'ok', details: [] };
  let before: Map<string, string | null>;
  try {
    before = apply(ws.ctx, action);
  } catch (e) {
    return { ...row, outcome: 'failed', details: [String((e as Error).message ?? e)] };
  }
  const fixedTexts = new Map([...before.keys()].map((f) => [f, fs.readFileSync(f, 'utf8')]));
  if (showDiff) row.diff = diffOf(root, before, fixedTexts);
  try {
    const key = keyIdOf(finding.access);
    const accessesBefore = accessesOfKey(ws.index.results(), key, root);
    const fixed = await indexTree(root);
    const results = fixed.index.results();
    const ids = fixed.findings.map((f) => findingId(f, root));
    const newFindings = added(
      ws.findings.map((f) => findingId(f, root)),
      ids,
    );
    const lost = added(accessesOfKey(results, key, root), accessesBefore);
    const unparsed = results.filter((r) => r.syntaxErrors && before.has(r.file)).map((r) => r.file);
    const same = fixed.findings.find((f) => findingId(f, root) === findingId(finding, root));
    const stillOffered = same && allFixes(same, fixed.ctx).some((a) => a.id === action.id);
    const python = pythonCheck(root, before, fixedTexts);
    const compiled = compileCheck(root, before);
    if (python.length) return { ...row, outcome: 'python-errors', details: python };
    if (compiled.outcome) return { ...row, outcome: compiled.outcome, details: compiled.details };
    if (unparsed.length) return { ...row, outcome: 'type-errors', details: unparsed.map((f) => `${f}: syntax errors`) };
    if (newFindings.length) return { ...row, outcome: 'new-findings', details: newFindings };
    if (lost.length) return { ...row, outcome: 'lost-accesses', details: lost };
    // The cache fix leaves the read reported (it is still read-hot) and says it is cached.
    if (same && (action.id !== 'cache-read' || stillOffered))
      return { ...row, outcome: 'not-fixed', details: [findingId(same, root)] };
    return row;
  } catch (e) {
    return { ...row, outcome: 'failed', details: [String((e as Error).stack ?? e).split('\n')[0]] };
  } finally {
    restore(before);
  }
}

function noFix(repo: string, root: string, finding: Finding, offered: FixAction[]): Row {
  const at = `${path.relative(root, finding.file)}:${finding.span.startLine + 1}`;
  const reasons = [...new Set(offered.map((a) => a.title))];
  return { repo, at, rule: finding.rule, fix: '', title: '(none)', outcome: 'no-fix', details: reasons };
}

export async function auditTree(tree: string): Promise<{ rows: Row[]; findings: number; withFixes: number }> {
  const repo = path.basename(path.resolve(tree));
  const root = copyTree(path.resolve(tree));
  try {
    const ws = await indexTree(root);
    const rows: Row[] = [];
    let withFixes = 0;
    for (const finding of ws.findings) {
      const offered = allFixes(finding, ws.ctx);
      const actions = offered.filter((a) => a.changes.length > 0);
      if (actions.length) withFixes++;
      // A finding with no fix is listed with what the light bulb says instead (a blocked fix's reason).
      else rows.push(noFix(repo, root, finding, [...offered, ...blockedFixes(finding, ws.ctx)]));
      for (const action of actions) rows.push(await audit(repo, root, ws, finding, action));
    }
    return { rows, findings: ws.findings.length, withFixes };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const OUTCOMES: Outcome[] = [
  'no-fix',
  'ok',
  'type-errors',
  'python-errors',
  'new-findings',
  'lost-accesses',
  'not-fixed',
  'failed',
];

function totalsOf(rows: Row[]) {
  return Object.fromEntries(OUTCOMES.map((o) => [o, rows.filter((r) => r.outcome === o).length]));
}

function textReport(repos: { repo: string; findings: number; withFixes: number }[], rows: Row[]): string {
  const lines = ['repo | file:line | rule | fix | outcome', '--- | --- | --- | --- | ---'];
  for (const r of rows) {
    lines.push(`${r.repo} | ${r.at} | ${r.rule} | ${r.title} | ${r.outcome}`);
    for (const d of r.details.slice(0, 5)) lines.push(`    ${d}`);
    if (r.diff) lines.push(r.diff.replace(/^/gm, '    ').trimEnd());
  }
  const findings = repos.reduce((n, r) => n + r.findings, 0);
  const withFixes = repos.reduce((n, r) => n + r.withFixes, 0);
  const totals = totalsOf(rows);
  const applied = rows.filter((r) => r.outcome !== 'no-fix');
  lines.push(
    '',
    `${repos.length} trees, ${findings} findings, ${withFixes} with fixes, ${applied.length} fixes applied`,
    OUTCOMES.map((o) => `${o} ${totals[o]}`).join(', '),
  );
  return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  showDiff = args.includes('--diff');
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? args[outAt + 1] : null;
  const trees = args.filter((a, i) => !a.startsWith('--') && (outAt < 0 || i !== outAt + 1));
  if (trees.length === 0) {
    process.stderr.write('usage: node --import tsx bench/fix-audit.ts <tree>... [--json] [--diff] [--out FILE]\n');
    process.exitCode = 2;
    return;
  }
  const repos: { repo: string; findings: number; withFixes: number }[] = [];
  const rows: Row[] = [];
  for (const tree of trees) {
    if (!fs.existsSync(tree)) {
      process.stderr.write(`fix-audit: ${tree}: no such folder\n`);
      continue;
    }
    const result = await auditTree(tree);
    repos.push({ repo: path.basename(path.resolve(tree)), findings: result.findings, withFixes: result.withFixes });
    rows.push(...result.rows);
    const applied = result.rows.filter((r) => r.outcome !== 'no-fix').length;
    process.stderr.write(`fix-audit: ${tree}: ${result.findings} findings, ${applied} fixes applied\n`);
  }
  const report = json
    ? JSON.stringify({ repos, rows, totals: totalsOf(rows) }, null, 2) + '\n'
    : textReport(repos, rows);
  if (out) fs.writeFileSync(out, report);
  else process.stdout.write(report);
}

if (require.main === module) void main();
