import type { FileAnalysis } from '../analyze';
import type { TableDefinition } from '../model/call-site';
import { tableKey } from '../keys/table';
import type { Access, SourceLanguage } from '../model';
import { mayContainDynamoDbCalls } from '../syntax/prescan';
import { sameSpan } from '../syntax/span';
import { headImports, importNamesOf, importsAny } from '../frontends/wrappers/gate';
import { frontEndFor } from '../frontends/registry';

/**
 * What the workspace learns from some files that changes how others are read: the
 * modules that wrap DynamoDB calls (their importers must be parsed), and the tables
 * defined in code (their indexes' key attributes apply to every writer).
 */
export class CrossModuleFacts {
  private readonly wrappers = new Set<string>();
  private readonly definitions = new Map<string, TableDefinition[]>();
  private names: Set<string> | null = null;
  private all: TableDefinition[] | null = null;

  /** Notes what a file's new analysis says. */
  note(analysis: FileAnalysis): void {
    if (!!analysis.wraps !== this.wrappers.has(analysis.file)) {
      if (analysis.wraps) this.wrappers.add(analysis.file);
      else this.wrappers.delete(analysis.file);
      this.names = null;
    }
    const before = this.definitions.get(analysis.file);
    if (before || analysis.definitions) {
      if (analysis.definitions) this.definitions.set(analysis.file, analysis.definitions);
      else this.definitions.delete(analysis.file);
      this.all = null;
    }
  }

  /** Module names imported by files the pre-scan passed over: the caller pass reads only those that import a wrapper. */
  private readonly importNames = new Map<string, string[]>();
  /**
   * The same, by module name: the files that noted each. A warm check plans the entry files
   * it will read from the names of the modules whose reach is held; scanning the ~30,000 noted
   * names of 5,000 files for them twice a round cost it 10-30 ms.
   */
  private readonly importers = new Map<string, Set<string>>();
  private lastImports: { text: string; names: string[] } | null = null;

  /** The module names a file's head imports; the last text's kept, since the gate and the note ask in turn. */
  importsOf(text: string, language: SourceLanguage): string[] {
    if (this.lastImports?.text !== text) this.lastImports = { text, names: headImports(text, frontEndFor(language)) };
    return this.lastImports.names;
  }

  /**
   * Notes what a file the pre-scan passed over imports (nothing for a file that was
   * analysed). `passed`: the pre-scan's verdict when the caller already has it (the
   * parallel indexer scanned every file once; a second scan cost ~140 ms on 5,000 files).
   */
  noteImports(analysis: FileAnalysis, text: string, passed = mayContainDynamoDbCalls(text)): void {
    if (analysis.accesses.length > 0 || analysis.skipped || passed) this.setImports(analysis.file, null);
    else this.setImports(analysis.file, this.importsOf(text, analysis.language));
  }

  /** Notes what a file imports as an earlier run noted it (the analysis cache). */
  restoreImports(file: string, names: string[]): void {
    this.setImports(file, names);
  }

  private setImports(file: string, names: string[] | null): void {
    for (const n of this.importNames.get(file) ?? []) this.importers.get(n)?.delete(file);
    if (!names) {
      this.importNames.delete(file);
      return;
    }
    this.importNames.set(file, names);
    for (const n of names) {
      let files = this.importers.get(n);
      if (!files) this.importers.set(n, (files = new Set()));
      files.add(file);
    }
  }

  /** The files whose DynamoDB calls take their key from a parameter (sorted). */
  wrapperFiles(): string[] {
    return [...this.wrappers].sort();
  }

  /** What a skipped file imports, when it was noted while it was read. */
  importsNoted(file: string): string[] | undefined {
    return this.importNames.get(file);
  }

  /** The files the pre-scan passed over that noted an import of `name`. */
  importersOf(name: string): ReadonlySet<string> | undefined {
    return this.importers.get(name);
  }

  forget(file: string): void {
    this.setImports(file, null);
    if (this.wrappers.delete(file)) this.names = null;
    if (this.definitions.delete(file)) this.all = null;
  }

  get hasWrappers(): boolean {
    return this.wrappers.size > 0;
  }

  get wrapperCount(): number {
    return this.wrappers.size;
  }

  /** Whether a file's text imports one of the wrapper modules. */
  importsWrapper(text: string, language: SourceLanguage): boolean {
    return this.hasWrappers && this.importsWrapperNamed(headImports(text, frontEndFor(language)));
  }

