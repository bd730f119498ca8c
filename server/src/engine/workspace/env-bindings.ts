/**
 * Which table an environment variable names in a source file: the functions whose
 * handler leads to the file (directly, or through the modules it imports) set the
 * variable in their environment. One table across all of them resolves it; different
 * tables, or a value the template does not spell out, leave it the variable with the
 * candidates listed. Plain data in, plain data out: what analysing a file is given.
 */
import * as path from 'node:path';
import type { TableHint } from '../model/call-site';
import type { EnvBinding, EnvValue, FileEnv, InfraDeclarations, InfraTable } from '../model/entry-point';
import type { EnvTableSource } from '../model';
import { sstVariablesOf } from '../frontends/infra/sst';

export type { EnvBinding, FileEnv };

/** How far imports are followed from a handler, and how many files at most per function. */
const MAX_DEPTH = 6;
const MAX_FILES = 400;

/**
 * The bindings of every file a function reaches. `importsOf(file)`: the workspace files
 * a file imports (as far as the workspace has read it). Keys are resolved paths.
 */
export function envBindings(
  declarations: readonly InfraDeclarations[],
  importsOf: (file: string) => readonly string[],
): Map<string, FileEnv> {
  const byName = new Map<string, InfraTable>();
  for (const d of declarations) for (const t of d.tables) if (t.tableName) byName.set(t.tableName, t);
  // `file \0 logicalId` → the table: a CDK stack may name a table another file declares.
  const byFile = new Map<string, { table: InfraTable; file: string }>();
  for (const d of declarations)
    for (const t of d.tables) byFile.set(`${path.resolve(d.file)}\0${t.logicalId}`, { table: t, file: d.file });
  // file → variable → option id → option (null: a value no table can be read from).
  const options = new Map<string, Map<string, Map<string, Option>>>();
  for (const d of declarations) {
    for (const fn of d.functions) {
      if (!fn.handlerFile) continue;
      const vars = Object.entries(fn.environment);
      if (vars.length === 0) continue;
      for (const file of reached(fn.handlerFile, importsOf)) {
        let perVar = options.get(file);
        if (!perVar) options.set(file, (perVar = new Map()));
        for (const [variable, value] of vars) {
          const option = optionOf(value, variable, d.file, byFile, byName);
          let set = perVar.get(variable);
          if (!set) perVar.set(variable, (set = new Map()));
          set.set(option.id, option);
        }
      }
    }
  }
  const out = new Map<string, FileEnv>();
  for (const [file, perVar] of options) {
    const env: FileEnv = {};
    for (const [variable, set] of perVar) {
      const all = [...set.values()];
      if (all.length === 1 && all[0].binding) env[variable] = all[0].binding;
      else env[variable] = { candidates: all.map((o) => o.label).sort() };
    }
    out.set(file, env);
  }
  const appWide = sstBindings(declarations, byFile, byName);
  if (Object.keys(appWide).length) {
    for (const env of out.values()) for (const [variable, b] of Object.entries(appWide)) env[variable] ??= b;
    out.set(APP_WIDE, appWide);
  }
  return out;
}

/** The key under which `envBindings` keeps the bindings of every file no function reaches. */
const APP_WIDE = '';

/** The bindings of a file (by resolved path) in a map `envBindings` made, or null. */
export function fileEnvIn(map: ReadonlyMap<string, FileEnv> | null, resolved: string): FileEnv | null {
  return map?.get(resolved) ?? map?.get(APP_WIDE) ?? null;
}

/**
 * An SST app's tables are named by id wherever its code runs (`Resource.Votes.name` is the
 * table `Votes` of the app in any function it is linked to), so their variables bind in
 * every file, not only in those a function's handler reaches: a handler whose function is
 * built where nothing here reads it still names its table.
 */
function sstBindings(
  declarations: readonly InfraDeclarations[],
  byFile: Map<string, { table: InfraTable; file: string }>,
  byName: Map<string, InfraTable>,
): FileEnv {
  const out: FileEnv = {};
  for (const d of declarations) {
    if (d.format !== 'sst') continue;
    for (const t of d.tables)
      for (const variable of sstVariablesOf(t.logicalId)) {
        const { binding } = optionOf({ kind: 'table', logicalId: t.logicalId }, variable, d.file, byFile, byName);
        if (binding) out[variable] = binding;
      }
  }
  return out;
}

interface Option {
  id: string;
  label: string;
  binding: EnvBinding | null;
}

function optionOf(
  value: EnvValue,
  variable: string,
  file: string,
  byFile: Map<string, { table: InfraTable; file: string }>,
  byName: Map<string, InfraTable>,
): Option {
  const source = (logicalId: string | null, at = file): EnvTableSource => ({ variable, logicalId, file: at });
  if (value.kind === 'table') {
    const found = byFile.get(`${path.resolve(value.file ?? file)}\0${value.logicalId}`);
    const t = found?.table;
    // The declaring file as the workspace names it (the variable's own file for a table it does not declare).
    const at = found?.file ?? value.file ?? file;
    const name = t?.tableName ?? null;
    return {
      id: `table:${at}:${value.logicalId}`,
      label: name ?? `${value.logicalId} (${path.basename(at)})`,
      binding: {
        name,
        template: !!name?.includes('{$'),
        source: source(value.logicalId, at),
        keys: t ? hintOf(t) : null,
      },
    };
  }
  if (value.kind === 'text' || value.kind === 'template') {
    const t = byName.get(value.text);
    return {
      id: `name:${value.text}`,
      label: value.text,
      binding: {
        name: value.text,
        template: value.kind === 'template',
        source: source(t?.logicalId ?? null),
        keys: t ? hintOf(t) : null,
      },
    };
  }
  return { id: `opaque:${value.text}`, label: value.text, binding: null };
}

/** A declared table's key names as the engine's hints hold them. */
export function hintOf(t: InfraTable): TableHint | null {
  if (!t.partitionKey) return null;
  const indexes: Record<string, { partition: string; sort?: string }> = {};
  for (const i of t.indexes)
    indexes[i.name] = { partition: i.partitionKey.name, ...(i.sortKey ? { sort: i.sortKey.name } : {}) };
  return {
    partition: t.partitionKey.name,
    ...(t.sortKey ? { sort: t.sortKey.name } : {}),
    ...(Object.keys(indexes).length ? { indexes } : {}),
  };
}

/** The handler's file and the workspace files it imports, breadth first, as resolved paths. */
function reached(handler: string, importsOf: (file: string) => readonly string[]): string[] {
  const start = path.resolve(handler);
  const seen = new Set([start]);
  let level = [start];
  for (let depth = 0; depth < MAX_DEPTH && level.length && seen.size < MAX_FILES; depth++) {
    const next: string[] = [];
    for (const f of level)
      for (const g of importsOf(f)) {
        const r = path.resolve(g);
        if (!seen.has(r) && seen.size < MAX_FILES) {
          seen.add(r);
          next.push(r);
        }
      }
    level = next;
  }
  return [...seen];
}
