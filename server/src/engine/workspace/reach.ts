/**
 * The workspace's side of the reachability pass (`entry-points/`): which files' reach it
 * holds, when the graph must be built again, and the few files the pre-scan passed over
 * that it reads for the entry points they declare.
 *
 * Every parsed file brings its `FileReach` in its analysis (cached with it), so the pass
 * parses nothing of its own but route and handler files that call into code it already
 * holds. The graph is rebuilt only when some file's reach changes shape (its functions,
 * calls, imports or entry points, positions aside) or what a file imports does: an edit
 * inside a function re-reads only that file's accesses.
 */
import * as path from 'node:path';
import type { FileAnalysis } from '../analyze';
import {
  accessReaches,
  codeReach,
  mayDeclareEntryPoints,
  reachState,
  type CallGraph,
  type CodeReach,
  type ReachInputs,
  type ReachState,
} from '../entry-points';
import { reachOfText } from '../entry-points/file';
import type { Access } from '../model';
import type { AccessReach, EntryPoint, FileReach, InfraDeclarations } from '../model/entry-point';
import { languageForFile } from '../syntax/parser';
import { importNamesOf, moduleName } from '../frontends/wrappers/gate';
import { reachText, shapeOf, unchangedFiles } from './reach-changes';
import { resolvedPath } from './resolved-path';

/** Rounds of reading entry-point files: a route file calling a service, an app mounting that route file. */
const ENTRY_ROUNDS = 3;

export interface ReachSources {
  root: string;
  analyses: () => Iterable<FileAnalysis>;
  analysisOf: (file: string) => FileAnalysis | undefined;
  /** What a file the pre-scan passed over imports, as noted when it was read. */
  importsNoted: (file: string) => readonly string[] | undefined;
  /** The files the pre-scan passed over that noted an import of a module name. */
  importersOf: (name: string) => ReadonlySet<string> | undefined;
  text: (file: string) => string | null;
  importFile: (fromFile: string, module: string) => string | null;
  /** The templates' version, and what they declare (asked only when the version moved). */
  infra: { version: () => number; declarations: () => InfraDeclarations[]; extra: () => readonly EntryPoint[] };
}

export class WorkspaceReach {
  /** Bumped when some file's reach shape or noted imports change: the graph is built again only then. */
  private version = 0;
  /** Files stored or removed since the graph was built. */
  private readonly changed = new Set<string>();
  /** The graph, and what each file's reach and imports were when it was built. */
  private built: { key: string; state: ReachState } | null = null;
  /** The part of the graph the files' reach makes, and what each file's reach and imports were then. */
  private code: {
    version: number;
    code: CodeReach;
    from: Map<string, { reach?: FileReach; noted?: readonly string[] }>;
    /** Each file with reach by its absolute path: templates and imports name files so. */
    keyOf: Map<string, string>;
    inputs: Pick<ReachInputs, 'reaches' | 'importedNames' | 'importFile'>;
  } | null = null;
  private readonly perFile = new Map<
    string,
    { analysis: FileAnalysis; state: ReachState; reach: Map<Access, AccessReach> }
  >();
  private held: { version: number; names: Set<string> } | null = null;
  /** The files the held files import (`importedByHeld`), for the version of the reach data. */
  private importedHeld: { version: number; files: Set<string> } | null = null;
  /** Files looked at for entry-point markers, by the analysis they were looked at with. */
  private readonly marked = new WeakMap<FileAnalysis, boolean>();

  constructor(private readonly sources: ReachSources) {}

  /** A file's analysis was stored (after its imports were noted): looked at when the graph is next asked for. */
  noted(analysis: FileAnalysis): void {
    this.changed.add(analysis.file);
  }

  forget(file: string): void {
    this.changed.add(file);
    this.perFile.delete(file);
  }

  /**
   * Whether a file stored since the graph was built changed what the graph is made of.
   * Compared only then, and only for those files: a first index stores every file once.
   */
  private settle(): void {
    if (!this.changed.size) return;
    const from = this.code?.from;
    for (const file of this.changed) {
      const now = this.analysisOf(file);
      const before = from?.get(file);
      if (!from || shapeOf(before?.reach, before?.noted) !== shapeOf(now?.reach, now?.noted)) {
        this.version++;
        break;
      }
    }
    this.changed.clear();
  }

