import type { Node } from 'web-tree-sitter';
import type { FunctionSummary } from './summary';
import type { Value } from './value';

/**
 * What one evaluation carries: the limits that keep it finite on any input, what it
 * can look up beyond the file, where it notes what it consulted, and the front-end's
 * evaluator. Plain data shared by every front-end and the summaries of other modules.
 */
export interface EvalContext {
  depth: number;
  /** Steps left for this call site; resolution across the file spends them. */
  budget: { steps: number };
  /** What can be looked up beyond the file: other modules' constants and functions. */
  lookups: Lookups;
  /** Where this evaluation notes what it consulted, for incremental reuse; null when nothing records. */
  deps: Deps | null;
  /** The front-end's evaluator: its helper modules call back through it rather than import it. */
  evaluate: Evaluator;
}

export type Evaluator = (n: Node | null, ctx: EvalContext) => Value | null;

/** The value `name` has in module `source` as imported by the file being analysed. */
export type ImportLookup = (source: string, name: string) => Value | null;

/**
 * A function of module `source` as the file being analysed imports it: `name` is the
 * function (`save`) or a class's method (`Repo.list`). Null when it is not known.
 */
export type FunctionLookup = (source: string, name: string) => FunctionSummary | null;

/** What evaluation can look up beyond the file being analysed. */
export interface Lookups {
  /** Values of names imported from other modules of the workspace (`export const SHARDS = 10`). */
  imports?: ImportLookup;
  /** Functions other modules export, summarised (what they return, the DynamoDB calls they make). */
  functions?: FunctionLookup;
  /**
   * The model a framework gives a class under a name: nestjs-dynamoose's `@InjectModel('User')`
   * is the `dynamoose.model(...)` a feature module's `DynamooseModule.forFeature` registers.
   */
  injectedModel?: (token: string) => Value | null;
  /**
   * The connection a library keeps by name for the whole process, wherever the workspace makes
   * it: TypeDORM's `createConnection({ name, table, entities })` in a bootstrap module or a class's
   * method, which `getEntityManager(name)` in any other module takes (`'default'` when unnamed).
   */
  connection?: (name: string) => Value | null;
  /**
   * The file is read for its functions' summaries: a parameter stays a marked hole
   * (`Hole.param`) instead of taking the values this file's own callers pass, so each
   * caller elsewhere puts in its own arguments.
   */
  summary?: boolean;
}

/**
 * What evaluating one call site consulted: the source ranges of every node evaluated
 * or bound to, and the names resolved. An edit that touches none of these ranges
 * and mentions none of these names cannot change the call site's value.
 */
export interface Deps {
  ranges: number[];
  names: Set<string>;
  /** Where each resolved name was bound (the binding's start; -1 when unbound). */
  bindings: Map<string, number[]>;
  /**
   * Functions whose calls in the file fed a parameter (the site's own enclosing
   * functions, a helper whose parameter its callers give): a call written anywhere
   * to one of them may change the value. A call to any other name cannot.
   */
  callers: Set<string>;
}
