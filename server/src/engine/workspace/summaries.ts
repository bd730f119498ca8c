import type { Tree } from 'web-tree-sitter';
import type { Lookups } from '../model/eval-context';
import type { SourceLanguage } from '../model';
import { languageForFile, parse } from '../syntax/parser';
import { mayContainDynamoDbCalls } from '../syntax/prescan';
import { frontEndFor } from '../frontends/registry';
import type { ModuleSummary, ModulesFrom } from '../model/summary';
import type { ReadText } from './source';

const MAX_MODULE_BYTES = 512 * 1024;
/** Summaries being made inside summaries (a module's function returns another module's): bounded. */
const MAX_NESTING = 4;

/**
 * A barrel (`export * from "./db-utils/paginated"`, a package's `__init__.py` importing its
 * modules): summarised with its re-exports whatever the workspace knows of wrappers so far, since
 * an importer analysed before the wrapper module would otherwise find the barrel empty for good.
 */
function reexports(text: string, module: string): boolean {
  return module.endsWith('__init__.py')
    ? /^from\s+\.[\w.]*\s+import\s/m.test(text)
    : /^\s*export\s+(?:\*|\{[^}]*\})\s*(?:as\s+[\w$]+\s+)?from\s*['"]/m.test(text);
}

/**
 * Module summaries, made on demand and kept until the module changes. A module is
 * parsed once for its summary; what its calls need from further modules is looked up
 * through `lookupsFor` (bounded in depth; an import cycle sees an empty summary).
 */
export class ModuleSummaries {
  private readonly cache = new Map<string, ModuleSummary | null>();
  private nesting = 0;
  /** Modules read and found to hold no DynamoDB call nor import a wrapper, until any module changes. */
  private readonly withoutSites = new Set<string>();

  constructor(
    private readonly read: ReadText,
    private readonly lookupsFor: (module: string, language: SourceLanguage) => Lookups,
    /** Summaries of the modules a module imports: its functions may call their wrappers. */
    private readonly modulesFrom: ModulesFrom,
    /** Whether a module without DynamoDB calls imports a wrapper module (so it may wrap one in turn). */
    private readonly importsWrapper: (text: string, language: SourceLanguage) => boolean = () => false,
  ) {}

  /**
   * `module`'s summary; with `sites`, its wrappers' DynamoDB calls too. A module the
   * pre-scan finds no DynamoDB call in has none, and is not parsed just to say so.
   */
  of(module: string, sites: boolean): ModuleSummary | null {
    const cached = this.cache.get(module);
    if (cached !== undefined) return cached;
    // A module known to make no DynamoDB call: not read again on every keystroke of its importers.
    if (sites && this.withoutSites.has(module)) return null;
    const language = languageForFile(module);
    const text = this.read(module);
    if (!language || text === null || text.length > MAX_MODULE_BYTES || this.nesting >= MAX_NESTING) return null;
    const withSites = mayContainDynamoDbCalls(text) || this.importsWrapper(text, language) || reexports(text, module);
    if (sites && !withSites) {
      this.withoutSites.add(module);
      return null;
    }
    this.cache.set(module, null); // an import cycle sees no summary
    let tree: Tree;
    try {
      tree = parse(language, text, 1000);
    } catch {
      return null;
    }
    this.nesting++;
    try {
      const lookups = this.lookupsFor(module, language);
      const summary = frontEndFor(language).summarize(
        { file: module, text, tree, language, lookups },
        withSites,
        this.modulesFrom,
      );
      this.cache.set(module, summary);
      return summary;
    } catch {
      this.cache.delete(module);
      return null;
    } finally {
      this.nesting--;
      tree.delete();
    }
  }

  /** Another module became (or stopped being) a wrapper: a module that imports it may wrap it in turn. */
  wrappersChanged(): void {
    this.withoutSites.clear();
  }

  forget(module: string): void {
    this.cache.delete(module);
    this.withoutSites.clear();
  }
}
