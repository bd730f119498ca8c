import type { Declaration, SourceLanguage, Span } from '.';
import type { CallSite } from './call-site';
import type { Value } from './value';

export interface FunctionSummary {
  name: string;
  /** The class it is a method of, or null. */
  owner: string | null;
  /** The object literal it is a property of (`Keys` of `const Keys = { season: (s) => ... }`). */
  holder?: string;
  /** Parameter names in call order (`self` left out). */
  params: string[];
  /** The DynamoDB calls in its body whose request holds one of its parameters, in this module's positions. */
  sites: CallSite[];
  /** What it returns, parameters marked; null when there is nothing to follow. */
  returns: Value | null;
  /** A factory: the class it returns a new instance of, as this module writes it (`new RoomRepository(...)`, `cls(...)`). */
  makes?: string;
  /**
   * The arguments of that construction, evaluated in this module, and where it is written
   * (`return OrdersRepo(boto3.resource("dynamodb").Table(os.environ["ORDERS_TABLE"]))`):
   * a caller of the factory reads from them the table the class's constructor keeps.
   */
  madeWith?: MadeWith;
  /**
   * Python parameters with a constant default (`username=DEFAULT_USER`): the value a
   * caller that leaves the argument out passes, in this module's positions. Each part's
   * origin names the parameter first in its `via` (`declaration`). JavaScript/TypeScript
   * also: a property destructured from a parameter (`{ board = "global" }`), by the
   * parameter's name (`#0`) and the property's `path`.
   */
  defaults?: Array<{ name: string; value: Value; declaration: Declaration; path?: string[] }>;
}

/** A construction's arguments: positional ones in order (up to a spread), then keyword ones by name. */
export interface MadeWith {
  span: Span;
  positional: Value[];
  named: Array<[string, Value]>;
}

export interface ClassSummary {
  name: string;
  /** The names it extends, as written (resolved through the module's imports by the caller). */
  bases: string[];
  /** The interfaces it implements (TypeScript), as written: a field typed by one of them holds this class. */
  implements?: string[];
  methods: Map<string, FunctionSummary>;
  /**
   * What its constructor keeps of its parameters: `init`, the constructor's method name
   * (`__init__`, `constructor`), and `fields`, field → parameter (`self._table =
   * table_resource`, `self.table = dynamodb.Table(table_name)`, `this.table = table`, a
   * TypeScript parameter property `private readonly tableName: string`).
   */
  injected?: { init: string; fields: Map<string, string> };
}

export interface ModuleSummary {
  file: string;
  language: SourceLanguage;
  /** Top-level functions by the names importers use (an export alias included). */
  functions: Map<string, FunctionSummary>;
  classes: Map<string, ClassSummary>;
  /** How this module names what it imports: local name → module and name (for base classes). */
  imports: Map<string, { source: string; name: string }>;
  /** Whether some function (or method) makes a DynamoDB request from its parameters. */
  wraps: boolean;
  /** The name `export default` / `module.exports =` gives (a class or function of the module). */
  defaultExport?: string;
  /** What it exports from other modules: `export * from "./impl"` (`*`), `export { a as b } from "./impl"` (b → a). */
  reexports: Array<{ source: string; names: '*' | Map<string, string> }>;
  /** Module-level instances (`export const repo = new Repo()`): name → class as written here (`default` for `module.exports = new X()`). */
  instances: Map<string, string>;
}

/** The summary of module `source` as `fromFile` imports it, or null. */
export type ModulesFrom = (fromFile: string, language: SourceLanguage, source: string) => ModuleSummary | null;
