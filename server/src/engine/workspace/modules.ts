import { DEFAULT_MAX_BYTES } from '../analyze';
import { readSource, type ReadText } from './source';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Tree } from 'web-tree-sitter';
import type { SourceLanguage } from '../model';
import type { ModuleFinder } from '../model/frontend';
import { languageForFile, parse } from '../syntax/parser';
import { frontEndFor } from '../frontends/registry';
import type { Value } from '../model/value';
import { functionOf } from '../frontends/wrappers/resolve';
import type { ModuleSummary } from '../model/summary';
import { PathAliases } from './path-aliases';
import { WorkspacePackages, bareImportCandidates, isManifest } from './workspace-packages';
import { ModuleSummaries } from './summaries';
import { NamedLookups } from './named-lookups';
import type { WorkspaceLookup } from './workspace-lookups';
import { readModuleExports } from './module-exports';
import { UseGraph } from './use-graph';
import { FolderListings } from './folder-listings';
import { ResolutionLog, type Resolution } from './import-resolutions';
import type { ModuleReaders } from '../module-reads';

/**
 * A module's text as the rest of the workspace is read: regular files only, capped
 * in size (an import that names a FIFO or a link to /dev/zero must not block or fill
 * memory), or null.
 */
export function readFromDisk(file: string): string | null {
  const source = readSource(file, DEFAULT_MAX_BYTES);
  return 'text' in source ? source.text : null;
}

const MAX_MODULE_BYTES = 512 * 1024;

/** Whether a regular file (or a link to one) is at `file` now. */
function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Constants that cross files: `export const SHARDS = 10` imported by a writer and a
 * reader, `from config import SHARD_COUNT`. Modules are parsed on demand, once, and
 * their constants kept as values; `forget` drops a module when it changes.
 */

export class ModuleConstants {
  private readonly values = new Map<string, Map<string, Value | null>>();
  /** The modules a barrel passes on whole (`export * from "./user"`), by the barrel. */
  private readonly stars = new Map<string, string[]>();
  /** The namespaces a module exports (`export * as Dynamo from "./dynamo"`): name → the module it names. */
  private readonly namespaces = new Map<string, Map<string, string>>();
  /** Which files read which modules (use-graph.ts). */
  private readonly uses = new UseGraph();
  private depth = 0;
  /** What the workspace's folders hold, read once (see folder-listings.ts). */
  private readonly folders = new FolderListings();
  /** Folder, language and import → the module file (or null), until any file changes. */
  private readonly resolved = new Map<string, string | null>();
  /** The imports each analysis followed, for the analysis cache (import-resolutions.ts). */
  private readonly resolutions = new ResolutionLog();
  private readonly summaries: ModuleSummaries;
  /** What analyses find by name across the workspace, not through an import (named-lookups.ts). */
  private readonly named: NamedLookups;
  /** How a front-end finds the file an import names: this workspace's files and path aliases. */
  private readonly finder: ModuleFinder;
  /** The monorepo's own packages by name (`@app/core/scores` → `packages/core/src/scores.ts`). */
  private readonly packages: WorkspacePackages;

  constructor(
    private readonly root: string,
    private readonly read: ReadText = readFromDisk,
    /** Whether a module's text imports a known wrapper module (then it is summarised for the wrappers it calls). */
    importsWrapper?: (text: string, language: SourceLanguage) => boolean,
  ) {
    const aliases = new PathAliases(root);
    const packages = (this.packages = new WorkspacePackages(root));
    this.finder = {
      root,
      exists: (f) => this.folders.exists(f),
      aliasCandidates: bareImportCandidates(aliases, packages),
      builtSource: (file) => aliases.builtSource(file),
      searched: new Map(),
    };
    this.summaries = new ModuleSummaries(
      read,
      (module, language) => ({
        imports: (source, name) => this.resolve(module, language, source, name),
        functions: (source, name) => functionOf(this.summary(module, language, source, false), name),
        // What a container binds (`inversify:<token>`), a connection made elsewhere: a wrapper's class is given it.
        connection: (name) => this.namedConnection(module, name),
      }),
      this.summary,
      importsWrapper,
    );
    this.named = new NamedLookups({
      root,
      folders: this.folders,
      read,
      resolve: this.resolve,
      returns: (module, language, source, name) =>
        functionOf(this.summary(module, language, source, false), name)?.returns ?? null,
    });
  }

