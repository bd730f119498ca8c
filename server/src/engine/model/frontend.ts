/**
 * A front-end: what reads one language family's source files. The shared stages
 * (wrapper summaries, callers, module constants, table definitions, coverage) ask the
 * front-end chosen for a file's language (`frontends/registry.ts`) for everything that
 * depends on how the language is written, so they hold no branch on the language.
 * Plain types only: the front-ends implement it, every stage may name it.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { ReachReading } from './entry-point';
import type { CallStyle, ImportInfo, SdkStyle, SourceLanguage } from './index';
import type { CallSite, TableDefinition } from './call-site';
import type { CdkFile } from './cdk';
import type { Deps, EvalContext, Evaluator, Lookups } from './eval-context';
import type { ModuleSummary, ModulesFrom } from './summary';
import type { Value } from './value';

/** What a front-end is given for one file: its text and tree, its language, and lookups into other modules. */
export interface SourceFile {
  file: string;
  text: string;
  tree: Tree;
  language: SourceLanguage;
  /** Other modules' constants and function summaries. */
  lookups: Lookups;
  /** Call sites kept from an earlier version of the document (the language server's edits). */
  cache?: SiteMemo;
}

/** The part of the document's call-site cache a front-end uses (`site-cache.ts`). */
export interface SiteMemo {
  siteFor(n: Node, evaluate: (deps: Deps) => CallSite | null, at?: number): CallSite | null;
  known(at: number): { start: number; end: number; site: CallSite | null } | undefined;
  /** The candidate scan kept across edits (`candidates.ts`, `NameScan`). */
  names?: OffsetMemo;
}

/** Where a candidate pattern finds callee names in a text, kept between scans of one document. */
export interface OffsetMemo {
  offsets(text: string, pattern: RegExp): number[];
}

/** A function importers can call by name. */
export interface NamedFunction {
  node: Node;
  name: string;
  /** The class the function is a method of, or null. */
  owner: string | null;
  /**
   * The module-level object the function is a property of (`Dynamo` in `const Dynamo = {
   * getAllInSet: async (...) => ... }`), through which its siblings call it.
   */
  holder?: string;
  /** Parameter names in call order; a Python method's `self`/`cls` left out. */
  params: string[];
  /**
   * Parameters with a default: the default expression of each (Python: other than `None`;
   * JavaScript/TypeScript: other than `undefined`/`null`). A property destructured from a
   * parameter (`{ board = "global" }`) is named by the parameter (`#0`) and its `path`.
   */
  defaults?: Array<{ name: string; node: Node; path?: string[] }>;
}

/** A name a file imports, by its local name: `name` is `*` for a whole module and `default` for a default export. */
export interface ImportedName {
  source: string;
  name: string;
}

/** How a front-end finds the file an import names. */
export interface ModuleFinder {
  /** The workspace root: where a search upwards stops. */
  root: string;
  exists(file: string): boolean;
  /** The files a non-relative specifier may name through the nearest path aliases (`@adapters/db`). */
  aliasCandidates(fromFile: string, source: string): string[];
  /** The source a path of a build output folder stands for (tsconfig `outDir` → `rootDir`), or null. */
  builtSource?(file: string): string | null;
  /**
   * What a search upwards for a name found from each folder on (`folder\0name` → file or null),
   * kept as long as the finder's resolutions: the files of sibling folders search the same parents.
   */
  searched?: Map<string, string | null>;
}

/** Tree-sitter node and field names the shared stages look for. */
export interface Syntax {
  /** A call: `call_expression`, `call`. */
  call: string;
  /** `a.b`: `member_expression`, `attribute`. */
  member: string;
  /** The field of a member that holds the name after the dot: `property`, `attribute`. */
  memberName: string;
  /** `a = b` as an expression: `assignment_expression`, `assignment`. */
  assignment: string;
  /** Class declarations. */
  classes: readonly string[];
  /** Function nodes that may be named (declarations, methods, arrows and function expressions). */
  functions: readonly string[];
  /** Calls that may define a table (`create_table(...)`, `new Table(...)`). */
  definitionCalls: readonly string[];
}

export interface FrontEnd {
  /** A short name (`js`, `python`): module resolution caches are kept per front-end. */
  id: string;
  languages: readonly SourceLanguage[];
  syntax: Syntax;

