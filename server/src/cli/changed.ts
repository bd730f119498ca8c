import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileAnalysis, WorkspaceIndex } from '../engine';
import { UsageError, type ChangedSince } from './args';

function git(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const stderr = (e as { stderr?: string }).stderr?.trim();
    throw new UsageError(`git ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`);
  }
}

function tryGit(args: string[], cwd: string): string | null {
  try {
    return git(args, cwd).trim() || null;
  } catch {
    return null;
  }
}

/**
 * The commit a plain `--changed` compares with: where the branch left its upstream (so a
 * feature branch reports everything it changed), or HEAD when it has none (a detached
 * CI checkout, a branch never pushed): then only uncommitted work counts.
 */
export function defaultBase(cwd: string): string {
  const upstream = tryGit(['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}'], cwd);
  return (upstream && tryGit(['merge-base', 'HEAD', upstream], cwd)) || 'HEAD';
}

const split = (out: string) => out.split('\0').filter(Boolean);

/** The changed files (absolute, real paths) and what they were compared with. Deleted files are left out. */
export function changedFiles(since: ChangedSince, cwd: string): { files: Set<string>; base: string } {
  const top = fs.realpathSync(git(['rev-parse', '--show-toplevel'], cwd).trim());
  let names: string[];
  let base: string;
  if (since.kind === 'staged') {
    base = 'the index';
    names = split(git(['diff', '--cached', '--name-only', '-z', '--diff-filter=d'], top));
  } else {
    base = since.ref ?? defaultBase(top);
    // Working tree against the commit: committed, staged and unstaged changes alike, and new files.
    names = split(git(['diff', '--name-only', '-z', '--diff-filter=d', base, '--'], top));
    names.push(...split(git(['ls-files', '--others', '--exclude-standard', '--full-name', '-z'], top)));
  }
  return { files: new Set(names.map((n) => path.join(top, n))), base };
}

function real(file: string): string {
  try {
    return fs.realpathSync(path.resolve(file));
  } catch {
    return path.resolve(file);
  }
}

/** Keeps the results of the files a change to `changed` may have altered findings in. */
export function onlyReached(results: FileAnalysis[], index: WorkspaceIndex, changed: Set<string>): FileAnalysis[] {
  const touched = [...index.analyses()].map((a) => a.file).filter((f) => changed.has(real(f)));
  const reached = index.reachOf(touched);
  return results.filter((r) => reached.has(r.file));
}