  private analysisOf(file: string): { reach?: FileReach; noted?: readonly string[] } | undefined {
    const a = this.sources.analysisOf(file);
    return a && { reach: a.reach, noted: a.reach ? undefined : this.sources.importsNoted(file) };
  }

  /**
   * The files the pre-scan passed over whose text may declare an entry point and that
   * import a module whose reach is held (a route file calling a repository, an app that
   * mounts a route file). Each round may add the importers of the last one's files.
   */
  entryFilesToRead(): FileAnalysis[] {
    const { names, passed } = this.heldAndPassedOver();
    const imported = passed.length ? this.importedByHeld() : new Set<string>();
    return this.pick(passed, names, imported);
  }

  /**
   * Of `candidates`, the files a round reads: each imports a module whose reach is held (or
   * a held file imports it) and either may declare an entry point or, with no marker, is
   * imported by a held file or by a pending file that may: a layer between a handler and its
   * repository (`logic/featured.py` calling `get_dal_handler(table).list_featured()`, a
   * helpers module building the repository a handler module keeps). Those importers are
   * looked for among every file the pre-scan passed over (`passedOver`).
   */
  private pick(
    candidates: readonly FileAnalysis[],
    names: ReadonlySet<string>,
    imported: ReadonlySet<string>,
  ): FileAnalysis[] {
    const importing = new Set<string>();
    for (const n of names) for (const f of this.sources.importersOf(n) ?? []) importing.add(f);
    const linked = candidates.filter(
      (a) => importing.has(a.file) || (imported.size > 0 && imported.has(resolvedPath(a.file))),
    );
    const layers = linked.filter((a) => !this.isMarked(a));
    if (!layers.length) return linked;
    const byHeld = this.importedByHeld();
    const wanted = new Set(layers.flatMap((a) => importedAs(a.file)));
    const importedByMarked = new Set<string>();
    for (const n of wanted)
      for (const f of this.sources.importersOf(n) ?? []) {
        const a = this.sources.analysisOf(f);
        if (a && this.passedOver(a) && this.isMarked(a)) {
          importedByMarked.add(n);
          break;
        }
      }
    return linked.filter(
      (a) =>
        this.isMarked(a) ||
        byHeld.has(resolvedPath(a.file)) ||
        importedAs(a.file).some((n) => importedByMarked.has(n)) ||
        isPackageIndex(a.file),
    );
  }

  /**
   * The files the files whose reach is held import, resolved: a handler file read for its
   * entry point calls a factory (`makeFeedHandler(deps)`) in a module that imports no
   * repository itself, whose handler reaches one through what it is given.
   */
  private importedByHeld(): Set<string> {
    this.settle();
    if (this.importedHeld?.version === this.version) return this.importedHeld.files;
    const files = new Set<string>();
    for (const a of this.sources.analyses())
      for (const b of a.reach?.imports ?? []) {
        const target = this.sources.importFile(a.file, b.module);
        if (target) files.add(resolvedPath(target));
      }
    this.importedHeld = { version: this.version, files };
    return files;
  }

  /**
   * After one file changed (an edit, a save): reads it for its entry points when it is
   * one of the files `entryFilesToRead` picks. Whether it was read.
   */
  readEntryFile(analysis: FileAnalysis, store: (analysis: FileAnalysis) => void): boolean {
    const noted = this.sources.importsNoted(analysis.file);
    if (analysis.reach || analysis.skipped || analysis.accesses.length || !noted) return false;
    const names = this.heldModuleNames();
    const imported = () => this.importedByHeld().has(resolvedPath(analysis.file));
    if (!(noted.some((n) => names.has(n)) || imported())) return false;
    if (!this.isMarked(analysis) && !this.pick([analysis], names, this.importedByHeld()).length) return false;
    const reach = this.readReach(analysis.file);
    this.marked.set(analysis, false);
    if (reach) store({ ...analysis, reach });
    return !!reach;
  }

  /** A file the pre-scan passed over that noted its imports: one a round may read. */
  private passedOver(a: FileAnalysis): boolean {
    return !a.reach && !a.skipped && a.accesses.length === 0 && !!this.sources.importsNoted(a.file);
  }

