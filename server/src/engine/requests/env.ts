import type { KeyTemplate } from '../model';

/**
 * How code reads an environment variable, in every language the engine reads:
 * `process.env.X`, `process.env["X"]`, `os.environ["X"]`, `os.getenv("X")`,
 * `os.environ.get("X")`.
 */
const ENV_READ =
  /(?:process\.env\.|process\.env\[["'`]|environ\[["']|getenv\(["']|environ\.get\(["'])([A-Za-z_][A-Za-z0-9_]*)/;

/**
 * The variables SST sets for a linked (v3) or bound (v2) table, by the table's id, and how the
 * code reads each: v3 `Resource.Votes.name` (`SST_RESOURCE_Votes`), v2 `Table.Votes.tableName`
 * (`SST_Table_tableName_Votes`, from `sst/node/table`). Named here once, for the readers of
 * SST code and of its reads.
 */
const SST_VARIABLES = [
  { prefix: 'SST_RESOURCE_', read: (id: string) => `Resource.${id}.name` },
  { prefix: 'SST_Table_tableName_', read: (id: string) => `Table.${id}.tableName` },
];
/** The code's reads, in SST_VARIABLES' order: the id in the group of the one that matched. */
const SST_READ = /^(?:Resource\.([A-Za-z_]\w*)\.name|Table\.([A-Za-z_]\w*)\.tableName)$/;

/** The variables SST sets for a linked (v3) or bound (v2) table named `id`. */
export function sstVariablesOf(id: string): string[] {
  return SST_VARIABLES.map((v) => v.prefix + id);
}

/**
 * A whole read of one variable, anchored: `process.env.X`, `process.env["X"]`, `os.environ["X"]`,
 * `os.getenv("X")`, `os.environ.get("X", "x")` (the fallback runs where the variable is unset;
 * the template sets it). The spellings are ENV_READ's; JavaScript's `process.env.X ?? "x"` is
 * two values to the evaluator, the fallback judged on some paths: not a whole read.
 */
const WHOLE_ENV_READ = new RegExp(
  [
    String.raw`^process\.env(?:\.(\w+)|\[["'\x60](\w+)["'\x60]\])$`,
    String.raw`^os\.environ\[["'](\w+)["']\]$`,
    String.raw`^os\.(?:getenv|environ\.get)\(\s*["'](\w+)["']\s*(?:,\s*(["'])[^"']*\5\s*)?\)$`,
  ].join('|'),
);

/** The variable an expression's whole text reads (`os.environ["METADATA_KEY"]`), or null. */
export function wholeEnvRead(source: string): string | null {
  const m = WHOLE_ENV_READ.exec(source.trim());
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? null) : null;
}

/** The variable's name when the text reads one, else null. */
export function envVariableIn(source: string): string | null {
  const env = ENV_READ.exec(source)?.[1];
  if (env) return env;
  const sst = SST_READ.exec(source);
  if (!sst) return null;
  return sst[1] ? SST_VARIABLES[0].prefix + sst[1] : SST_VARIABLES[1].prefix + sst[2];
}

/** A variable as the code reads it, for sentences: `$TABLE_NAME`, SST's `Resource.Polls.name`. */
export function envReadShown(variable: string): string {
  for (const v of SST_VARIABLES) {
    const id = variable.startsWith(v.prefix) ? variable.slice(v.prefix.length) : '';
    if (/^\w+$/.test(id)) return v.read(id);
  }
  return `$${variable}`;
}

/** The variable a template is exactly one read of (`TABLE_NAME` in `process.env.TABLE_NAME`). */
export function envVariableOf(t: KeyTemplate): string | null {
  const p = t.parts.length === 1 ? t.parts[0] : null;
  return p && 'hole' in p ? envVariableIn(p.hole.source) : null;
}

/**
 * A name made of literal text and environment variables only (`inventory-{$STAGE}`):
 * fixed once deployed, so every call naming it names one table. Null when any part
 * is something else (a tenant id makes a table per tenant) or there is no literal text.
 */
export function deployTimeName(t: KeyTemplate): string | null {
  let out = '';
  let literal = false;
  for (const p of t.parts) {
    if ('literal' in p) {
      out += p.literal;
      literal ||= p.literal.length > 0;
      continue;
    }
    const env = envVariableIn(p.hole.source);
    if (!env) return null;
    out += `{$${env}}`;
  }
  return literal && out.includes('{$') ? out : null;
}
