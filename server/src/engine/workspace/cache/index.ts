import * as path from 'node:path';
import { DEFAULT_MAX_BYTES, type FileAnalysis } from '../../analyze';
import { walkedFileExists } from '../../file-roles/walk-listings';
import { languageForFile, parsersLoaded } from '../../syntax/parser';
import { entryVerdict, resolvesAliases, type Verdict, type VerdictInputs } from './verdict';
import type { WorkspaceIndex } from '../index';
import { readFromDisk } from '../modules';
import { factsMoved, movedFacts, reconcileFacts } from './workspace-facts';
import { readSource, type ReadText, type Source } from '../source';
import type { InfraReadEntry } from '../infra';
import { decodeAnalysis, encodeAnalysis, sameEntryRest, sameOwnParts, type Entry } from './entry';
import { restampsWorthWriting, sameStamp, settledBefore, stampOf, type Stamp } from './stamp';
import { aliasConfigPaths } from '../path-aliases';
import { cacheFile, readCache, sha1, writeChanges, type CacheFile, type RunFacts } from './store';
import { readsHold, type ModuleRead } from '../../module-reads';

export { cacheDir } from './store';

import { CACHE_SCHEMA, engineSourceHash } from './version';

export { CACHE_SCHEMA, ENGINE_VERSION, engineSourceHash } from './version';
export { restampsWorthWriting } from './stamp';
export { stampsBefore } from './stamps-before';

/** What a cache is keyed by beside each file's content: a cache written with any other is not read. */
export interface CacheKey {
  version: string;
  /** The folder imports resolve up to and messages are relative to. */
  root: string;
  /** Every option that changes what a file's analysis holds (size limit, contexts, severities). */
  options: Record<string, unknown>;
}

export interface CacheSetup {
  /** The cache's folder (`cacheDir`). */
  dir: string;
  /** The file's name in it: `check` for the CLI, `server` for the language server (their keys differ). */
  name: string;
  key: CacheKey;
  /** An open editor's buffer of a file, null when it is not open; files not open are read from disk. */
  open?: ReadText;
  /** Where the one-line notices go (a discarded cache, a cache that cannot be written). */
  notice: (line: string) => void;
  /** Files' stamps taken before the cache was read (`stampsBefore`): used in place of stat'ing them again. */
  stamps?: ReadonlyMap<string, Stamp | null>;
}

/** A file whose entry stands if the reads its analysis recorded answer as before: `AnalysisCache.restoreVerified` then. */
export interface ToVerify {
  text: string;
  reads: ModuleRead[];
}

/**
 * The per-file analyses of an earlier run, to index a workspace without parsing what did
 * not change. An entry is used when the file's text hashes the same and so does every
 * module its analysis read (a changed constant in `config.ts` re-analyses its importers);
 * what depends on the whole workspace (the cross-file rules, the wrapper-caller pass)
 * runs again over the restored analyses as over fresh ones, and `reconcile` re-analyses
 * what the workspace's table definitions and wrapper modules, if they changed, reach.
 */
export class AnalysisCache {
  private readonly file: string;
  private readonly key: string;
  private readonly old: CacheFile | null;
  private readonly hashes = new Map<string, string | null>();
  /** The stamp of each file hashed from disk, taken before it was read (or its stored hash trusted). */
  private readonly stamps = new Map<string, Stamp>();
  private readonly restored = new Set<string>();
  /** The analysis each restored file was given, to tell in `save` whether it is still the index's. */
  private readonly restoredAnalyses = new Map<string, FileAnalysis>();
  private misses = 0;
  /** Entries restored after their reads were asked again: written back with their modules' new hashes. */
  private verified = 0;
  /** Files restoreOrRead gave with their reads, for the caller to ask: restored or analysed after. */
  private readonly toVerify = new Set<string>();
  /** Files whose stamp differs from the one stored (or none was): the cache is written again to record it. */
  private restamped = 0;
  /** Files read from disk to be hashed (those whose stamp could not be trusted). */
  reads = 0;
  /** Before any file is read: a stamp is recorded only for a file modified earlier (stamp.ts). */
  private readonly started = Date.now();
  /** Whether the path-alias configs hold what they held when the cache was written; looked at once, when first asked. */
  private aliasesHeld: boolean | undefined;
  /** What the verdicts look at, made once per index (a warm check judges thousands of entries). */
  private verdictInputs: { index: WorkspaceIndex; inputs: VerdictInputs } | null = null;