  /** The module names of the files whose reach is held, for the version of the reach data. */
  private heldModuleNames(): Set<string> {
    this.settle();
    if (this.held?.version === this.version) return this.held.names;
    const { names } = this.heldAndPassedOver();
    this.held = { version: this.version, names };
    return names;
  }

  /** In one pass over the analyses: the module names of the files whose reach is held, and the files the pre-scan passed over. */
  private heldAndPassedOver(): { names: Set<string>; passed: FileAnalysis[] } {
    const names = new Set<string>();
    const passed: FileAnalysis[] = [];
    for (const a of this.sources.analyses()) {
      if (a.reach) for (const n of importedAs(a.file)) names.add(n);
      else if (this.passedOver(a)) passed.push(a);
    }
    return { names, passed };
  }

  /**
   * The files `readEntryFiles` will read, every round of them, worked out before the
   * files in `pending` (sent to be analysed, not yet stored) are in, on the understanding
   * that each of them brings its reach: the analysis thread reads them while this one
   * waits, with its grammars warm, instead of this thread loading the grammars after it.
   * A file read here that a round would not pick (its import's analysis came back without
   * reach) only adds reach, which lowers nothing.
   */
  plannedEntryFiles(pending: Iterable<string>): string[] {
    const { names, passed } = this.heldAndPassedOver();
    for (const f of pending) for (const n of importedAs(f)) names.add(n);
    let candidates = passed;
    const planned: string[] = [];
    const imported = candidates.length ? this.importedByHeld() : new Set<string>();
    for (let round = 0; round < ENTRY_ROUNDS && candidates.length; round++) {
      const picked = this.pick(candidates, names, imported);
      if (!picked.length) break;
      for (const a of picked) {
        planned.push(a.file);
        for (const n of importedAs(a.file)) names.add(n);
      }
      candidates = candidates.filter((a) => !picked.includes(a));
    }
    return planned;
  }

  /** Reads the entry-point files (`entryFilesToRead`), in rounds; `store` keeps each one's analysis with its reach. */
  readEntryFiles(store: (analysis: FileAnalysis) => void): number {
    let read = 0;
    for (let round = 0; round < ENTRY_ROUNDS; round++) {
      const files = this.entryFilesToRead();
      if (!files.length) break;
      for (const a of files) {
        const reach = this.readReach(a.file);
        // Nothing to keep (not parsed): not asked again for this analysis.
        this.marked.set(a, false);
        if (reach) store({ ...a, reach });
        read++;
      }
    }
    return read;
  }

  /** How each access of a file is reached; worked out again only when its analysis or the graph changed. */
  ofFile(analysis: FileAnalysis): Map<Access, AccessReach> {
    const state = this.state();
    const known = this.perFile.get(analysis.file);
    if (known && known.analysis === analysis && known.state === state) return known.reach;
    const reach = accessReaches(state, analysis.reach, analysis.file, analysis.accesses);
    this.perFile.set(analysis.file, { analysis, state, reach });
    return reach;
  }

  /**
   * The files whose accesses are reached otherwise than when their findings were last
   * worked out: after an edit changed the graph (a route added, a call removed), the
   * language server republishes them. Compared only when the graph was built again.
   */
  filesReachedOtherwise(): string[] {
    const state = this.state();
    const out: string[] = [];
    const unchanged = new Map<ReachState, (file: string) => boolean>();
    for (const a of this.sources.analyses()) {
      const before = this.perFile.get(a.file);
      if (!before || before.state === state || !a.accesses.length) continue;
      // Only the templates' entry points changed: a file none of the changed ones reaches keeps its reach.
      let same = unchanged.get(before.state);
      if (!same) unchanged.set(before.state, (same = unchangedFiles(before.state, state)));
      if (before.analysis === a && same(a.file)) {
        this.perFile.set(a.file, { ...before, state });
        continue;
      }
      if (reachText(before.reach) !== reachText(this.ofFile(a))) out.push(a.file);
    }
    return out;
  }

  /** What `isMarked` found for this analysis, if it was looked at: the analysis cache keeps it with the entry. */
  markOf(a: FileAnalysis): boolean | undefined {
    return this.marked.get(a);
  }

