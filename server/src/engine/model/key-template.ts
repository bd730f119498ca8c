/**
 * Key templates: the literal text and classified holes a key value evaluates to, where
 * each part's text came from (origins, declarations), and the shard sets a hole may be.
 */
import type { SourceRange, Span } from './range';

/**
 * A declaration a value passed through on its way to a key: `const GLOBAL_BOARD =
 * "LEADERBOARD#GLOBAL"`, a module constant imported from another file, an assignment.
 */
export interface Declaration {
  name: string;
  file: string;
  /** The whole declarator (`GLOBAL_BOARD = "LEADERBOARD#GLOBAL"`). */
  span: Span;
  /** The value expression it binds (`"LEADERBOARD#GLOBAL"`). */
  valueSpan: Span;
}

/**
 * Where a template part's text came from: the expression in `file` at `span`, reached
 * through `via` (the declarations passed through, the one nearest the use first).
 * Parts of one template may come from different files.
 */
export interface Origin {
  file: string;
  span: Span;
  via: Declaration[];
}

export type HoleClass =
  'constant' | 'time' | 'random' | 'entity-id' | 'low-cardinality' | 'shard' | 'counter' | 'unknown';

/**
 * A recognised shard expression. `random`: a random suffix; `hash`: a calculated
 * suffix (hash or id modulo N); `loop`: a reader's loop over shard numbers;
 * `list`: an explicit list of shard values.
 */
export interface ShardSet {
  method: 'random' | 'hash' | 'loop' | 'list';
  /** The shard numbers, when known: 0..N-1 or 1..N or a literal list. */
  values: number[] | null;
  /** The expression that fixes how many shards there are, when the code names one. */
  count?: ShardCount;
}

/** `BOARD_SHARDS` in `Math.floor(Math.random() * BOARD_SHARDS)`, or the literal `10`. */
export interface ShardCount {
  /** The count expression's source text. */
  expression: string;
  /** The constant it names (`BOARD_SHARDS`), or null for a literal. */
  name: string | null;
  /** Where that constant is declared (`BOARD_SHARDS = 10`). */
  declaration: SourceRange | null;
  /** Its value, when known. */
  value: number | null;
}

/**
 * A time value: `bucket` is a calendar slot (today's date, this hour) that every
 * writer in that slot shares; `instant` is a timestamp that changes every moment.
 */
export type TimeGranularity = 'bucket' | 'instant';

export interface Hole {
  kind: HoleClass;
  /** The source text of the expression this hole stands for. */
  source: string;
  shards?: ShardSet;
  time?: TimeGranularity;
  /**
   * A date the request carries (`event.body.date`, `req.params.day`): the caller
   * chooses it, it is not read from the clock, so it spreads like any input value.
   */
  input?: true;
  /**
   * A random value evaluated once per process: at module level or in a class body
   * (`SHARD = random.randint(0, 9)`, `static SUFFIX = Math.floor(Math.random() * 10)`).
   * Every request of one process gets the same value, so it spreads nothing (SL010).
   */
  once?: true;
  /** A uniform random number in [0, 1) (`Math.random()`): times N, it picks one of N shards. */
  unit?: boolean;
  /**
   * Why an `unknown` hole is unknown when it is not the code's doing: the value nests
   * deeper than evaluation follows, or its call site spent its evaluation budget.
   */
  limit?: 'depth' | 'budget';
  /**
   * The value is a function's parameter that nothing in the analysis gave a value: its
   * name and position (0-based, `self` not counted), and the properties read from it
   * (`product.id` is `product` with path `["id"]`; a destructured `{ id }` parameter is
   * `#0` with path `["id"]`). A wrapper's summary replaces these holes with the
   * arguments at each caller; coverage reports keys left this way.
   */
  param?: { name: string; index: number; path?: string[] };
  /**
   * An environment read whose variable a parameter names (`process.env[name]`,
   * `os.getenv(key)` in a `requireEnv(name)` helper): `written` is the read with
   * `ENV_NAME_SLOT` where the variable goes. A caller passing the variable's name as text
   * (`requireEnv("ORDERS_TABLE")`) turns it into that read (`wrappers/instantiate.ts`).
   */
  envRead?: { param: { name: string; index: number; path?: string[] }; written: string };
}

/** Where the variable's name goes in `Hole.envRead.written`. */
export const ENV_NAME_SLOT = '\u0000';

/**
 * A piece of a key. `origin` is where its text came from; neighbouring literals
 * from different places stay separate parts so no origin is lost (`render` and
 * `literalText` join them for display).
 */
export type TemplatePart =
  | {
      literal: string;
      origin?: Origin;
      /**
       * The literal stands in for an environment variable left unset (`process.env.ORDERS_TABLE
       * ?? 'Orders'`): a table name the infrastructure that sets the variable overrides.
       */
      unlessEnv?: string;
      /**
       * The text the infrastructure sets this environment variable to, read by the code
       * (`os.environ["METADATA_KEY"]`, set to `__metadata` in the template): the key as deployed.
       */
      env?: string;
    }
  | { hole: Hole; origin?: Origin };

/** A key value as literal text with holes, e.g. `BOARD#global#{shard 0..9}`. */
export interface KeyTemplate {
  parts: TemplatePart[];
}