  constructor(private readonly setup: CacheSetup) {
    this.file = cacheFile(setup.dir, setup.name);
    this.key = sha1(JSON.stringify({ schema: CACHE_SCHEMA, engine: engineSourceHash(), ...setup.key }));
    this.old = readCache(this.file, this.key, setup.notice);
  }

  /** How many files were restored from the cache so far. */
  get hits(): number {
    return this.restored.size;
  }

  /**
   * Whether an entry looked something up by name across the workspace (a TypeDORM connection,
   * a Nest model): asking again whether it answers the same parses the modules that make it,
   * so the grammars must be loaded before files are restored.
   */
  get asksByName(): boolean {
    for (const e of this.old?.entries.values() ?? []) if (e.lookups) return true;
    return false;
  }

  /** Whether there was a cache to read (made with this key). */
  get loaded(): boolean {
    return this.old !== null && this.old.entries.size > 0;
  }

  /**
   * The restored files, which the passes over the workspace need not read again: they
   * went through them when the cache was made, and `reconcile` re-analyses what a change
   * of the workspace's wrappers or table definitions reaches.
   */
  get settled(): ReadonlySet<string> {
    return this.restored;
  }

  /**
   * What the earlier run's infrastructure files declared, for `readInfrastructure`: a
   * file whose text and other files (included, imported, handlers) hash the same is not
   * parsed again.
   */
  infraReads(): Record<string, InfraReadEntry> | undefined {
    return this.old?.facts.infra;
  }

  /** Whether `reconcile` may analyse a file (so the caller loads the parsers first). */
  mayReanalyse(index: WorkspaceIndex): boolean {
    return !!this.old && this.restored.size > 0 && factsMoved(this.old.facts, index);
  }

  /** Notes the text a file is analysed from; with `index`, restores its analysis when the cache has it. True then. */
  restore(file: string, text: string, index?: WorkspaceIndex): boolean {
    const hash = sha1(text);
    this.hashes.set(file, hash);
    return this.restoreHashed(file, hash, index);
  }

  private restoreHashed(file: string, hash: string, index?: WorkspaceIndex): boolean {
    const verdict = index ? this.verdictOn(file, hash, index) : 'miss';
    if (verdict === 'restore') {
      this.restoreEntry(file, index!);
      return true;
    }
    if (verdict === 'miss') {
      this.misses++;
      return false;
    }
    this.toVerify.add(file);
    // Without the grammars here (the CLI's main thread), restoreOrRead hands the reads to the caller.
    return parsersLoaded() && this.verifyNow(file, index!);
  }

  private verdictOn(file: string, hash: string, index: WorkspaceIndex): Verdict {
    if (this.verdictInputs?.index !== index) {
      const inputs: VerdictInputs = {
        hashOf: (f) => this.hashOf(f),
        aliasesHold: () => this.aliasesHold(),
        modules: index.crossFile.modules,
      };
      this.verdictInputs = { index, inputs };
    }
    return entryVerdict(file, hash, this.old?.entries.get(file), this.verdictInputs.inputs);
  }

  /** Asks a file's recorded reads again here, where the grammars are loaded (elsewhere the analysis thread asks them). */
  private readsHoldHere(file: string, index: WorkspaceIndex): boolean {
    const reads = this.old?.entries.get(file)?.analysis.reads;
    return !!reads && parsersLoaded() && readsHold(reads, index.crossFile.modules.readers);
  }

