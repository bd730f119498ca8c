import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Finding, projectRootOf } from '../../../engine';
import type { FixAction, FixContext } from '../fix-model';
import { styledLike } from '../quote-style';
import { nodeBackfillScript } from './node-script';
import { backfillPlanOf, type BackfillPlan } from './plan';
import { pythonBackfillScript } from './python-script';

/**
 * The backfill that goes with a shard fix: a script, written into the project's
 * `scripts/` folder, that moves the items the table already holds under the key's bare
 * value to the shards the fixed code reads. Without it a shard fix applied to a table in
 * use hides those items from every fixed reader, and a calculated suffix's updates write
 * second items beside them (docs/fixes.md, "Before you deploy"). Offered beside each shard
 * fix with that fix's own count and hashed attribute, so the two agree.
 */
export function backfillAction(finding: Finding, fix: FixAction, ctx: FixContext): FixAction | null {
  const project = projectRootOf(finding.file) || repositoryRootOf(finding.file) || path.dirname(finding.file);
  const plan = backfillPlanOf(finding, fix, project);
  if ('blocked' in plan) return null;
  const file = scriptFile(plan, finding.file, ctx);
  const script =
    plan.script.language === 'python'
      ? pythonBackfillScript(plan, path.basename(file))
      : nodeBackfillScript(plan, path.basename(file));
  // In the quotes (and JS indent step) of the code it serves, as a reader in a new file is.
  const text = styledLike(file, ctx.textOf(finding.file), script);
  const to =
    plan.method === 'hash'
      ? `hash(${plan.hashAttribute}) mod ${plan.count}`
      : `the random suffix's ${plan.count} shards`;
  return {
    title: `Generate a backfill script: move items under "${plan.shown}" to ${to}`,
    id: `${fix.id}-backfill`,
    rule: finding.rule,
    safe: false,
    asks: fix.asks,
    changes: [{ file, span: { startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 }, newText: text }],
    reveal: { file, span: { startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 } },
  };
}

/** `<project>/scripts/backfill-tickets-open.mjs`, numbered when a file of that name exists. */
function scriptFile(plan: BackfillPlan, fixed: string, ctx: FixContext): string {
  const slug =
    (plan.literal ?? plan.prefix ?? plan.attribute)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || plan.attribute.toLowerCase();
  const ext = plan.script.language === 'python' ? '.py' : plan.script.sdk === 'v2' ? '.cjs' : '.mjs';
  // A Python module's name takes underscores (a script may be imported by its tests).
  const base = plan.script.language === 'python' ? `backfill_${slug.replace(/-/g, '_')}` : `backfill-${slug}`;
  const folder = scriptsFolder(plan.project, fixed);
  for (let n = 1; ; n++) {
    const file = path.join(folder, `${base}${n > 1 ? `-${n}` : ''}${ext}`);
    if (ctx.textOf(file) === null) return file;
  }
}

/**
 * Where the project keeps its scripts: the nearest `scripts/` folder that exists between the
 * fixed file and the project's root (`backend/scripts/` for `backend/src/db.py`), else a new
 * `scripts/` at the root.
 */
function scriptsFolder(project: string, fixed: string): string {
  for (let dir = path.dirname(fixed); dir.startsWith(project); dir = path.dirname(dir)) {
    if (isFolder(path.join(dir, 'scripts'))) return path.join(dir, 'scripts');
    if (dir === project) break;
  }
  return path.join(project, 'scripts');
}

/** The folder holding `.git` above a file (a repository with no package or Python project file at its root). */
function repositoryRootOf(file: string): string | null {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

const isFolder = (p: string) => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};
