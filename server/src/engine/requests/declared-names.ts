/**
 * Tables that infrastructure code declares by name, for code that writes the name
 * literally (`TableName: 'orders-prod'`, `Table("Orders")`): the definition whose
 * `TableName` is that name, or whose name with deploy-time holes matches it
 * (`orders-{$sls:stage}` matches `orders-prod`), gives the call its key schema and
 * indexes, as an environment variable's binding does. Several definitions that match
 * and disagree on keys or indexes give nothing: which one the code means is not known.
 */
import type { KeySchemaHints, TableDefinition, TableHint } from '../model/call-site';
import { escapeRegExp } from '../model/regexp';

/** A declared table with a stated name: its key names, and a fingerprint of its keys and indexes. */
export interface NamedTable {
  /** The stated name, holes as `{$X}`. */
  name: string;
  hint: TableHint;
  /** Equal for definitions that declare the same keys and indexes. */
  shape: string;
}

const HOLE = /\{\$[^}]*\}/g;
/** A hole stands for a stage or app name: letters, digits and the separators names use. */
const HOLE_TEXT = '[A-Za-z0-9_.:-]+';
/** A name with holes must keep this many letters or digits of its own to match anything by. */
const MIN_OWN = 3;

const patterns = new Map<string, RegExp | null>();

/** The pattern a name with holes stands for; null for a name without holes or with too little text of its own. */
function patternOf(name: string): RegExp | null {
  let p = patterns.get(name);
  if (p !== undefined) return p;
  const parts = name.split(HOLE);
  const own = parts.join('').replace(/[^A-Za-z0-9]/g, '').length;
  p = parts.length > 1 && own >= MIN_OWN ? new RegExp(`^${parts.map(escapeRegExp).join(HOLE_TEXT)}$`) : null;
  patterns.set(name, p);
  return p;
}

/** Whether a declared name (holes as `{$X}`) names the literal `name`. */
export function declaredNameMatches(declared: string, name: string): boolean {
  return declared === name || !!patternOf(declared)?.test(name);
}

/** The one definition `name` stands for among `tables`: every match agrees on its keys, else null. */
export function declaredFor<T extends { name: string; shape: string }>(name: string, tables: readonly T[]): T | null {
  let found: T | null = null;
  for (const t of tables) {
    if (!declaredNameMatches(t.name, name)) continue;
    if (found && found.shape !== t.shape) return null;
    found ??= t;
  }
  return found;
}

/** Definitions (`literal:<name>`) of the literal table names a file's calls use that declared tables answer. */
export function declaredDefinitions(names: Iterable<string>, tables: readonly NamedTable[]): TableDefinition[] {
  if (tables.length === 0) return [];
  const out: TableDefinition[] = [];
  for (const name of new Set(names)) {
    const t = declaredFor(name, tables);
    if (t) out.push([`literal:${name}`, t.hint]);
  }
  return out;
}

/**
 * Hints with the declared tables' keys in place of what calls suggested; the indexes the
 * calls name kept beside the declared ones. `named`: where those indexes come from, when
 * not from `hints` (for a table an environment variable names, the file's own calls only).
 */
export function withDeclared(
  hints: KeySchemaHints,
  declared: readonly TableDefinition[],
  named: KeySchemaHints = hints,
): KeySchemaHints {
  if (declared.length === 0) return hints;
  const out: KeySchemaHints = new Map(hints);
  for (const [table, def] of declared) {
    const indexes = { ...named.get(table)?.indexes, ...def.indexes };
    out.set(table, { ...def, ...(Object.keys(indexes).length ? { indexes } : {}) });
  }
  return out;
}
