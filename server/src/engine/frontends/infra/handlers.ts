/**
 * From a handler string to the source file and function it names: `src/handlers/vote.handler`
 * is the `handler` export of `src/handlers/vote.{ts,js,mjs,cjs,py}` under the code folder;
 * a Python `pkg.module.handler` is `pkg/module.py`. An esbuild-built function names its
 * source by its entry point instead: the handler then names the bundle, and only its
 * function part is read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** What the readers need of the disk: injected so tests and the editor's buffers can stand in. */
export interface InfraFiles {
  exists(file: string): boolean;
  read(file: string): string | null;
  /** The files of a folder (a Terraform module is read whole); absent when the reader cannot list. */
  list?(dir: string): string[];
}

export const diskFiles: InfraFiles = {
  exists: (f) => {
    try {
      return fs.statSync(f).isFile();
    } catch {
      return false;
    }
  },
  read: (f) => {
    try {
      return fs.readFileSync(f, 'utf8');
    } catch {
      return null;
    }
  },
  list: (dir) => {
    try {
      return fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(dir, e.name));
    } catch {
      return [];
    }
  },
};

const EXTENSIONS = ['.ts', '.js', '.mjs', '.cjs', '.mts', '.cts', '.py'];

export type HandlerTarget = { file: string; fn: string } | { reason: string };

/**
 * `codeDir`: the folder the handler is relative to (the template's folder joined with
 * `CodeUri`, the service folder). `entry`: an esbuild entry point, relative to it.
 */
export function resolveHandler(
  handler: string,
  codeDir: string,
  files: InfraFiles,
  entry: string | null = null,
): HandlerTarget {
  const dot = handler.lastIndexOf('.');
  if (dot <= 0 || dot === handler.length - 1) return { reason: `handler "${handler}" is not module.function` };
  const fn = handler.slice(dot + 1);
  const module = handler.slice(0, dot);
  const candidates: string[] = [];
  if (entry) candidates.push(path.join(codeDir, entry));
  else {
    const base = path.join(codeDir, module);
    // Python's dotted module path (`app.handlers.vote`) is a file path too.
    const dotted = module.includes('/') ? null : path.join(codeDir, ...module.split('.'));
    for (const b of dotted && dotted !== base ? [base, dotted] : [base])
      for (const e of EXTENSIONS) candidates.push(b + e);
  }
  const file = candidates.find((c) => files.exists(c));
  if (!file) {
    const shown = entry ? path.join(codeDir, entry) : `${path.join(codeDir, module)}.{ts,js,mjs,cjs,py}`;
    return { reason: `handler "${handler}" leads to no source file (looked for ${shown.split(path.sep).join('/')})` };
  }
  const text = files.read(file);
  if (text !== null && !exports(text, fn, file.endsWith('.py')))
    return { reason: `handler "${handler}": ${file.split(path.sep).join('/')} has no exported function "${fn}"` };
  return { file, fn };
}

/** Whether source text exports `fn`, in the ways handlers are written. */
function exports(text: string, fn: string, python: boolean): boolean {
  const n = fn.replace(/[$]/g, '\\$');
  if (python) return new RegExp(`^(?:async\\s+)?def\\s+${n}\\s*\\(|^${n}\\s*=`, 'm').test(text);
  return new RegExp(
    [
      `export\\s+(?:async\\s+)?function\\s*\\*?\\s*${n}\\b`,
      `export\\s+(?:const|let|var)\\s+${n}\\b`,
      `export\\s*\\{[^}]*\\b${n}\\b[^}]*\\}`,
      `exports\\.${n}\\s*=`,
      `module\\.exports\\s*=\\s*\\{[^}]*\\b${n}\\b`,
      `export\\s*\\*\\s*from`,
    ].join('|'),
  ).test(text);
}