  /** Asks the reads of a file restoreOrRead gave with them here (the grammars loaded): restored when they hold. */
  verifyNow(file: string, index: WorkspaceIndex): boolean {
    if (!this.toVerify.has(file)) return false;
    if (this.readsHoldHere(file, index)) {
      this.restoreVerified(file, index);
      return true;
    }
    this.verifiedNot(file);
    return false;
  }

  /**
   * Restores a file the analysis thread found every recorded read of to answer as before
   * (restoreOrRead gave it with its `reads`).
   */
  restoreVerified(file: string, index: WorkspaceIndex): void {
    if (!this.toVerify.delete(file)) throw new Error(`${file} was not waiting for its reads to be asked`);
    this.verified++;
    this.restoreEntry(file, index);
  }

  /** A file restoreOrRead gave with its `reads` whose reads answer otherwise now: it is analysed. */
  verifiedNot(file: string): void {
    if (this.toVerify.delete(file)) this.misses++;
  }

  private restoreEntry(file: string, index: WorkspaceIndex): void {
    const entry = this.old!.entries.get(file)!;
    const { modules, pass } = index.crossFile;
    const analysis = decodeAnalysis(entry.analysis);
    index.set(analysis);
    this.restoredAnalyses.set(file, analysis);
    if (entry.bindings) index.restoreBindings(file, entry.bindings);
    if (entry.imports) pass.facts.restoreImports(file, entry.imports);
    if (entry.marked !== undefined) index.restoreEntryMark(file, entry.marked);
    if (entry.resolutions) modules.noteResolutions(file, entry.resolutions);
    if (entry.lookups) modules.noteLookups(file, entry.lookups);
    modules.noteDependencies(
      file,
      entry.deps.map(([dep]) => dep),
    );
    this.restored.add(file);
  }

  private aliasesHold(): boolean {
    this.aliasesHeld ??= (this.old?.facts.aliases ?? []).every(([config, held]) => this.aliasState(config) === held);
    return this.aliasesHeld;
  }

  /** Restores a file read as the index reads it (its open buffer, else from disk); false when it must be analysed. */
  restoreFile(file: string, index: WorkspaceIndex, maxBytes = DEFAULT_MAX_BYTES): boolean {
    if (this.restoreOrRead(file, index, maxBytes) === true) return true;
    this.verifiedNot(file);
    return false;
  }

  /**
   * Restores a file when the cache holds its analysis as it is now: true. Otherwise its
   * source, read as the index reads it, to analyse. A file on disk whose stamp is the
   * one stored with its entry is not read at all.
   */
  restoreOrRead(file: string, index: WorkspaceIndex, maxBytes = DEFAULT_MAX_BYTES): true | Source | ToVerify {
    const open = this.openText(file);
    if (open != null) return this.restore(file, open, index) || this.withReads(file, { text: open });
    const stamp = this.stampNow(file);
    const known = this.trustedHash(file, stamp);
    if (known !== null) {
      this.hashes.set(file, known);
      this.stamps.set(file, stamp!);
      if (this.restoreHashed(file, known, index)) return true;
    }
    this.reads++;
    const source = readSource(file, maxBytes);
    if ('text' in source && known === null) {
      if (stamp) this.noteStamp(file, stamp);
      if (this.restore(file, source.text, index)) return true;
    }
    return 'text' in source ? this.withReads(file, source) : source;
  }

  /** The source of a file waiting for its reads to be asked, with them: the caller asks them, then restores or analyses. */
  private withReads(file: string, source: { text: string }): Source | ToVerify {
    const reads = this.toVerify.has(file) ? this.old?.entries.get(file)?.analysis.reads : undefined;
    return reads ? { text: source.text, reads } : source;
  }

  /**
   * A file's stamp taken before it is read (a change after it gives the next run another
   * stamp): the one the setup took before the cache was read, else from disk now.
   */
  private stampNow(file: string): Stamp | null {
    const given = this.setup.stamps?.get(file);
    return given === undefined ? stampOf(file) : given;
  }

  private openText(file: string): string | null {
    return this.setup.open === undefined ? null : this.setup.open(file);
  }