  readonly resolve = (fromFile: string, language: SourceLanguage, source: string, name: string): Value | null =>
    this.resolveThrough(fromFile, language, source, name, new Set());

  /** The four ways an analysis reads other modules, as AnalyzeOptions takes them (module-reads.ts asks them again). */
  get readers(): Required<ModuleReaders> {
    return {
      resolveImport: this.resolve,
      resolveModule: this.summary,
      resolveInjected: this.injectedModel,
      resolveConnection: this.namedConnection,
    };
  }

  /** `resolve`, not entering a barrel twice: two barrels may pass each other on (`export * from`), as ES modules allow. */
  private resolveThrough(
    fromFile: string,
    language: SourceLanguage,
    source: string,
    name: string,
    seen: Set<string>,
  ): Value | null {
    const module = this.moduleFile(fromFile, language, source);
    if (!module || seen.has(module)) return null;
    seen.add(module);
    const own = this.constantsOf(module).get(name);
    if (own !== undefined) return own;
    // `Dynamo.Service`, `Dynamo` a namespace the module exports (SST's `export * as Dynamo from
    // "./dynamo"`, naming itself): the name in the module the namespace is. The name is shorter
    // at each step, so a module naming itself is entered again only for what is left.
    const dot = name.indexOf('.');
    const namespace = dot > 0 ? this.namespaces.get(module)?.get(name.slice(0, dot)) : undefined;
    if (namespace !== undefined) {
      const v = this.resolveThrough(module, language, namespace, name.slice(dot + 1), new Set());
      if (v) return v;
    }
    // `export * from "./user"` in a barrel: the first module it passes on that holds the name.
    for (const from of this.stars.get(module) ?? []) {
      const v = this.resolveThrough(module, language, from, name, seen);
      if (v) return v;
    }
    return null;
  }

  /**
   * The summary of the module `fromFile` imports as `source`: its functions' returns
   * and the DynamoDB calls its wrappers make. A module the pre-scan finds no DynamoDB
   * call in is summarised (parsed) only when a caller needs what a function returns.
   */
  readonly summary = (
    fromFile: string,
    language: SourceLanguage,
    source: string,
    sites = true,
  ): ModuleSummary | null => {
    const module = this.moduleFile(fromFile, language, source);
    return module ? this.summaries.of(module, sites) : null;
  };

  /**
   * The dynamoose model a NestJS feature module near `fromFile` registers under `token`
   * (`nest-models.ts`), its module noted as used by `fromFile`.
   */
  readonly injectedModel = (fromFile: string, token: string): Value | null => {
    const found = this.named.model(fromFile, token);
    for (const m of found?.modules ?? []) this.noteUse(fromFile, m);
    return found?.model ?? null;
  };

  /**
   * The connection the workspace makes under `name` for the whole process (`Lookups.connection`),
   * when exactly one module of its project (the nearest package.json above it) makes it; every
   * module making a connection there is noted as used by
   * `fromFile`, so a change to one reads it again.
   */
  readonly namedConnection = (fromFile: string, name: string): Value | null => {
    const found = this.named.connection(fromFile, name);
    for (const m of found.modules) this.noteUse(fromFile, m);
    return found.value;
  };

  /** The workspace file `source` names from `fromFile`, noted as used by `fromFile`; null for packages. */
  private moduleFile(fromFile: string, language: SourceLanguage, source: string): string | null {
    const module = this.importedFile(fromFile, language, source);
    this.resolutions.note(fromFile, language, source);
    if (module) this.noteUse(fromFile, module);
    return module;
  }

