import type { Access } from '../model';

export function tableLabel(a: Access): string {
  return a.table.kind === 'literal'
    ? `table "${a.table.name}"`
    : a.table.kind === 'env'
      ? `table $${a.table.name}`
      : 'this table';
}
