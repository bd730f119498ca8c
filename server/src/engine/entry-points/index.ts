/**
 * The reachability pass of a workspace, over plain data the analyses already hold: each
 * parsed file's `FileReach` (read from the analysis's own tree, `file.ts`), the module
 * names every file imports (the pre-scan's note for the files it passed over), and the
 * entry points templates declare. It builds the graph (`reach.ts`) once per change of
 * that data and tells the accesses of one file at a time how they are reached.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageProjectRootOf } from '../file-roles';
import type { Access } from '../model';
import type { AccessReach, EntryPoint, FileReach, FunctionNode } from '../model/entry-point';
import { moduleName } from '../frontends/wrappers/gate';
import { entryPoint, MODULE } from '../frontends/file-reach';
import { callGraph, reachGraph, reachOf, type CallGraph, type ImportFile, type ReachGraph } from './reach';

export { callGraph, reachGraph, reachOf, functionAround } from './reach';
export type { CallGraph } from './reach';
export { fileReachOf, mayDeclareEntryPoints } from './file';

export interface ReachInputs {
  /** Each file's reach: the files analysis parsed, and the entry-point files the pass read. */
  reaches: ReadonlyMap<string, FileReach>;
  /** Module names the files the pass did not parse import (the pre-scan's notes). */
  importedNames: ReadonlySet<string>;
  /** Entry points infrastructure code declares, their handler files named as `reaches` names them. */
  infra: readonly EntryPoint[];
  /** The folders of the infrastructure files that declare functions: their code's entry points are known. */
  infraDirs: readonly string[];
  /**
   * The folders of infrastructure files with parts they could not read (a handler that leads
   * to no source file): code under them may be run from there, so nothing under them is known.
   */
  uncertainDirs?: readonly string[];
  importFile: ImportFile;
}

/** The graph of one version of the workspace's reach data, and what decides lowering a call nothing reaches. */
export interface ReachState {
  graph: ReachGraph;
  known: (file: string) => boolean;
  referenced: (file: string, fn: FunctionNode) => boolean;
  /** The part made of the files' reach alone, which a change of the templates' entry points keeps. */
  code: CodeReach;
  /** The folders `known` counts as fully known through templates, resolved and ending in a separator. */
  infraDirs: readonly string[];
  /** The folders `known` counts as never fully known (`ReachInputs.uncertainDirs`), resolved likewise. */
  uncertainDirs: readonly string[];
}

/**
 * What the files' reach and the pre-scan's notes make, before any template's entry points:
 * the calls followed by name (with what each root reaches), the project roots holding an
 * application object, and whether anything names a function.
 */
export interface CodeReach {
  reaches: ReadonlyMap<string, FileReach>;
  calls: CallGraph;
  appRoots: ReadonlySet<string>;
  referenced: (file: string, fn: FunctionNode) => boolean;
}

/** Project root → the files its package.json `bin` names (absolute). Manifests rarely change mid-run. */
const binsOf = new Map<string, Set<string>>();

export function codeReach(input: Pick<ReachInputs, 'reaches' | 'importedNames' | 'importFile'>): CodeReach {
  const reaches = new Map(input.reaches);
  // A file a package.json `bin` names is a script run by hand: its top-level code is an entry point.
  for (const [file, r] of reaches)
    if (r.file.endsWith('.py') === false && isBin(file))
      reaches.set(file, {
        ...r,
        entries: [
          ...r.entries,
          { entry: entryPoint('script', path.basename(file), file, null, ZERO, 'run by hand'), root: MODULE },
        ],
      });
  const calls = callGraph({ reaches, importFile: input.importFile });
  const appRoots = new Set<string>();
  for (const r of reaches.values()) if (r.declaresApp) appRoots.add(languageProjectRootOf(r.file));
  appRoots.delete('');
  const importers = importersByModule(reaches);
  const callNames = new Map<string, Set<string>>();
  const callsOf = (file: string) => {
    let names = callNames.get(file);
    if (!names) {
      names = new Set((reaches.get(file)?.functions ?? []).flatMap((f) => f.calls.map((c) => c.name)));
      callNames.set(file, names);
    }
    return names;
  };
  // Named in its own file, or exported to a file that imports or calls it by name; a file the
  // pass did not parse that imports its module may name it in any way, so that counts too.
  const referenced = (file: string, fn: FunctionNode) => {
    if (fn.named) return true;
    if (!fn.exported) return false;
    const module = moduleName(file);
    if (input.importedNames.has(module)) return true;
    return (importers.get(module) ?? []).some(
      (i) => i.file !== file && (i.name === fn.name || callsOf(i.file).has(fn.name)),
    );
  };
  return { reaches, calls, appRoots, referenced };
}

/** The state of `input`; `code`, when given, is `codeReach` of the same files (only the templates changed). */
export function reachState(input: ReachInputs, code: CodeReach = codeReach(input)): ReachState {
  const graph = reachGraph({ reaches: code.reaches, infra: input.infra, importFile: input.importFile }, code.calls);
  const dirs = input.infraDirs.map((d) => path.resolve(d) + path.sep);
  const uncertain = (input.uncertainDirs ?? []).map((d) => path.resolve(d) + path.sep);
  const known = (file: string) => {
    const abs = path.resolve(file);
    if (uncertain.some((d) => abs.startsWith(d))) return false;
    return dirs.some((d) => abs.startsWith(d)) || code.appRoots.has(languageProjectRootOf(file));
  };
  return { graph, known, referenced: code.referenced, code, infraDirs: dirs, uncertainDirs: uncertain };
}

/**
 * Module name → the parsed files that import it and the name each imports (`*` for the
 * module itself: `import * as db`, `const db = require("./db")`, `from app import dao`).
 */
function importersByModule(
  reaches: ReadonlyMap<string, FileReach>,
): Map<string, Array<{ file: string; name: string }>> {
  const out = new Map<string, Array<{ file: string; name: string }>>();
  const add = (module: string, file: string, name: string) => {
    const list = out.get(module);
    if (list) list.push({ file, name });
    else out.set(module, [{ file, name }]);
  };
  for (const [file, r] of reaches)
    for (const b of r.imports) {
      if (!file.endsWith('.py')) {
        add(moduleName(b.module), file, b.name);
        continue;
      }
      for (const part of b.module.split('.')) if (part) add(part, file, b.name);
      if (b.name !== '*') add(b.name, file, '*');
    }
  return out;
}

const ZERO = { startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 };

/** How each of one file's accesses is reached (an access with nothing to say is left out). */
export function accessReaches(
  state: ReachState,
  reach: FileReach | undefined,
  file: string,
  accesses: readonly Access[],
): Map<Access, AccessReach> {
  const out = new Map<Access, AccessReach>();
  if (!reach || !accesses.length) return out;
  const known = state.known(file);
  for (const a of accesses) {
    const r = reachOf(state.graph, reach, a, known, (fn) => state.referenced(file, fn));
    if (r) out.set(a, r);
  }
  return out;
}

/** Whether the nearest package.json names the file in its `bin` (a CLI the user runs by hand). */
function isBin(file: string): boolean {
  const root = languageProjectRootOf(file);
  if (!root) return false;
  let bins = binsOf.get(root);
  if (!bins) {
    bins = new Set();
    try {
      const bin: unknown = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).bin;
      const paths = typeof bin === 'string' ? [bin] : bin && typeof bin === 'object' ? Object.values(bin) : [];
      for (const p of paths) if (typeof p === 'string') bins.add(path.resolve(root, p));
    } catch {
      // No package.json or not JSON: no bins.
    }
    binsOf.set(root, bins);
  }
  return bins.has(path.resolve(file));
}