  // What it returns for a file.
  /** Every DynamoDB call of the file, its input evaluated. */
  callSites(f: SourceFile): CallSite[];
  /**
   * The tables the file defines (`create_table(...)`, the CDK's `new Table(...)`), by their
   * key names and indexes'; a language front-end answers with `frontends/table-definitions.ts`.
   */
  tableDefinitions(f: SourceFile): TableDefinition[];
  /** The file's imports, one statement at a time, for code generated into it. */
  importOf(stmt: Node): ImportInfo | null;
  /** The names the file imports from other modules, by local name. */
  importedNames(tree: Tree): Map<string, ImportedName>;
  /** The module names a file's head mentions in its imports (a text scan, no tree). */
  importedModuleNames(text: string): Set<string>;
  /** Module-level constants (and classes, read like objects) by name, as importers see them. */
  topLevelDeclarations(tree: Tree): Map<string, Node>;
  /**
   * Module-level names bound by taking a value apart (`const { orders, users } = createTables()`,
   * `orders, users = create_tables()`): each name, the value node and the property or position it
   * takes. A factory returning several tables or models passes each on under its own name.
   */
  destructuredDeclarations(tree: Tree): DestructuredName[];
  /** `export * from`, `export { a as b } from`: a barrel's re-exports. */
  reexports(tree: Tree): ModuleSummary['reexports'];
  /** `module.exports = { save: putItem }`, `export default Post`: [exported name, local name]. */
  exportAliases(tree: Tree): Array<[string, string]>;
  /** Module-level instances (`export const repo = new Repo()`): name → class as the module writes it. */
  moduleInstances(tree: Tree): Map<string, string>;
  /**
   * What the file tells the reachability pass (`entry-points/`): its functions, calls, loops,
   * imports and the entry points written in it, read node by node (`frontends/file-reach.ts`
   * assembles them). `test`: a test file; `bin`: a package.json `bin`; `words`: the text's word
   * counts, when the caller keeps them, so that a mark needing a word not written is not looked for.
   */
  reachReading(
    tree: Tree,
    file: string,
    role: { test: boolean; bin: boolean },
    words?: ReadonlyMap<string, number>,
  ): ReachReading;
  /** The workspace file an import names, or null for packages and missing files. */
  resolveModule(fromFile: string, source: string, finder: ModuleFinder): string | null;

  // How it evaluates and resolves.
  evaluate: Evaluator;
  /**
   * The expression a name is bound to (`repo = new Repo()`), or null; for a parameter a
   * framework fills (FastAPI's `repo = Depends(get_repo)`), the marker that says how.
   */
  valueOf(id: Node, ctx: EvalContext): Node | null;
  /** The function a dependency-injection marker names (`get_repo` of `Depends(get_repo)`): the value is what it returns. */
  dependencyProvider?(e: Node | null): Node | null;
  /** The function a called name is bound to (a `def`, a `function`, a `const f = () =>`), or null. */
  functionOf(callee: Node, ctx: EvalContext): Node | null;
  /**
   * What a call calls, as its author wrote it, when the syntax says it another way: tsc and
   * esbuild call an imported function as `(0, db_1.save)(...)`. Without it, the call's `function`.
   */
  calleeOf?(call: Node): Node | null;
  /** Whether a receiver's root name is this workspace's own code (a class, a function, a relative import). */
  isOwnCode(root: Node, ctx: EvalContext): boolean;
  /** The properties a table definition call passes (keyword arguments, or its last object argument). */
  definitionProps(call: Node, ctx: EvalContext): Value | null;

  // Functions and classes.
  /** `n` as a function importers can name, or null. */
  namedFunction(n: Node): NamedFunction | null;
  /** Whether `n` is a function definition that makes the functions inside it private helpers. */
  isFunctionDefinition(n: Node): boolean;
  /** Whether code inside `n` runs in its own function (nested ones, arrows and lambdas too). */
  isFunctionScope(n: Node): boolean;
  /** A function's own `return` expressions (null for a bare `return`), or an arrow's expression body. */
  returnedExpressions(fn: Node): Array<Node | null>;
  /** The names a class extends: `extends BaseRepo`, `class Invoices(Base)`. */
  baseNames(cls: Node): string[];
  /** The class expression of an expression that makes an instance (`new Repo()`, `Repo()`), or null. */
  constructorOf(e: Node | null): Node | null;
  /** Whether a constructor names the class it is written in (`new this()`, `cls(...)`). */
  isOwnClass(ctor: Node): boolean;
  /** `this.repo` / `self.repo`: a field of the enclosing class. */
  isOwnField(n: Node): boolean;
  /** The fields a class's constructor sets from its parameters (`ClassSummary.injected`), or null. */
  injectedFields(cls: Node): { init: string; fields: Map<string, string> } | null;
  /** The class of an object a class keeps in a field (`this.repo`), as the file writes it. */
  fieldClassName(member: Node, ctx: EvalContext): string | null;
  /** Whether `from app import dao` may import a module `app.dao` as well as a name. */
  importsModulesByName: boolean;