  /** A restored analysis was looked at with the same text before: not read from disk again to look. */
  restoreMark(a: FileAnalysis, marked: boolean): void {
    this.marked.set(a, marked);
  }

  private isMarked(a: FileAnalysis): boolean {
    let marked = this.marked.get(a);
    if (marked === undefined) {
      const text = this.sources.text(a.file);
      marked = text !== null && mayDeclareEntryPoints(text);
      this.marked.set(a, marked);
    }
    return marked;
  }

  private readReach(file: string): FileReach | null {
    const language = languageForFile(file);
    const text = this.sources.text(file);
    return language && text !== null ? reachOfText(file, text, language) : null;
  }

  private state(): ReachState {
    this.settle();
    const infra = this.sources.infra;
    const key = `${this.version}:${infra.version()}`;
    if (this.built?.key === key) return this.built.state;
    const code = this.codeState();
    // Templates name their handlers' files from the workspace root; the index may name them otherwise.
    const keyOf = code.keyOf;
    const root = this.sources.root;
    const declarations = infra.declarations();
    const entries = [...declarations.flatMap((d) => d.functions.flatMap((f) => f.triggers)), ...infra.extra()].map(
      (e) => {
        const file = keyOf.get(path.resolve(root, e.file));
        return file ? { ...e, file } : e;
      },
    );
    const dirOf = (d: (typeof declarations)[number]) => path.dirname(path.resolve(root, d.file));
    // A template with a part it could not follow (a handler naming a build output, a zip, an
    // image) may run code from anywhere under it: its folder's entry points are not all known.
    // An SST app's site and container components (`Nextjs`, `Service`) run code no handler
    // names: its files never make a folder's entry points all known.
    const infraDirs = declarations
      .filter((d) => d.functions.length && !d.skipped.length && d.format !== 'sst')
      .map(dirOf);
    const uncertainDirs = declarations.filter((d) => d.skipped.length).map(dirOf);
    const state = reachState({ ...code.inputs, infra: entries, infraDirs, uncertainDirs }, code.code);
    this.built = { key, state };
    return state;
  }

  /** The calls of the files' functions, followed by name through their imports (`entry-points/reach.ts`). */
  calls(): CallGraph {
    return this.codeState().code.calls;
  }

  /** The graph's part made of the files' reach: built again only when some file's reach changed shape. */
  private codeState(): NonNullable<WorkspaceReach['code']> {
    if (this.code?.version === this.version) return this.code;
    const reaches = new Map<string, FileReach>();
    const importedNames = new Set<string>();
    const from = new Map<string, { reach?: FileReach; noted?: readonly string[] }>();
    for (const a of this.sources.analyses()) {
      if (a.reach) {
        reaches.set(a.file, a.reach);
        from.set(a.file, { reach: a.reach });
        continue;
      }
      const noted = this.sources.importsNoted(a.file);
      from.set(a.file, { noted });
      for (const n of noted ?? []) importedNames.add(n);
    }
    // Imports name files as the resolver finds them; the index may name them otherwise.
    const keyOf = new Map([...reaches.keys()].map((f) => [path.resolve(f), f]));
    const importFile = (from: string, module: string) => {
      const found = this.sources.importFile(from, module);
      return found ? (keyOf.get(path.resolve(found)) ?? found) : null;
    };
    const inputs = { reaches, importedNames, importFile };
    this.code = { version: this.version, code: codeReach(inputs), from, keyOf, inputs };
    return this.code;
  }
}

/**
 * A package's index (`db/index.ts`, `app/__init__.py`): it gathers what its modules define for
 * importers (re-exports, a barrel of barrels), so one that imports a module whose reach is held
 * is read as a layer, whoever imports it.
 */
function isPackageIndex(file: string): boolean {
  return /^(?:index\.[cm]?[jt]sx?|__init__\.py)$/.test(path.basename(file));
}

/**
 * The module names importers' noted imports may give a file: its own, and for a package's
 * index also its folders' (`packages/data/src/index.ts` is what a monorepo imports as
 * `@acme/data`, noted as `data`).
 */
function importedAs(file: string): string[] {
  return isPackageIndex(file) ? importNamesOf(file) : [moduleName(file)];
}
