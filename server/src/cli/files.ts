import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageForFile } from '../engine/parser';

/** Folders that never hold the project's own source. */
const SKIPPED_DIRS = new Set([
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
  '.aws-sam',
  '.serverless',
]);

export interface FileList {
  files: string[];
  /** Paths given on the command line that do not exist or are not source. */
  missing: string[];
}

/** Source files under the given paths, sorted, each once. */
export function collectFiles(paths: string[]): FileList {
  const files = new Set<string>();
  const missing: string[] = [];
  for (const p of paths) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      missing.push(p);
      continue;
    }
    if (stat.isDirectory()) walkDir(p, files);
    else if (languageForFile(p)) files.add(path.normalize(p));
    else missing.push(p);
  }
  return { files: [...files].sort(), missing };
}

function walkDir(root: string, out: Set<string>): void {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) stack.push(full);
      } else if (e.isFile() && languageForFile(e.name)) {
        out.add(path.normalize(full));
      }
    }
  }
}

/** Decodes a file as UTF-8; invalid bytes become U+FFFD rather than failing the file. */
export function decode(buf: Buffer): { text: string; lossy: boolean } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buf), lossy: false };
  } catch {
    return { text: new TextDecoder('utf-8').decode(buf), lossy: true };
  }
}
