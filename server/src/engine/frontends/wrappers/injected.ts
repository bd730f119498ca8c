/**
 * Tables injected through a constructor: a repository class keeps the table (or its
 * name) it is given (`def __init__(self, table_resource): self._table = table_resource`,
 * `constructor(private readonly tableName: string, ...)`) and its methods send requests
 * on `self._table` / `TableName: this.tableName`, which its own module cannot name. A
 * caller that sees where the instance is made (`TodoDB(boto3.resource("dynamodb").Table(
 * os.environ["APP_TABLE_NAME"]))`, `new OrdersRepo(process.env.ORDERS_TABLE!, ddb)`)
 * reads the table from the argument the constructor keeps in that field.
 */
import type { Node } from 'web-tree-sitter';
import type { SourceRange, Span, TableRef } from '../../model';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { MadeWith, ModuleSummary } from '../../model/summary';
import { entry, type Value } from '../../model/value';
import { tableRefOf } from '../../requests/interpret';
import { tableKey, tableName } from '../../keys/table';
import { moveSpans } from '../../syntax/positions';
import { spanOf } from '../../syntax/span';
import { callArguments } from './arguments';

/** A class of a summarised module, and where the caller's instance of it is made when that is seen. */
export interface ClassRef {
  module: ModuleSummary;
  name: string;
  /**
   * The expressions that make the instance (`new Repo(...)`, `Repo(...)`) in the caller's
   * file; absent when one of them is not seen (an imported factory, a field, an instance
   * another module made), so nothing is read from the others.
   */
  made?: Node[];
  /** What the construction another module's factory returns is given (`FunctionSummary.madeWith`), in that module's file. */
  given?: MadeWith & { file: string };
}

/**
 * The site's table as the constructions of `cls` give it, or null when the site's table
 * does not come from a field the constructor sets, or a construction is not seen.
 * Constructions passing different tables give an unknown table with those candidates;
 * one passing a table not read gives an unknown table.
 */
export function injectedTable(
  site: CallSite,
  cls: ClassRef | null,
  file: string,
  ctx: EvalContext,
): { table: TableRef; injected: SourceRange[] } | null {
  if (!site.tableField || (!cls?.made?.length && !cls?.given)) return null;
  const c = cls.module.classes.get(cls.name);
  const param = c?.injected?.fields.get(site.tableField);
  const init = param ? c!.methods.get(c!.injected!.init) : undefined;
  if (!param || !init) return null;
  if (!cls.made?.length) {
    const given = cls.given!;
    const value = givenArguments(given, init.params).get(param) ?? defaultAt(init.defaults, param, given.span);
    return {
      table: value ? tableOfValue(value) : { kind: 'unknown' },
      injected: [{ file: given.file, span: given.span }],
    };
  }
  const tables = cls.made.map((made) => {
    const args = callArguments(made, init.params, ctx);
    const given = args.get(param) ?? defaultAt(init.defaults, param, spanOf(made));
    return given ? tableOfValue(given) : ({ kind: 'unknown' } as TableRef);
  });
  const injected = cls.made.map((n) => ({ file, span: spanOf(n) }));
  const distinct = [...new Map(tables.map((t) => [tableKey(t), t])).values()];
  if (distinct.length === 1) return { table: distinct[0], injected };
  if (distinct.some((t) => t.kind === 'unknown')) return { table: { kind: 'unknown' }, injected };
  return { table: { kind: 'unknown', candidates: distinct.map((t) => tableName(t)!) }, injected };
}

/** A parameter's default (`tableName = process.env.ORDERS_TABLE!`) for a construction that leaves it out, placed there. */
function defaultAt(
  defaults: Array<{ name: string; value: Value; path?: string[] }> | undefined,
  param: string,
  at: Span,
) {
  // A destructured property's default is not the whole parameter's.
  const d = defaults?.find((x) => x.name === param && !x.path);
  return d ? moveSpans(d.value, () => at, '') : undefined;
}

/** A summarised construction's arguments by the constructor's parameter names. */
function givenArguments(given: MadeWith, params: readonly string[]): Map<string, Value> {
  const out = new Map<string, Value>();
  given.positional.forEach((v, i) => params[i] && out.set(params[i], v));
  for (const [name, v] of given.named) if (params.includes(name)) out.set(name, v);
  return out;
}

/** A table object (boto3 `Table(name)`: its `table_name`) or a table's name. */
function tableOfValue(v: Value): TableRef {
  return tableRefOf(v.kind === 'object' ? entry(v, 'table_name') : v);
}
