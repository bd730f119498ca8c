/**
 * The tables infrastructure code declares, and which of them an access is on — only when
 * that is certain: its environment variable resolves to one definition, or its literal
 * name is the `TableName` of definitions that all agree. A variable that functions set to
 * different tables (`candidates`), a name no definition states, or definitions of one name
 * that disagree on keys or indexes give no table, so the table rules (SL011–SL013) say
 * nothing of the access.
 */
import type { Access } from '../model';
import type { InfraDeclarations, InfraTable } from '../model/entry-point';
import { declaredFor, type NamedTable } from '../requests/declared-names';
import type { DeclaredTable } from '../rules';
import { hintOf } from './env-bindings';

interface Lookup {
  tables: DeclaredTable[];
  /** `file \0 logicalId` → the table. */
  byId: Map<string, DeclaredTable>;
  /** Stated `TableName` (holes as `{$X}`) → every table declaring it. */
  byName: Map<string, DeclaredTable[]>;
  /** Every table with a stated name, for names with holes to match literal names by. */
  named: Array<{ name: string; shape: string; table: DeclaredTable }>;
  /** The same, as analysing a file is given them (`NamedTable`): those with a key schema. */
  hints: NamedTable[];
}

export class DeclaredTables {
  private cache: { version: number; lookup: Lookup } | null = null;

  /** `source` says the version of the declarations, and gives them only when that moved. */
  constructor(private readonly source: { version: () => number; declarations: () => readonly InfraDeclarations[] }) {}

  /** Every declared table, in file order. */
  all(): readonly DeclaredTable[] {
    return this.lookup().tables;
  }

  /** The declared table an access is on, when that is certain; else null. */
  of(a: Access): DeclaredTable | null {
    const t = a.table;
    if (t.kind === 'unknown' || (t.kind === 'env' && t.candidates)) return null;
    const { byId, byName } = this.lookup();
    const from = t.fromEnv;
    if (from?.logicalId) {
      const own = byId.get(`${from.file}\0${from.logicalId}`);
      if (own) return own;
    }
    if (t.kind === 'template') return agreeing(byName.get(t.name));
    // A literal name: the definitions stating it, or a name with holes it fills (`orders-{$sls:stage}`).
    if (t.kind === 'literal') return declaredFor(t.name, this.lookup().named)?.table ?? null;
    return null;
  }

  /** The declared tables with a stated name and a key schema, for literal names in code to take their keys from. */
  namedTables(): readonly NamedTable[] {
    return this.lookup().hints;
  }

  private lookup(): Lookup {
    const version = this.source.version();
    if (this.cache?.version === version) return this.cache.lookup;
    const lookup: Lookup = { tables: [], byId: new Map(), byName: new Map(), named: [], hints: [] };
    const declarations = this.source.declarations();
    const indexesNamedUnread = new Set(declarations.flatMap((d) => d.indexNamesStated ?? []));
    for (const d of declarations)
      for (const table of d.tables) {
        const declared: DeclaredTable = { table, file: d.file, format: d.format, indexesNamedUnread };
        lookup.tables.push(declared);
        lookup.byId.set(`${d.file}\0${table.logicalId}`, declared);
        if (table.tableName) {
          const list = lookup.byName.get(table.tableName) ?? [];
          list.push(declared);
          lookup.byName.set(table.tableName, list);
          const shape = shapeOf(table);
          lookup.named.push({ name: table.tableName, shape, table: declared });
          const hint = hintOf(table);
          if (hint) lookup.hints.push({ name: table.tableName, shape, hint });
        }
      }
    this.cache = { version, lookup };
    return lookup;
  }
}

/** The one definition a name stands for: the first of several only when they all declare the same keys. */
function agreeing(list: DeclaredTable[] | undefined): DeclaredTable | null {
  if (!list?.length) return null;
  const shape = shapeOf(list[0].table);
  return list.every((d) => shapeOf(d.table) === shape) ? list[0] : null;
}

function shapeOf(t: InfraTable): string {
  const key = (k: { name: string } | null) => k?.name ?? '';
  const indexes = t.indexes.map((i) => `${i.name}:${key(i.partitionKey)}:${key(i.sortKey)}`).sort();
  return JSON.stringify([key(t.partitionKey), key(t.sortKey), indexes, t.unreadIndexes ?? 0]);
}
