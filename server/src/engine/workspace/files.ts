import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { diskFiles, isInfrastructureCandidate } from '../frontends/infra';
import { languageForFile } from '../syntax/parser';
import { APP_CONFIGS, inCdkFolder } from './cdk-source';
import { ignoredByScopes, parseGitignore, type IgnoreScope } from './gitignore';
import { installedIn, installedInListing, isInstalled } from './installed-packages';
import { isCompiledBeside } from './compiled-output';

/** The files that make a folder an app of infrastructure code (`cdk` runs the app there; SST reads its config). */
const APP_MARKERS = new Set(APP_CONFIGS);

/** Folders that never hold the project's own source. */
export const SKIPPED_DIRS = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  'dist',
  'out',
  'build',
  'coverage',
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.tox',
  '.next',
  '.cache',
  'cdk.out',
  '.terraform',
  '.aws-sam',
  '.serverless',
]);

/**
 * A folder that never holds the project's own source, by its name: those above, and the CDK
 * integration tests' snapshots (`integ.app.js.snapshot/`), which hold the synthesized cloud
 * assembly with each Lambda asset bundled again (as `cdk.out` does).
 */
export function isSkippedDir(name: string): boolean {
  return SKIPPED_DIRS.has(name) || name.endsWith('.snapshot');
}

export interface FileList {
  files: string[];
  /**
   * Files that may be infrastructure code by their name (YAML, JSON, `serverless.ts`), and
   * the source files of CDK and SST apps (below a folder holding `cdk.json` or `sst.config.ts`):
   * their content decides.
   */
  infrastructure: string[];
  /** Paths given that do not exist or are not source files. */
  missing: string[];
  /** Folders skipped by name (`node_modules`, `dist`, ...). */
  skippedDirs: string[];
  /** Files and folders left out because a .gitignore names them. */
  gitignored: number;
  /** Folders that could not be listed (permissions, vanished), with why: reported, not silently dropped. */
  unreadable: Array<{ path: string; reason: string }>;
  /**
   * Folders pip installed Python packages into (a Lambda layer's `python/`, a vendored
   * `site-packages`), with how many: what their records list is left out (installed-packages.ts).
   */
  installed: Array<{ folder: string; packages: number }>;
  /** JavaScript files left out as tsc's output beside their TypeScript source (compiled-output.ts). */
  compiled: number;
}

/** What a caller may learn from the walk without listing the folders again. */
export interface WalkObserver {
  /** Each folder walked (not skipped, not ignored) with its entries, as listed. */
  onFolder?: (dir: string, entries: readonly fs.Dirent[]) => void;
}

/**
 * Source files under the given paths, sorted, each once. In a git work tree the list
 * is git's: every tracked file (a tracked file is source even when a .gitignore
 * pattern matches it) and every untracked file not ignored. Elsewhere, or when git
 * is not there, the folders are walked and .gitignore files honoured.
 */
export function collectFiles(paths: string[], watch: WalkObserver = {}): FileList {
  const out: FileList = {
    files: [],
    infrastructure: [],
    missing: [],
    skippedDirs: [],
    gitignored: 0,
    unreadable: [],
    installed: [],
    compiled: 0,
  };
  const files = new Set<string>();
  const infra = new Set<string>();
  for (const p of paths) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      out.missing.push(p);
      continue;
    }
    if (stat.isDirectory()) {
      if (!gitFiles(p, files, infra, out)) walkDir(p, files, infra, out, watch);
    }
    // A template named explicitly is read as one.
    else if (isInfrastructureCandidate(p)) {
      infra.add(path.normalize(p));
      if (languageForFile(p)) files.add(path.normalize(p));
    }
    // A FIFO or device named explicitly is kept: reading it reports it as skipped, with why.
    else if (languageForFile(p)) files.add(path.normalize(p));
    else out.missing.push(p);
  }
  out.files = [...files].sort();
  out.infrastructure = [...infra].sort();
  return out;
}

