import * as path from 'node:path';
import { analyzeSource, DEFAULT_MAX_BYTES, type AnalyzeOptions, type FileAnalysis } from '../analyze';
import { languageForFile } from '../parser';
import { ModuleConstants, readFromDisk } from './modules';
import { readSource } from './source';
import type { Access, Finding, SourceLanguage } from '../model';
import { GROUP_RULES, type KeyGroup } from '../rules';
import { isSuppressed, type Suppressions } from '../suppress';
import { logicalKeysOf } from './logical-key';

export interface IndexOptions extends AnalyzeOptions {
  /** Messages name other files relative to this folder; Python imports resolve up to it. */
  root: string;
  /** A file's current text when it is open in an editor, else null (then it is read from disk). */
  openText?: (file: string) => string | null;
}

/**
 * Every call site of a workspace, grouped by logical key, with the cross-file
 * findings of each key. Updating one file re-extracts that file only and re-checks
 * only the logical keys it touched before or touches now.
 */
export class WorkspaceIndex {
  private readonly files = new Map<string, FileAnalysis>();
  /** File → its accesses by logical key, computed once when the file is set. */
  private readonly keysOfFile = new Map<string, Map<string, Access[]>>();
  private readonly filesOfKey = new Map<string, Set<string>>();
  private readonly groupFindings = new Map<string, Finding[]>();
  /** Keys whose group changed and whose cross-file findings are not computed yet. */
  private readonly dirty = new Set<string>();

  private readonly modules: ModuleConstants;
  private readonly analyzeOptions: AnalyzeOptions;

  constructor(private readonly options: IndexOptions) {
    this.modules = new ModuleConstants(options.root, (f) => options.openText?.(f) ?? readFromDisk(f));
    this.analyzeOptions = { ...options, resolveImport: this.modules.resolve };
  }

  /** The options to analyse a file of this workspace with (imports resolve across files). */
  get fileOptions(): AnalyzeOptions {
    return this.analyzeOptions;
  }

  /**
   * Reads and analyses one file from disk (or its open buffer); returns the keys it
   * touches. A first pass over the workspace passes `refresh = false`: modules are
   * read when first imported, so there is nothing stale to refresh yet.
   */
  analyzeFile(file: string, refresh = true): Set<string> {
    const language = languageForFile(file);
    if (!language) return new Set();
    const open = this.options.openText?.(file);
    const source = open != null ? { text: open } : readSource(file, this.options.maxBytes ?? DEFAULT_MAX_BYTES);
    if ('skipped' in source) {
      return this.set({ file, language, accesses: [], findings: [], skipped: source.skipped, syntaxErrors: false });
    }
    return this.update(file, source.text, language, refresh);
  }

  /**
   * Analyses one file's text; with `refresh`, files that import constants from it
   * are analysed again. Returns the logical keys touched.
   */
  update(file: string, text: string, language: SourceLanguage, refresh = true): Set<string> {
    const touched = this.set(analyzeSource(file, text, language, this.analyzeOptions));
    if (refresh) for (const key of this.refreshDependents(file)) touched.add(key);
    return touched;
  }

  /** A module changed: forget its constants and re-analyse the files that used them. */
  private refreshDependents(file: string): Set<string> {
    this.modules.forget(file);
    const touched = new Set<string>();
    for (const dependent of this.modules.dependentsOf(file)) {
      if (dependent === file || !this.files.has(dependent)) continue;
      const language = languageForFile(dependent);
      const text = this.options.openText?.(dependent) ?? readFromDisk(dependent);
      if (!language || text === null) continue;
      for (const key of this.set(analyzeSource(dependent, text, language, this.analyzeOptions))) touched.add(key);
    }
    return touched;
  }

  /**
   * Stores an analysis made elsewhere (the editor's open document) and marks the
   * logical keys it touched before or touches now for re-checking; returns them.
   */
  set(analysis: FileAnalysis): Set<string> {
    const file = analysis.file;
    const before = [...(this.keysOfFile.get(file)?.keys() ?? [])];
    const byKey = new Map<string, Access[]>();
    for (const a of analysis.accesses) {
      for (const k of logicalKeysOf(a)) byKey.set(k, [...(byKey.get(k) ?? []), a]);
    }
    this.files.set(file, analysis);
    this.relink(file, before, byKey);
    const touched = new Set([...before, ...byKey.keys()]);
    for (const key of touched) this.dirty.add(key);
    return touched;
  }

