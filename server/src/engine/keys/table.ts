import type { TableRef } from '../model';
import { envReadShown } from '../requests/env';

/**
 * A table as ShardLens names it everywhere (messages, hovers, JSON, the key listing):
 * the literal name (`leaderboard`), `$NAME` for a name read from environment
 * variable NAME, or null when the code does not say.
 */
export function tableName(t: TableRef): string | null {
  return t.kind === 'literal' || t.kind === 'template' ? t.name : t.kind === 'env' ? `$${t.name}` : null;
}

/** A table as the code reads it, for people: `tableName`, but `Resource.Polls.name` for SST's `$SST_RESOURCE_Polls`. */
export function tableShown(t: TableRef): string | null {
  return t.kind === 'env' ? envReadShown(t.name) : tableName(t);
}

/** The table in a sentence: `table "leaderboard"`, `table $EVENTS_TABLE`, `table Resource.Polls.name`, `this table`. */
export function tableLabel(t: TableRef): string {
  if (t.kind === 'literal') return `table "${t.name}"`;
  const shown = tableShown(t);
  return shown ? `table ${shown}` : 'this table';
}

/**
 * Where a key lives, in a sentence: `table "tickets"`, or for a secondary index
 * `index "status-index" of table "tickets"` (an index partition is its own, with its
 * own throughput: the message must say which). An index the code names by a value not known
 * here is still an index: `an index of table $ORDERS (the one $STATUS_INDEX names)`.
 */
export function placeLabel(t: TableRef, index: string | null, indexUnknown?: string): string {
  if (index) return `index "${index}" of ${tableLabel(t)}`;
  return indexUnknown ? `an index of ${tableLabel(t)} (the one ${indexUnknown} names)` : tableLabel(t);
}

/**
 * Whether two calls may address the same table. A call whose table is unknown may
 * be any of them: it meets every table, so a reader that builds its table name
 * dynamically is still checked against the writers of its key.
 */
export function sameTable(a: TableRef, b: TableRef): boolean {
  return a.kind === 'unknown' || b.kind === 'unknown' || (a.kind === b.kind && a.name === b.name);
}

/**
 * Whether two tables named by physical name (`tableName`, a definition's `TableName`) may be
 * one: a name not known (null), an environment variable (`$ORDERS_TABLE`) or a name with
 * deploy-time holes (`{$Stage}-votes`) on either side may be any table; known names, when equal.
 */
export function mayBeSameTable(a: string | null, b: string | null): boolean {
  const open = (name: string | null) => name === null || /[{$]/.test(name);
  return open(a) || open(b) || a === b;
}

/** A comparable id for a table reference; `*` for an unknown table (see `sameTable`). */
export function tableKey(t: TableRef): string {
  return t.kind === 'unknown' ? '*' : `${t.kind}:${t.name}`;
}