function readIgnore(dir: string): IgnoreScope | null {
  try {
    return { base: dir, rules: parseGitignore(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8')) };
  } catch {
    return null;
  }
}

function ignoredBy(scopes: IgnoreScope[], full: string, isDir: boolean): boolean {
  if (scopes.length === 0) return false;
  return ignoredByScopes(scopes, (base) => relativeBelow(base, full), isDir);
}

/**
 * `full` relative to `base`, with `/`. The walk joins each path from its folder's, so a path
 * below a .gitignore's folder starts with it: a slice, not a `path.relative` (which resolves
 * both against the working directory: 5,000 of them were 2% of a warm check).
 */
function relativeBelow(base: string, full: string): string {
  const rel =
    full.length > base.length && full.startsWith(base) && full[base.length] === path.sep
      ? full.slice(base.length + 1)
      : path.relative(base, full);
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

function walkDir(root: string, files: Set<string>, infra: Set<string>, out: FileList, watch: WalkObserver): void {
  const stack: Array<{ dir: string; scopes: IgnoreScope[]; cdk: boolean }> = [
    { dir: root, scopes: [], cdk: inCdkFolder(root, diskFiles) },
  ];
  while (stack.length > 0) {
    const { dir, scopes: parent, cdk: inApp } = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      out.unreadable.push({ path: path.normalize(dir), reason: `unreadable folder: ${err.code ?? err.message}` });
      continue;
    }
    watch.onFolder?.(dir, entries);
    // Read only where the listing has one: trying every folder cost a failed open each (700 on the bench's tree).
    const own = entries.some((e) => e.name === '.gitignore') ? readIgnore(dir) : null;
    const scopes = own ? [...parent, own] : parent;
    // A CDK app's folder: its source files may declare infrastructure (their imports decide).
    const cdk = inApp || entries.some((e) => APP_MARKERS.has(e.name) && e.isFile());
    const installed = installedInListing(dir, entries);
    if (installed?.packages) out.installed.push({ folder: path.normalize(dir), packages: installed.packages });
    let names: Set<string> | null = null;
    const listed = (name: string) => (names ??= new Set(entries.map((x) => x.name))).has(name);
    for (const e of entries) {
      if (installed?.names.has(e.name)) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (isSkippedDir(e.name)) out.skippedDirs.push(full);
        else if (ignoredBy(scopes, full, true)) out.gitignored++;
        else stack.push({ dir: full, scopes, cdk });
      } else if (e.isFile() && (languageForFile(e.name) || isInfrastructureCandidate(e.name))) {
        if (ignoredBy(scopes, full, false)) out.gitignored++;
        else if (isCompiledBeside(e.name, listed)) out.compiled++;
        else {
          if (languageForFile(e.name)) files.add(path.normalize(full));
          if (isInfrastructureCandidate(e.name) || (cdk && languageForFile(e.name))) infra.add(path.normalize(full));
        }
      }
    }
  }
}

/**
 * The source files git knows under `dir`: tracked, and untracked but not ignored.
 * False when `dir` is not in a git work tree, git cannot be run or lists nothing:
 * then the caller walks the folder. Folders skipped by name (`node_modules`, `dist`, ...) stay
 * skipped: a vendored or built copy committed to the repository is not its source.
 */
function gitFiles(dir: string, files: Set<string>, infra: Set<string>, out: FileList): boolean {
  let listed: string;
  try {
    listed = execFileSync(
      'git',
      ['-c', 'core.quotepath=off', 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.'],
      { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 },
    );
  } catch {
    return false;
  }
  // Nothing listed: the folder itself is ignored (a generated workspace, a vendored
  // tree) or empty. The user named it, so it is walked as any folder outside git.
  if (!listed) return false;
  const all = listed.split('\0');
  // The CDK and SST apps' folders (relative, `''` for `dir` itself): their source files may declare infrastructure.
  const apps = all
    .filter((r) => APP_MARKERS.has(path.posix.basename(r)))
    .map((r) => r.slice(0, -path.posix.basename(r).length));
  const outer = inCdkFolder(dir, diskFiles);
  // Python packages pip installed into a committed folder: as vendored as `node_modules`.
  const installed = installedIn(dir, all, isSkippedDir);
  for (const [folder, { packages }] of installed)
    if (packages > 0) out.installed.push({ folder: path.normalize(path.join(dir, folder)), packages });
  let known: Set<string> | null = null;
  const inList = (rel: string) => (known ??= new Set(all)).has(rel);
  for (const rel of all) {
    const source = !!rel && !!languageForFile(rel);
    const template = !!rel && isInfrastructureCandidate(rel);
    if (!source && !template) continue;
    const parts = rel.split('/');
    if (parts.slice(0, -1).some(isSkippedDir)) continue;
    if (installed.size > 0 && isInstalled(rel, installed)) continue;
    const folder = rel.slice(0, rel.length - parts[parts.length - 1].length);
    if (source && isCompiledBeside(parts[parts.length - 1], (name) => inList(folder + name))) {
      out.compiled++;
      continue;
    }
    const full = path.join(dir, ...parts);
    // A tracked file deleted from the work tree, or a submodule, is not there to read.
    try {
      if (!fs.statSync(full).isFile()) continue;
    } catch {
      continue;
    }
    if (source) files.add(path.normalize(full));
    if (template || (source && (outer || apps.some((a) => rel.startsWith(a))))) infra.add(path.normalize(full));
  }
  return true;
}

/**
 * Whether the walk of `root` would list `file` by its path: no folder on the way is one
 * skipped by name (`dist`, `node_modules`, ...), and no install record beside a folder on
 * the way names it (installed-packages.ts), and it is not tsc's output beside its TypeScript
 * source (compiled-output.ts). For a file the editor reports changed on disk: a rebuilt
 * `dist/`, a re-run `pip install -t` or a `tsc --watch` is not the project's code. A file outside
 * `root` is not judged here (true). `.gitignore` is not asked.
 */
export function walkListsPath(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return true;
  const parts = rel.split(path.sep);
  let dir = root;
  for (let i = 0; i < parts.length - 1; i++) {
    if (isSkippedDir(parts[i]) || installedBeside(dir, parts[i])) return false;
    dir = path.join(dir, parts[i]);
  }
  const name = parts[parts.length - 1];
  if (isCompiledBeside(name, (sibling) => fs.existsSync(path.join(dir, sibling)))) return false;
  return !installedBeside(dir, name);
}

/** Whether the install records in `dir` name `name` as written by pip. */
function installedBeside(dir: string, name: string): boolean {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  return !!installedInListing(dir, entries)?.names.has(name);
}
