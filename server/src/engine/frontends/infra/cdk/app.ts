/**
 * The files of a CDK app, as far as a construct passed between them needs: the app's
 * entry (the source file `cdk.json`'s `app` command runs: `npx ts-node bin/app.ts`,
 * `python3 app.py`) and the files it imports, and those import, within the app's folder
 * (relative imports; Python modules from the entry's folder). Each is read into a
 * `CdkFile` by the caller's `read` (which parses: `infra/` holds no syntax). Bounded:
 * `MAX_FILES` files, `MAX_DEPTH` imports deep.
 */
import * as path from 'node:path';
import type { CdkFile } from '../../../model/cdk';
import type { InfraFiles } from '../handlers';
import { appFolder } from './functions';

const MAX_FILES = 64;
const MAX_DEPTH = 8;
const NODE_EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.mts', '.cts'];

/** A file's text read as CDK code, or null when it is none (it imports neither the CDK nor `constructs`). */
export type ReadCdk = (file: string, text: string) => CdkFile | null;

export interface CdkApp {
  /** The app's files read as CDK code, by path, the file being read among them. */
  files: ReadonlyMap<string, CdkFile>;
  /** The file of the app an import of `from` names, or null (a package, a file outside the app). */
  resolve(from: string, module: string): string | null;
}

/** The app `cdk` (the file being read) belongs to; only that file when there is no entry to start from. */
export function loadApp(cdk: CdkFile, files: InfraFiles, read: ReadCdk): CdkApp {
  const dir = appFolder(cdk.file, files);
  // The file being read is named as its reader names it, however an import reaches it.
  const self = path.resolve(cdk.file);
  const named = (f: string | null) => (f === self ? cdk.file : f);
  const entry = named(dir ? entryOf(dir, files) : null);
  const resolve = (from: string, module: string) => named(resolveImport(from, module, dir, entry, files));
  const out = new Map<string, CdkFile>([[cdk.file, cdk]]);
  if (!dir || !entry) return { files: out, resolve };
  let level = [entry];
  const seen = new Set(level);
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    const next: string[] = [];
    for (const f of level) {
      const known = out.get(f);
      const text = known ? null : files.read(f);
      const file = known ?? (text === null ? null : read(f, text));
      if (!file) continue;
      out.set(f, file);
      for (const i of file.imports) {
        const target = resolve(f, i.module);
        if (target && !seen.has(target) && seen.size < MAX_FILES) {
          seen.add(target);
          next.push(target);
        }
      }
    }
    level = next;
  }
  return { files: out, resolve };
}

/** The source file `cdk.json`'s `app` command names (`npx ts-node --prefer-ts-exts bin/app.ts`), or null. */
export function entryOf(dir: string, files: InfraFiles): string | null {
  const text = files.read(path.join(dir, 'cdk.json'));
  let command: unknown;
  try {
    command = text === null ? null : (JSON.parse(text) as { app?: unknown }).app;
  } catch {
    return null;
  }
  if (typeof command !== 'string') return null;
  for (const word of command.split(/\s+/)) {
    if (!/\.(?:[cm]?[jt]s|tsx|py)$/.test(word)) continue;
    const file = path.resolve(dir, word);
    if (files.exists(file)) return file;
    // `node bin/app.js` run after `tsc`: the source beside it.
    const source = file.replace(/\.js$/, '.ts');
    if (source !== file && files.exists(source)) return source;
  }
  return null;
}

function resolveImport(
  from: string,
  module: string,
  dir: string | null,
  entry: string | null,
  files: InfraFiles,
): string | null {
  if (!dir) return null;
  const inApp = (f: string | null) => (f && !path.relative(path.resolve(dir), f).startsWith('..') ? f : null);
  if (from.endsWith('.py')) return inApp(pythonModule(path.resolve(from), module, path.resolve(entry ?? from), files));
  if (!module.startsWith('.')) return null;
  const base = path.resolve(path.dirname(path.resolve(from)), module);
  const stem = base.replace(/\.[cm]?js$/, '');
  const tried = [
    base,
    ...NODE_EXTENSIONS.map((e) => stem + e),
    ...NODE_EXTENSIONS.map((e) => path.join(base, `index${e}`)),
  ];
  for (const f of tried) if (files.exists(f)) return inApp(f);
  return inApp(caseInsensitive(tried, files));
}

/**
 * An import that names its file in other letter case (`./stacks/Data` for `data.ts`),
 * as an app written on a case-insensitive disk does: the one file of the folder that
 * matches, else null.
 */
function caseInsensitive(tried: string[], files: InfraFiles): string | null {
  if (!files.list) return null;
  const folder = path.dirname(tried[0]);
  const wanted = new Set(tried.filter((f) => path.dirname(f) === folder).map((f) => path.basename(f).toLowerCase()));
  const found = files.list(folder).filter((f) => wanted.has(path.basename(f).toLowerCase()));
  return found.length === 1 ? found[0] : null;
}

/** `stacks.data_stack` from the entry's folder (where `python app.py` puts it on the path), `.data_stack` from the file's. */
function pythonModule(from: string, module: string, entry: string, files: InfraFiles): string | null {
  const dots = /^\.*/.exec(module)![0].length;
  let base = dots ? path.dirname(from) : path.dirname(entry);
  for (let i = 1; i < dots; i++) base = path.dirname(base);
  const rest = module.slice(dots).split('.').filter(Boolean);
  // An absolute import the entry's folder does not hold is looked for beside the importing
  // file: apps that put their stack folder on the path (`from art_lambdas import ...` in
  // `stacks/app_stack.py`) run that way.
  const bases = dots || base === path.dirname(from) ? [base] : [base, path.dirname(from)];
  for (const b of bases) {
    const stem = path.join(b, ...rest);
    for (const f of [`${stem}.py`, path.join(stem, '__init__.py')]) if (files.exists(f)) return f;
  }
  return null;
}
