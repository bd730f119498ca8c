import type { FileAnalysis } from '../analyze';
import type { TableDefinition } from '../schemas';
import { importedModuleNames, importNamesOf, importsAny } from '../wrappers/gate';

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

  forget(file: string): void {
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
  importsWrapper(text: string): boolean {
    return this.hasWrappers && this.importsWrapperNamed(importedModuleNames(text.slice(0, 8192)));
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