  /** The hash stored for a file whose stamp is the stored one, and was old enough then to trust; else null. */
  private trustedHash(file: string, stamp: Stamp | null): string | null {
    const entry = this.old?.entries.get(file);
    if (!stamp || !entry?.stamp || !sameStamp(entry.stamp, stamp)) return null;
    const old = this.old!;
    // Before the file the entry was read from was written (the delta's entries were written with it).
    return settledBefore(stamp, old.fromDelta.has(file) ? old.deltaWritten : old.written) ? entry.hash : null;
  }

  private noteStamp(file: string, stamp: Stamp): void {
    this.stamps.set(file, stamp);
    // A module read outside the run's files has no entry to record it in: it is hashed each time.
    const entry = this.old?.entries.get(file);
    if (entry && (!entry.stamp || !sameStamp(entry.stamp, stamp))) this.restamped++;
  }

  /** A file's current text's hash (an open buffer's first); from the stored entry when its stamp is trusted. */
  private hashOf(file: string): string | null {
    let hash = this.hashes.get(file);
    if (hash !== undefined) return hash;
    const open = this.openText(file);
    if (open != null) {
      this.hashes.set(file, (hash = sha1(open)));
      return hash;
    }
    const stamp = this.stampNow(file);
    hash = this.trustedHash(file, stamp);
    if (hash === null) {
      this.reads++;
      const text = readFromDisk(file);
      hash = text === null ? null : sha1(text);
      if (stamp && hash !== null) this.noteStamp(file, stamp);
    } else this.stamps.set(file, stamp!);
    this.hashes.set(file, hash);
    return hash;
  }

  /**
   * After the passes: when the wrapper modules or the table definitions of the workspace
   * are not those the restored analyses were made with, what they reach is analysed
   * again (every restored file that reads other modules or makes calls, for wrappers;
   * the writers a definition change reaches, for definitions).
   */
  reconcile(index: WorkspaceIndex, files: readonly string[]): void {
    const old = this.old;
    if (!old || this.restored.size === 0) return;
    const moved = movedFacts(old.facts, index);
    if (!moved.wrappers && !moved.definitions) return;
    const restored = [...this.restored].map((f): [string, Entry] => [f, old.entries.get(f)!]);
    reconcileFacts(old.facts, moved, restored, (f) => this.openText(f) ?? readFromDisk(f), index, files);
  }

  /**
   * Writes the analyses of `files` as the index holds them now (see store.ts for how);
   * nothing when every one of them came from the cache as it is.
   */
  save(index: WorkspaceIndex, files: readonly string[]): void {
    const { modules, pass } = index.crossFile;
    const same =
      this.misses === 0 &&
      this.verified === 0 &&
      !restampsWorthWriting(this.restamped, files.length) &&
      this.restored.size === files.length &&
      this.old?.entries.size === files.length;
    const infra = index.infra.entries();
    const infraSame = JSON.stringify(infra) === JSON.stringify(this.old?.facts.infra ?? {});
    if (same && infraSame && !this.mayReanalyse(index)) return;
    const entries: Array<[string, Entry | Buffer]> = [];
    for (const file of files) {
      const analysis = pass.analysisOf(file);
      // An open document's hash is its buffer's: what it was analysed from.
      const hash = this.hashOf(file);
      if (!analysis || !hash) continue;
      const deps = modules.dependenciesOf(file).map((d): [string, string | null] => [d, this.hashOf(d)]);
      const kept = this.keptAsRestored(file, analysis, hash, deps, index);
      if (kept) {
        entries.push([file, kept]);
        continue;
      }
      const imports = pass.facts.importsNoted(file);
      const stamp = this.stampToStore(file);
      const bindings = index.bindingsOf(file);
      const marked = index.entryMarkOf(file);
      const resolutions = modules.resolutionsOf(file);
      const lookups = modules.lookupsOf(file);
      const extra = {
        ...(stamp ? { stamp } : {}),
        ...(imports ? { imports } : {}),
        ...(bindings ? { bindings } : {}),
        ...(marked !== undefined ? { marked } : {}),
        ...(resolutions.length ? { resolutions } : {}),
        ...(lookups.length ? { lookups } : {}),
      };
      const asRead = this.unchangedEntry(file, analysis, { hash, deps, ...extra });
      entries.push([file, asRead ?? { hash, deps, analysis: encodeAnalysis(analysis), ...extra }]);
    }
    const facts = {
      definitions: JSON.stringify(pass.facts.tableDefinitions()),
      wrappers: pass.facts.wrapperFiles(),
      aliases: this.aliasFacts(files, modules),
      ...(Object.keys(infra).length ? { infra } : {}),
    };
    writeChanges(this.file, this.key, facts, entries, this.old, this.setup.notice);
  }

