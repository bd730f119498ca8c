import type { FileAnalysis } from '../analyze';
import type { Access, SourceLanguage } from '../model';
import type { FileEnv } from '../model/entry-point';
import { declaredDefinitions, type NamedTable } from '../requests/declared-names';
import { envBindings, fileEnvIn } from './env-bindings';
import type { InfraRegistry } from './infra';
import { keyReadsEnv } from '../requests/env-key-values';
import { resolvedPath } from './resolved-path';

/**
 * What a file's analysis was made with: the tables its environment variables named (JSON,
 * '' for none) and what its literal table names took from the declared tables (JSON).
 */
export interface FileBindings {
  env: string;
  named: string;
}

/** What the binder needs of the index. */
export interface EnvHost {
  analyses(): ReadonlyMap<string, FileAnalysis>;
  importedFile(file: string, language: SourceLanguage, source: string): string | null;
  /** Analyses the file again (its bindings changed); returns the key families touched. */
  reanalyse(file: string): Set<string>;
  /** The tables infrastructure code declares by name (the same array until they change). */
  namedTables(): readonly NamedTable[];
}

/**
 * The environment bindings of a workspace's files, worked out from its infrastructure
 * files, and what each file was analysed with, so a change re-analyses only the files
 * whose bindings moved. During the first pass only handler files are bound: imports are
 * followed once every file is in (`rebind`), so the result does not depend on file order.
 */
export class EnvBinder {
  /** What each file was analysed with (JSON, '' for none). */
  private readonly boundWith = new Map<string, string>();
  /** The named tables each file was analysed with, for its literal table names. */
  private readonly namedWith = new Map<string, readonly NamedTable[]>();
  /** For a file restored from the cache: what its literal table names took then, as `namedKeys` gives it. */
  private readonly restoredNamed = new Map<string, string>();
  private followImports = false;
  /** Bumped when a file's imports change: the bindings that follow imports are worked out again only then. */
  private importsVersion = 0;
  private cache: { key: string; map: Map<string, FileEnv> } | null = null;
  private resolvedNames: { size: number; map: Map<string, string> } | null = null;

  constructor(
    private readonly infra: InfraRegistry,
    private readonly host: EnvHost,
  ) {}

  /** The tables environment variables name in `file`; noted as what it is analysed with. */
  of(file: string): FileEnv | null {
    const env = fileEnvIn(this.map(), resolvedPath(file));
    this.boundWith.set(file, env ? JSON.stringify(env) : '');
    return env;
  }

  /** The tables declared by name, for `file`'s literal table names; noted as what it is analysed with. */
  namedOf(file: string): readonly NamedTable[] {
    const named = this.host.namedTables();
    this.namedWith.set(file, named);
    this.restoredNamed.delete(file);
    return named;
  }

  /** What a file's analysis was made with, for the analysis cache to keep beside it; undefined when it was not analysed here. */
  boundOf(file: string): FileBindings | undefined {
    const env = this.boundWith.get(file);
    const accesses = this.host.analyses().get(file)?.accesses;
    if (env === undefined || !accesses) return undefined;
    const named = this.restoredNamed.get(file) ?? namedKeys(accesses, this.namedWith.get(file) ?? []);
    return { env, named };
  }

  /**
   * A file restored from the cache was analysed with `bound` (`boundOf` then): `rebind`
   * analyses it again only when the bindings moved since, as it does a file analysed here.
   * Without this, every restored file naming a table would be analysed again, and in this
   * thread, which knows more of the workspace than the analysis thread that made the entry.
   */
  restoreBound(file: string, bound: FileBindings): void {
    this.boundWith.set(file, bound.env);
    this.namedWith.delete(file);
    this.restoredNamed.set(file, bound.named);
  }

  importsChanged(): void {
    this.importsVersion++;
  }

  forget(file: string): void {
    this.importsVersion++;
    this.boundWith.delete(file);
    this.namedWith.delete(file);
    this.restoredNamed.delete(file);
  }

  /**
   * Re-analyses the files whose bindings differ from those they were analysed with (a
   * template changed, or a handler's imports now reach them). Only a file with an
   * environment-named table, or a key read from a variable, can change. Returns the key
   * families touched.
   */
  rebind(): Set<string> {
    this.followImports = true;
    const map = this.map();
    const touched = new Set<string>();
    for (const [file, analysis] of [...this.host.analyses()]) {
      // No access, no table to bind: the analysis is the same whatever the bindings (most of
      // a workspace's files; looking each one up cost most of a template edit's rebinding).
      if (analysis.accesses.length === 0) continue;
      const now = fileEnvIn(map, resolvedPath(file));
      const json = now ? JSON.stringify(now) : '';
      if (this.namesMoved(file, analysis.accesses)) {
        for (const key of this.host.reanalyse(file)) touched.add(key);
        continue;
      }
      // A file restored from the cache was not analysed here: what it was bound with is not known.
      if (this.boundWith.get(file) === json) continue;
      if (!analysis.accesses.some(boundByEnv)) {
        this.boundWith.set(file, json);
        continue;
      }
      for (const key of this.host.reanalyse(file)) touched.add(key);
    }
    return touched;
  }