  /** Whether module names a file imports (`importedModuleNames`) include a wrapper module's. */
  importsWrapperNamed(imported: Iterable<string>): boolean {
    this.names ??= new Set([...this.wrappers].flatMap(importNamesOf));
    return importsAny(imported, this.names);
  }

  /** Every table definition of the workspace, in file order (so the result does not depend on arrival order). */
  tableDefinitions(): TableDefinition[] {
    this.all ??= [...this.definitions.keys()].sort().flatMap((f) => this.definitions.get(f)!);
    return this.all;
  }
}

/**
 * Whether a file's writes must be read again for table definitions: every write of
 * `tables` when `keys` is null (a definition changed); else only a write that sets an
 * index key (`indexKeysByTable`) and has no access to that index yet (a writer analysed
 * before the definition arrived).
 */
export function writesStale(
  accesses: readonly Access[],
  tables: ReadonlySet<string>,
  keys: ReadonlyMap<string, Array<[string, string]>> | null,
): boolean {
  return accesses.some((a) => {
    if (a.kind !== 'write' || !tables.has(tableKey(a.table))) return false;
    if (!keys) return true;
    return (keys.get(tableKey(a.table)) ?? []).some(
      ([index, attr]) =>
        a.written?.includes(attr) &&
        attr !== a.partitionKey?.attribute &&
        !accesses.some((b) => b.index === index && sameSpan(b.span, a.span)),
    );
  });
}

/**
 * What a change of one file's table definitions can change in other files' writes, per
 * table whose definitions differ: every write ('all', when the table's own key names
 * changed), or only the writes that set one of these attributes (an index's partition
 * key, before or after: `indexWrites` reads nothing else of an index hint).
 */
export function definitionChanges(
  before: readonly TableDefinition[],
  after: readonly TableDefinition[],
): Map<string, Set<string> | 'all'> {
  const out = new Map<string, Set<string> | 'all'>();
  const hintsOf = (defs: readonly TableDefinition[], table: string) =>
    defs.filter(([t]) => t === table).map(([, h]) => h);
  for (const table of new Set([...before, ...after].map(([t]) => t))) {
    const was = hintsOf(before, table);
    const now = hintsOf(after, table);
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    // The table's own key names, from the hints that give any (a query through an index gives none).
    const own = (hints: typeof was) =>
      JSON.stringify(hints.filter((h) => h.partition || h.sort).map((h) => [h.partition, h.sort]));
    if (own(was) !== own(now)) {
      out.set(table, 'all');
      continue;
    }
    out.set(table, new Set([...was, ...now].flatMap((h) => Object.values(h.indexes ?? {}).map((k) => k.partition))));
  }
  return out;
}

/** Whether a file's writes are among those `definitionChanges` says may change. */
export function writesChanged(accesses: readonly Access[], changes: ReadonlyMap<string, Set<string> | 'all'>): boolean {
  return accesses.some((a) => {
    const change = a.kind === 'write' ? changes.get(tableKey(a.table)) : undefined;
    return change === 'all' || (!!change && !!a.written?.some((attr) => change.has(attr)));
  });
}

/** Table → the partition-key attributes its definitions name for the table itself. */
export function partitionKeysByTable(definitions: readonly TableDefinition[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [table, hint] of definitions) {
    if (hint.partition) out.set(table, (out.get(table) ?? new Set()).add(hint.partition));
  }
  return out;
}

/** Whether a write to a defined table takes another partition key than the definition names. */
export function writesOtherKey(accesses: readonly Access[], partitions: ReadonlyMap<string, Set<string>>): boolean {
  return accesses.some((a) => {
    const named = a.kind === 'write' && !a.index ? partitions.get(tableKey(a.table)) : undefined;
    return !!named && !named.has(a.partitionKey?.attribute ?? '');
  });
}

/** Table → its indexes' partition-key attributes, as `[index, attribute]`. */
export function indexKeysByTable(definitions: readonly TableDefinition[]): Map<string, Array<[string, string]>> {
  const out = new Map<string, Array<[string, string]>>();
  for (const [table, hint] of definitions) {
    for (const [index, names] of Object.entries(hint.indexes ?? {})) {
      const list = out.get(table) ?? [];
      list.push([index, names.partition]);
      out.set(table, list);
    }
  }
  return out;
}