  // What it says and writes.
  /** How a request read by its shape alone (a helper outside the workspace) is written. */
  guessedCall: { sdk: SdkStyle; form: CallStyle['form'] };
  /** Advice for a table not read: where its name comes from, in the language's words. */
  tableAdvice: { env: string; where: string };
  /** Whether a file is a test, a handler, a script or a library, as its content says (`file-roles/role.ts`). */
  contentRoles: 'js' | 'python';

  /**
   * Whether the file declares a DynamoDB library's model whose methods its importers call
   * (a PynamoDB `Model`): such a module is read as a wrapper module, so a file that only
   * imports the model (`from .models import Thread`) is analysed too. Absent: none.
   */
  declaresModels?(f: SourceFile): boolean;
  /**
   * The models a module registers with a framework for injection by name (nestjs-dynamoose's
   * `DynamooseModule.forFeature([{ name, schema, options }])`): the nodes of each. Absent: none.
   */
  featureModels?(root: Node): FeatureModel[];
  /**
   * The options a framework's root module gives the library for every model (nestjs-dynamoose's
   * `DynamooseModule.forRoot({ table: { prefix, suffix } })`): the expression of each. Absent: none.
   */
  rootModelOptions?(root: Node): Node[];

  // Infrastructure written in the language.
  /** An AWS CDK file's statements, read into the language-neutral vocabulary `infra/cdk/` reads; absent for a language the CDK is not written in. */
  cdk?(tree: Tree, file: string): CdkFile;
}

/**
 * A DynamoDB library's front-end (ElectroDB): calls written through the library's
 * model, read as the requests it makes. It reads the language through the language
 * front-end it is given (its evaluator), never by importing one.
 */
export interface LibraryFrontEnd {
  id: string;
  languages: readonly SourceLanguage[];
  /** The library's DynamoDB calls in the file (none when the text cannot hold one). */
  callSites(f: SourceFile, language: FrontEnd): CallSite[];
  /** The tables the library's models define in the file (a model's table name and key attributes). */
  tableDefinitions?(f: SourceFile, language: FrontEnd): TableDefinition[];
  /** Whether the file declares a model its importers call (`FrontEnd.declaresModels`). */
  declaresModels?(f: SourceFile): boolean;
  /** The connections the file makes by name for the whole process (`Lookups.connection`). */
  connections?: ConnectionReader;
}

/** Where a library's process-wide connections are made: a text test first, then the file's reading. */
export interface ConnectionReader {
  mayHold(text: string): boolean;
  read(f: SourceFile, language: FrontEnd): NamedConnection[];
}

export interface NamedConnection {
  name: string;
  value: Value;
}

/** One model a framework module registers: the expressions of its name, schema and options. */
export interface FeatureModel {
  nameNode: Node;
  schema: Node;
  options: Node | null;
  /** `schema` names the factory (`useFactory: makeSchema`, local or imported): the schema is what it returns. */
  factoryName?: true;
}

/**
 * A language front-end as the registry hands it to the shared stages (`frontEndFor`):
 * its answers with those of the libraries that read its languages added, and the
 * module summary made from them.
 */
export interface RegisteredFrontEnd extends FrontEnd {
  /**
   * The module as importers see it (`model/summary.ts`): its functions and classes, what
   * each returns, and with `withSites` the DynamoDB requests each makes from its
   * parameters (`modulesFrom`: the summaries of the modules it imports, whose wrappers
   * its functions may call).
   */
  summarize(f: SourceFile, withSites: boolean, modulesFrom?: ModulesFrom): ModuleSummary;
  /** The connections the file makes by name, of every library reading the language (`LibraryFrontEnd.connections`). */
  connections?: ConnectionReader;
}

/** A module-level name bound by destructuring: `value`'s property (a name) or item (a position). */
export interface DestructuredName {
  name: string;
  value: Node;
  key: string | number;
}