  /**
   * The tsconfigs of path aliases and the manifests naming the monorepo's packages, with
   * what each holds. The same files in the same folders, and every config and manifest
   * looked at last time as it was (absent ones included): the same list, taken as read.
   */
  private aliasFacts(
    files: readonly string[],
    modules: { manifestsRead(dirs: Iterable<string>): string[] },
  ): RunFacts['aliases'] {
    const old = this.old;
    if (old && old.entries.size === files.length && files.every((f) => old.entries.has(f)) && this.aliasesHold())
      return old.facts.aliases;
    const scripts = files.filter((f) => resolvesAliases(languageForFile(f)));
    const dirs = new Set(scripts.map((f) => path.dirname(path.resolve(f))));
    return [...aliasConfigPaths(this.setup.key.root, dirs, walkedFileExists), ...modules.manifestsRead(dirs)].map(
      (c): [string, string | null] => [c, this.aliasState(c)],
    );
  }

  /**
   * The bytes of a restored entry that nothing in this run touched, told without building the
   * entry again (most of a one-file edit's cache write was rebuilding and comparing 5,000
   * entries that had not moved): the same analysis object, hash, modules read and their
   * hashes, stamp, imports, bindings and entry mark, and the very resolutions and lookups it
   * was restored with. Null when any differs or cannot be told so cheaply: `unchangedEntry`
   * then compares the entry built in full.
   */
  private keptAsRestored(
    file: string,
    analysis: FileAnalysis,
    hash: string,
    deps: Entry['deps'],
    index: WorkspaceIndex,
  ): Buffer | null {
    const raw = this.old?.raw.get(file);
    const old = this.old?.entries.get(file);
    if (!raw || !old || this.restoredAnalyses.get(file) !== analysis) return null;
    const now = {
      hash,
      deps,
      stamp: this.stampToStore(file),
      imports: index.crossFile.pass.facts.importsNoted(file),
      bindings: index.bindingsOf(file),
      marked: index.entryMarkOf(file),
    };
    const held =
      sameOwnParts(old, now) &&
      index.crossFile.modules.holdsAsReported(
        file,
        deps.map(([d]) => d),
        old.resolutions,
        old.lookups,
      );
    return held ? raw : null;
  }

  /**
   * The entry's bytes as read, when what would be written is the same: the index still
   * holds the very analysis restored from it (re-analysed or rebound, it is another
   * object) and the rest of the entry (hash, deps, stamp, imports, bindings) is equal.
   */
  private unchangedEntry(file: string, analysis: FileAnalysis, rest: Omit<Entry, 'analysis'>): Buffer | null {
    const raw = this.old?.raw.get(file);
    const old = this.old?.entries.get(file);
    if (!raw || !old || this.restoredAnalyses.get(file) !== analysis) return null;
    return sameEntryRest(old, rest) ? raw : null;
  }

  /** What a path-alias config holds now, as `RunFacts.aliases` records it. */
  private aliasState(config: string): string | null {
    if (!walkedFileExists(config)) return null;
    const text = readFromDisk(config);
    return text === null ? '-' : sha1(text);
  }

  /** The stamp the file was hashed under, when it was modified long enough before this run began (stamp.ts). */
  private stampToStore(file: string): Stamp | undefined {
    const stamp = this.stamps.get(file);
    return stamp && settledBefore(stamp, this.started) ? stamp : undefined;
  }
}