  remove(file: string): Set<string> {
    this.modules.forget(file);
    const before = [...(this.keysOfFile.get(file)?.keys() ?? [])];
    this.files.delete(file);
    this.relink(file, before, new Map());
    for (const key of before) this.dirty.add(key);
    return new Set(before);
  }

  private relink(file: string, before: string[], after: Map<string, Access[]>): void {
    for (const k of before) {
      const set = this.filesOfKey.get(k);
      set?.delete(file);
      if (set?.size === 0) this.filesOfKey.delete(k);
    }
    for (const k of after.keys()) {
      let set = this.filesOfKey.get(k);
      if (!set) this.filesOfKey.set(k, (set = new Set()));
      set.add(file);
    }
    if (after.size) this.keysOfFile.set(file, after);
    else this.keysOfFile.delete(file);
  }

  /** Computes the cross-file findings of every key changed since the last read. */
  private flush(): void {
    for (const key of this.dirty) this.recheck(key);
    this.dirty.clear();
  }

  private recheck(key: string): void {
    const files = this.filesOfKey.get(key);
    // In path order, so which writer a message names does not depend on the order files arrived in.
    const accesses = [...(files ?? [])].sort().flatMap((f) => this.keysOfFile.get(f)?.get(key) ?? []);
    // Every cross-file rule needs a shard part somewhere in the group: most keys have none.
    if (!accesses.some((a) => a.partitionKey?.template.parts.some((p) => 'hole' in p && p.hole.kind === 'shard'))) {
      this.groupFindings.delete(key);
      return;
    }
    const group: KeyGroup = { key, accesses, where: (a) => this.where(a) };
    const severity = this.options.severity ?? {};
    const found: Finding[] = [];
    for (const rule of GROUP_RULES) {
      const s = severity[rule.code] ?? rule.defaultSeverity;
      if (s !== 'off') found.push(...rule.check(group, s));
    }
    this.groupFindings.set(key, found);
  }

  private where(a: Access): string {
    const rel = path.relative(this.options.root, a.file).split(path.sep).join('/');
    return `${rel}:${(a.partitionKey?.inline ? a.partitionKey.span : a.span).startLine + 1}`;
  }

  /** One file's findings: its own and the cross-file ones placed in it, sorted by position. */
  findingsFor(file: string): Finding[] {
    this.flush();
    let cross = [...(this.keysOfFile.get(file)?.keys() ?? [])]
      .flatMap((k) => this.groupFindings.get(k) ?? [])
      .filter((f) => f.file === file);
    // A read that misses the shards of a sharded key (SL006) is not also a constant key (SL001):
    // the fix is to scatter-gather, not to shard again.
    const missesShards = new Set(cross.filter((f) => f.rule === 'SL006').map((f) => f.access));
    const ignores: Suppressions = new Map((this.files.get(file)?.ignores ?? []).map(([l, c]) => [l, new Set(c)]));
    cross = cross.filter((f) => !isSuppressed(f, ignores));
    const own = (this.files.get(file)?.findings ?? []).filter(
      (f) => !(f.rule === 'SL001' && missesShards.has(f.access)),
    );
    return dedupe([...own, ...cross]).sort(byPosition);
  }

  /** Every file's analysis with cross-file findings merged in, in path order. */
  results(): FileAnalysis[] {
    return [...this.files.keys()]
      .sort()
      .map((file) => ({ ...this.files.get(file)!, findings: this.findingsFor(file) }));
  }

  /** The files holding accesses of these logical keys: whose findings a change may alter. */
  filesOf(keys: Iterable<string>): Set<string> {
    const out = new Set<string>();
    for (const k of keys) for (const f of this.filesOfKey.get(k) ?? []) out.add(f);
    return out;
  }

  /** Every file analysed, with its analysis (own findings only). */
  analyses(): IterableIterator<FileAnalysis> {
    return this.files.values();
  }

  has(file: string): boolean {
    return this.files.has(file);
  }

  get size(): number {
    return this.files.size;
  }
}

function byPosition(a: Finding, b: Finding): number {
  return a.span.startLine - b.span.startLine || a.span.startColumn - b.span.startColumn || a.rule.localeCompare(b.rule);
}

/** A read that belongs to two logical keys (`K#3` is `K#3` and `K`) is reported once. */
function dedupe(fs: Finding[]): Finding[] {
  const seen = new Set<string>();
  return fs.filter((f) => {
    const id = `${f.rule}:${f.span.startLine}:${f.span.startColumn}:${f.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