  /**
   * Whether a file's literal table names take other keys from the tables declared now
   * than from those it was analysed with (a template changed; a file restored from the
   * cache was analysed with none known here).
   */
  private namesMoved(file: string, accesses: readonly Access[]): boolean {
    const now = this.host.namedTables();
    const restored = this.restoredNamed.get(file);
    if (restored !== undefined) return restored !== namedKeys(accesses, now);
    const before = this.namedWith.get(file) ?? [];
    if (before === now) return false;
    return namedKeys(accesses, before) !== namedKeys(accesses, now);
  }

  /**
   * Whether `rebind` would analyse a file again now: a file with accesses whose literal
   * table names take other keys, or whose environment bindings moved and which reads an
   * environment-named or resolved table. The same test as `rebind`'s, without analysing,
   * so that a run restored from the cache loads no parser when nothing moved (a template
   * declaring functions made every warm check load them). Binds as `rebind` does from now on.
   */
  wouldReanalyse(): boolean {
    this.followImports = true;
    const map = this.map();
    for (const [file, analysis] of this.host.analyses()) {
      if (analysis.accesses.length === 0) continue;
      if (this.namesMoved(file, analysis.accesses)) return true;
      const now = fileEnvIn(map, resolvedPath(file));
      if (this.boundWith.get(file) === (now ? JSON.stringify(now) : '')) continue;
      if (analysis.accesses.some(boundByEnv)) return true;
    }
    return false;
  }

  private map(): Map<string, FileEnv> | null {
    if (!this.infra.declaresFunctions()) return null;
    const key = `${this.infra.version}:${this.followImports ? this.importsVersion : '-'}`;
    if (this.cache?.key !== key) {
      const importsOf = (f: string) => (this.followImports ? this.importedFiles(f) : []);
      this.cache = { key, map: envBindings(this.infra.declarations(), importsOf) };
    }
    return this.cache.map;
  }

  /** The workspace files a file imports, as far as its analysis (or its reach, for a file read only for that) says. */
  private importedFiles(resolved: string): string[] {
    const file = this.byResolved().get(resolved);
    const analysis = file !== undefined ? this.host.analyses().get(file) : undefined;
    if (!analysis || file === undefined) return [];
    const out: string[] = [];
    for (const module of importedModules(analysis)) {
      const target = this.host.importedFile(file, analysis.language, module);
      if (target) out.push(target);
    }
    return out;
  }

  private byResolved(): Map<string, string> {
    const files = this.host.analyses();
    if (this.resolvedNames?.size !== files.size)
      this.resolvedNames = { size: files.size, map: new Map([...files.keys()].map((f) => [resolvedPath(f), f])) };
    return this.resolvedNames.map;
  }
}

/**
 * The modules a file imports: those its analysis read, else, for a file the pre-scan passed
 * over and the reachability pass read for its entry points (a handler calling no wrapper),
 * those its reach names. In the order written, each once.
 */
export function importedModules(analysis: FileAnalysis): string[] {
  if (analysis.imports?.length) return analysis.imports.map((i) => i.module);
  return [...new Set((analysis.reach?.imports ?? []).map((b) => b.module))];
}

/** What the literal table names of `accesses` take from `named` (JSON; '' when they name none). */
function namedKeys(accesses: readonly Access[], named: readonly NamedTable[]): string {
  const names = accesses.flatMap((a) => (a.table.kind === 'literal' ? [a.table.name] : []));
  return names.length === 0 ? '' : JSON.stringify(declaredDefinitions(names, named));
}

/**
 * Whether what the infrastructure sets its functions' variables to can change an access's
 * analysis: its table is named by a variable or resolved through one, or its key reads one.
 */
function boundByEnv(a: Access): boolean {
  return envNamed(a) || resolvedHere(a) || keyReadsEnv(a);
}

/** A table an environment variable names, or may: `$X`, or a fallback for `X` (`process.env.X ?? 'Orders'`). */
function envNamed(a: Access): boolean {
  return a.table.kind === 'env' || (a.table.kind === 'literal' && !!a.table.unlessEnv);
}

/** An access whose table infrastructure code resolved (or found ambiguous). */
function resolvedHere(a: Access): boolean {
  return ('fromEnv' in a.table && !!a.table.fromEnv) || (a.table.kind === 'env' && !!a.table.candidates);
}
