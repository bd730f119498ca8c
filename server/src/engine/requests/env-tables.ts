/**
 * Environment-named tables resolved by infrastructure code: a file's calls on
 * `$TABLE_NAME` become calls on the table the functions reaching the file set
 * `TABLE_NAME` to (`workspace/env-bindings.ts` works out which). The table's key
 * schema is handed to interpretation as a definition of `env:TABLE_NAME`, so the key
 * attributes are the template's, not guessed; the table reference then takes the
 * physical name. A name the template does not state (a `!Ref` table without
 * `TableName`) keeps the variable, with where it is declared; different tables keep it
 * with the candidates. An `IndexName` read from a variable set to a plain name is that index.
 */
import type { Access, TableRef } from '../model';
import type { FileEnv } from '../model/entry-point';
import type { TableDefinition } from '../model/call-site';

/** The key schemas the bindings bring, as definitions of the variables' tables. */
export function envDefinitions(env: FileEnv | null | undefined): TableDefinition[] {
  const out: TableDefinition[] = [];
  for (const [variable, b] of Object.entries(env ?? {}))
    if ('keys' in b && b.keys) out.push([`env:${variable}`, b.keys]);
  return out;
}

/** Same access object for the same binding, so kept accesses stay attached across re-analyses. */
const resolvedOf = new WeakMap<Access, { id: string; access: Access }>();

/** The accesses with their environment tables and indexes resolved; the same array when none changes. */
export function withEnvTables(accesses: Access[], env: FileEnv | null | undefined): Access[] {
  if (!env || accesses.every((a) => !tableBinding(a, env) && !indexBinding(a, env))) return accesses;
  return accesses.map((a) => {
    const binding = tableBinding(a, env);
    const index = indexBinding(a, env);
    if (!binding && !index) return a;
    const id = JSON.stringify([binding, index]);
    const known = resolvedOf.get(a);
    if (known?.id === id) return known.access;
    const access = binding ? { ...a, table: resolvedTable(a.table, binding) } : { ...a };
    if (index) {
      access.index = index;
      delete access.indexUnknown;
    }
    resolvedOf.set(a, { id, access });
    return access;
  });
}

function tableBinding(a: Access, env: FileEnv): FileEnv[string] | undefined {
  if (a.table.kind === 'literal' && a.table.unlessEnv) return env[a.table.unlessEnv];
  return a.table.kind === 'env' ? env[a.table.name] : undefined;
}

/**
 * The index an `IndexName` read from an environment variable names: the plain name every
 * function reaching the file sets the variable to (`STATUS_INDEX: byStatus`). A name with
 * deploy-time parts, a table, different names or a value not spelled out leave it unknown.
 */
function indexBinding(a: Access, env: FileEnv): string | null {
  if (!a.indexUnknown?.startsWith('$')) return null;
  return plainEnvText(env[a.indexUnknown.slice(1)]) || null;
}

/**
 * The plain text every function reaching a file sets a variable to, or null: several values,
 * deploy-time parts (`${Stage}`), a table's keys or a resource reference are not plain text.
 */
export function plainEnvText(binding: FileEnv[string] | undefined): string | null {
  if (!binding || 'candidates' in binding || binding.template || binding.keys || binding.source.logicalId) return null;
  return binding.name;
}

function resolvedTable(given: TableRef, b: FileEnv[string]): TableRef {
  const via = given.kind === 'unknown' ? undefined : given.via;
  const place = { ...(given.span ? { span: given.span } : {}), ...(via ? { via } : {}) };
  // A fallback name (`process.env.ORDERS_TABLE ?? 'Orders'`) gives way to the name the functions
  // set the variable to; with no name spelled out (a table CloudFormation names) or several, it
  // stays, so the calls naming it keep one key, linked to the declared table when there is one.
  if (given.kind === 'literal' && given.unlessEnv) {
    if ('candidates' in b) return given;
    if (b.name === null) return { ...given, fromEnv: b.source };
    return { kind: b.template ? 'template' : 'literal', name: b.name, ...place, fromEnv: b.source };
  }
  const t = given;
  if (t.kind !== 'env') return t;
  if ('candidates' in b) return { ...t, candidates: b.candidates };
  if (b.name === null) return { ...t, fromEnv: b.source };
  return { kind: b.template ? 'template' : 'literal', name: b.name, ...place, fromEnv: b.source };
}
