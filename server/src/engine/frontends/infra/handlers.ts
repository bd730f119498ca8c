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

/** Where a handler is written beside its code folder. */
export interface HandlerPlace {
  /** An esbuild entry point, relative to the code folder: the handler then names only the function. */
  entry?: string | null;
  /** The folder of the file declaring the function: build output folders are looked for below it only. */
  declaredIn?: string;
}

/**
 * `codeDir`: the folder the handler is relative to (the template's folder joined with
 * `CodeUri`, the service folder).
 */
export function resolveHandler(
  handler: string,
  codeDir: string,
  files: InfraFiles,
  { entry = null, declaredIn }: HandlerPlace = {},
): HandlerTarget {
  const dot = handler.lastIndexOf('.');
  if (dot <= 0 || dot === handler.length - 1) return { reason: `handler "${handler}" is not module.function` };
  const fn = handler.slice(dot + 1);
  const module = handler.slice(0, dot);
  const candidates: string[] = [];
  const base = path.join(codeDir, module);
  // Python's dotted module path (`app.handlers.vote`) is a file path too.
  const dotted = module.includes('/') ? null : path.join(codeDir, ...module.split('.'));
  const bases = dotted && dotted !== base ? [base, dotted] : [base];
  if (entry) candidates.push(path.join(codeDir, entry));
  else for (const b of bases) for (const e of EXTENSIONS) candidates.push(b + e);
  const file = candidates.find((c) => files.exists(c));
  // A build's output (`CodeUri: build/ingest` written by webpack from `src/ingest/index.ts`,
  // `dist/` by tsc from `src/`): the source it was built from, which is what the workspace
  // reads; the output is usually not there at all, or ignored.
  const output = entry || !declaredIn ? null : outputFolderOf(base, declaredIn);
  const source = output && bases.map((b) => builtSource(b, output, fn, files)).find((s) => s !== null);
  if (source) return { file: source, fn };
  if (!file) {
    const shown = entry ? path.join(codeDir, entry) : `${base}.{ts,js,mjs,cjs,py}`;
    const also = output ? `, or its source under ${slashed(path.dirname(output))}/src` : '';
    return { reason: `handler "${handler}" leads to no source file (looked for ${slashed(shown)}${also})` };
  }
  const text = files.read(file);
  if (text !== null && !exports(text, fn, file.endsWith('.py')))
    return { reason: `handler "${handler}": ${slashed(file)} has no exported function "${fn}"` };
  return { file, fn };
}

const slashed = (p: string) => p.split(path.sep).join('/');

/**
 * Folders builds write to by convention. `lib` is left out: as often a folder of sources.
 */
const OUTPUT_FOLDERS = new Set(['build', 'dist', 'out', '.build', 'bundle', '.webpack']);

/**
 * The innermost build output folder `base` (a module path, without extension) lies in, if
 * any, counting only the folders below `declaredIn` (or beside it, for a Terraform module's
 * `../dist/lambda`): a repository kept in a folder called `build` is no build output.
 */
function outputFolderOf(base: string, declaredIn: string): string | null {
  const parts = path.relative(declaredIn, path.dirname(base)).split(path.sep);
  for (let i = parts.length - 1; i >= 0; i--)
    if (OUTPUT_FOLDERS.has(parts[i])) return path.join(declaredIn, ...parts.slice(0, i + 1));
  return null;
}

/**
 * The source a build output's module was built from, when it exports `fn`: the same path
 * under the project's `src/` (`build/ingest/index` from `src/ingest/index.ts`,
 * `dist/handlers/api` from `src/handlers/api.ts`), or under the project itself
 * (`dist/src/functions/vote` from `src/functions/vote.ts`).
 */
function builtSource(base: string, output: string, fn: string, files: InfraFiles): string | null {
  const project = path.dirname(output);
  const rest = path.relative(output, base);
  for (const root of [path.join(project, 'src'), project])
    for (const e of EXTENSIONS) {
      const file = path.join(root, rest) + e;
      if (!files.exists(file)) continue;
      const text = files.read(file);
      if (text !== null && exports(text, fn, e === '.py')) return file;
    }
  return null;
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
