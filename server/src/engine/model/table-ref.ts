import type { Declaration } from './key-template';
import type { Span } from './range';

/**
 * Where an environment-named table's name came from: the function environment of a
 * template or Serverless service that sets the variable for the code's handler.
 */
export interface EnvTableSource {
  /** The variable the code reads (`TABLE_NAME`). */
  variable: string;
  /** The table's logical id when the template declares it (`VotesTable`), else null. */
  logicalId: string | null;
  /**
   * The template or service file that sets the variable; the file declaring the table when
   * that is another (a CDK stack given another stack's table), so `file` and `logicalId`
   * name one definition.
   */
  file: string;
}

/**
 * The table a call names: a literal (written in place or through a constant, then
 * `via` holds the declarations), an environment variable's name, or unknown. `span`
 * is the table expression in the call, when there is one.
 */
export type TableRef =
  /** `unlessEnv`: the name is a fallback for that variable (`process.env.X ?? 'Orders'`), which a function's environment may set. */
  | { kind: 'literal'; name: string; span?: Span; via?: Declaration[]; fromEnv?: EnvTableSource; unlessEnv?: string }
  /**
   * `fromEnv` on an env table: infrastructure code declares the table the variable names but
   * states no physical name (a `!Ref` table without `TableName`); `candidates`: the functions
   * that reach this code set the variable to different tables, so it stays the variable.
   */
  | { kind: 'env'; name: string; span?: Span; via?: Declaration[]; fromEnv?: EnvTableSource; candidates?: string[] }
  /**
   * A name fixed at deploy time: literal text around environment variables
   * (`f"inventory-{STAGE}"`, `` `orders-${process.env.STAGE}` ``), shown `inventory-{$STAGE}`.
   */
  | { kind: 'template'; name: string; span?: Span; via?: Declaration[]; fromEnv?: EnvTableSource }
  /**
   * `source`: the expression that should name it, as written (`get_table_name()`, the receiver `conn`).
   * `candidates`: the tables (as `tableName` writes them) that the constructions of the class
   * whose field holds the table pass, when they differ: it may be any of them.
   */
  | { kind: 'unknown'; span?: Span; source?: string; candidates?: string[] };