  /**
   * The workspace file an import names, without noting it as used: the environment bindings
   * and the reachability pass follow imports but read no value of them, so nothing
   * re-analyses when the module changes. The analysis cache resolves recorded imports again with it.
   */
  importedFile(fromFile: string, language: SourceLanguage, source: string): string | null {
    // Files of one folder import the same modules: resolved once per folder (a Python name is searched up to the root).
    const key = this.resolutionKey(fromFile, language, source);
    let module = this.resolved.get(key);
    if (module === undefined) {
      module = frontEndFor(language).resolveModule(fromFile, source, this.finder);
      this.resolved.set(key, module);
    }
    return module;
  }

  private resolutionKey(fromFile: string, language: SourceLanguage, source: string): string {
    return `${frontEndFor(language).id}\0${path.dirname(fromFile)}\0${source}`;
  }

  private noteUse(file: string, module: string): void {
    this.uses.note(file, module);
  }

  /** Every module a file's analysis may have read, sorted (`UseGraph.dependenciesOf`). */
  dependenciesOf(file: string): string[] {
    return this.uses.dependenciesOf(file);
  }

  /** An analysis made elsewhere (the analysis thread, the cache) read these modules: a change of one refreshes it. */
  noteDependencies(file: string, modules: readonly string[]): void {
    for (const m of modules) this.noteUse(file, m);
  }

  /** The imports `file`'s analysis followed, as resolved for it: the analysis cache checks them again. */
  resolutionsOf(file: string): Resolution[] {
    return this.resolutions.of(file, this.dependenciesOf(file), (from, language, source) =>
      this.importedFile(from, language, source),
    );
  }

  /**
   * Whether `resolutionsOf(file)` and `lookupsOf(file)` would give these very lists (those
   * the cache restored for it), told without building them; `read` is `dependenciesOf(file)`.
   */
  holdsAsReported(
    file: string,
    read: readonly string[],
    resolutions: readonly Resolution[] | undefined,
    lookups: readonly WorkspaceLookup[] | undefined,
  ): boolean {
    return this.resolutions.isReported(file, read, resolutions) && this.named.log.isReported(file, read, lookups);
  }

  /** An analysis made elsewhere (the analysis thread, the cache) followed these imports. */
  noteResolutions(file: string, resolutions: readonly Resolution[]): void {
    this.resolutions.report(file, resolutions);
  }

  /** What `file`'s analysis looked up by name across the workspace (workspace-lookups.ts): the analysis cache asks again. */
  lookupsOf(file: string): WorkspaceLookup[] {
    return this.named.log.empty ? [] : this.named.log.of(file, this.dependenciesOf(file));
  }

  /** An analysis made elsewhere (the analysis thread, the cache) looked these up. */
  noteLookups(file: string, lookups: readonly WorkspaceLookup[]): void {
    this.named.log.report(file, lookups);
  }

  /** Whether a recorded lookup answers the same now. */
  lookupHolds(lookup: WorkspaceLookup): boolean {
    return this.named.holds(lookup);
  }

  /** Whether any analysis looked something up by name (most workspaces: none, nothing to check). */
  get hasLookups(): boolean {
    return !this.named.log.empty;
  }

  /**
   * The files whose analysis (or a module it read) looked something up by name that answers
   * otherwise now: a connection or a model added, removed or edited in a file none of them
   * reads. Those that asked, and every file that read them; what each read and kept is forgotten.
   */
  lookupsMoved(): string[] {
    const log = this.named.log;
    const out = this.uses.withReaders(log.askers().filter((f) => log.of(f, []).some((l) => !this.named.holds(l))));
    for (const f of out) this.forgetReads(f);
    return out;
  }

  /**
   * Whether `file` appeared or went since its folder was listed (a file created or deleted,
   * not edited): then an import anywhere may name another file now. Asked before `forget`.
   */
  presenceChanged(file: string): boolean {
    const before = this.folders.listedBefore(file);
    return before !== undefined && before !== isFile(file);
  }

