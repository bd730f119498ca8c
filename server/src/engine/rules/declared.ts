import type { KeyAttribute } from '../model/entry-point';
import type { DeclaredTable } from './rule';

/** A declared table in a sentence: `table "orders"`, or by its logical id when the template names none. */
export function declaredLabel(d: DeclaredTable): string {
  const t = d.table;
  if (!t.tableName) return `table ${t.logicalId}`;
  // A name with deploy-time parts is written as other messages write it: `table {$Stage}-votes`.
  return t.tableName.includes('{$') ? `table ${t.tableName}` : `table "${t.tableName}"`;
}

/** `PK (partition) + SK (sort)`, or the partition key alone. */
export function schemaText(pk: KeyAttribute, sk: KeyAttribute | null): string {
  return sk ? `\`${pk.name}\` (partition) and \`${sk.name}\` (sort)` : `\`${pk.name}\` (partition) alone`;
}