  /** The imports as resolved so far (folder, language and specifier → file), kept to compare after a file appeared or went. */
  resolutionsNow(): ReadonlyMap<string, string | null> {
    return new Map(this.resolved);
  }

  /**
   * After a file appeared or went: the files that followed an import that names another
   * file now than in `before` (or than the one reported for it), and every file that read
   * them. What each read and kept is forgotten (`forgetReads`).
   */
  resolutionsMoved(before: ReadonlyMap<string, string | null>): string[] {
    const moved = new Set<string>();
    for (const [from, language, source, reported] of this.resolutions.all()) {
      if (moved.has(from)) continue;
      const then = reported !== undefined ? reported : before.get(this.resolutionKey(from, language, source));
      if (then !== undefined && this.importedFile(from, language, source) !== then) moved.add(from);
    }
    const out = this.uses.withReaders(moved);
    for (const f of out) this.forgetReads(f);
    return out;
  }

  /**
   * A file whose text is the same must be read again (an import of it names another file
   * now, a lookup answers otherwise): what it read and kept goes, the workspace's listings stay.
   */
  forgetReads(module: string): void {
    this.resolutions.forget(module);
    this.named.log.forget(module);
    this.values.delete(module);
    this.stars.delete(module);
    this.namespaces.delete(module);
    this.summaries.forget(module);
  }

  /** Files whose analysis read a constant from `module`. */
  dependentsOf(module: string): string[] {
    return this.uses.readersOf(module);
  }

  /** The set of wrapper modules changed: modules that import one are summarised again when asked. */
  wrappersChanged(): void {
    this.summaries.wrappersChanged();
  }

  /** The manifests resolving package names from files in `dirs` reads (for the analysis cache). */
  manifestsRead(dirs: Iterable<string>): string[] {
    return this.packages.manifestsRead(dirs);
  }

  /** A package.json or workspace list changed: package names are read again, imports resolved again. */
  manifestsChanged(): void {
    this.packages.forget();
    this.resolved.clear();
    this.finder.searched?.clear();
  }

  /**
   * A file appeared, changed or went. `analysed`: the file's own analysis was just made from
   * its new text, so what it looked up stands; only what was reported for its older one goes.
   */
  forget(module: string, analysed = false): void {
    this.folders.forget(module);
    this.resolutions.forget(module, analysed);
    this.named.log.forget(module, analysed);
    // A file that appears or goes may change what any import names.
    this.resolved.clear();
    this.finder.searched?.clear();
    if (isManifest(module)) this.manifestsChanged();
    this.named.clear();
    this.values.delete(module);
    this.stars.delete(module);
    this.namespaces.delete(module);
    this.summaries.forget(module);
  }

  private constantsOf(module: string): Map<string, Value | null> {
    const cached = this.values.get(module);
    if (cached) return cached;
    const result = new Map<string, Value | null>();
    this.values.set(module, result); // set first: an import cycle sees an empty module
    const language = languageForFile(module);
    const text = this.read(module);
    if (!language || text === null || text.length > MAX_MODULE_BYTES || this.depth > 4) return result;
    let tree: Tree;
    try {
      tree = parse(language, text, 1000);
    } catch {
      return result;
    }
    this.depth++;
    try {
      readModuleExports(
        {
          module,
          text,
          tree,
          fe: frontEndFor(language),
          imports: (source, name) => this.resolve(module, language, source, name),
          // `export const User = createUserEntity(StoreTable)`: what an imported factory returns for it.
          functions: (source, name) => functionOf(this.summary(module, language, source, false), name),
          namespace: (name, source) => {
            const known = this.namespaces.get(module) ?? new Map<string, string>();
            this.namespaces.set(module, known.set(name, source));
          },
          star: (source) => this.stars.set(module, [...(this.stars.get(module) ?? []), source]),
        },
        result,
      );
    } finally {
      this.depth--;
      tree.delete();
    }
    return result;
  }
}
