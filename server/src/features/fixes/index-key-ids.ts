import type { Node } from 'web-tree-sitter';
import type { Access } from '../../engine';
import type { FixContext } from './fix-model';
import { nodeAt, objectAttributes, withTree, type ItemAttribute } from './syntax';

/**
 * What identifies the item of a write that sets a global index's key: the table's own key.
 * An update (`Key: { ticketId }`, `SET #status = :open`) names it in its `Key`, beside the
 * values it writes; a put has it among the item's attributes. Hashing it gives every item
 * one index shard, computed the same at every write, so an item an update moves back onto
 * the key lands where a put of it would have.
 */

/** Whether the access writes an index's key (its item is found by the table's key). */
export const writesIndexKey = (a: Access) => a.kind === 'write' && !!a.index;

/** The attributes of the `Key` object of the request the index key's value is written in. */
export function tableKeyAttributes(ctx: FixContext, a: Access): ItemAttribute[] {
  const text = ctx.textOf(a.file);
  if (!writesIndexKey(a) || !a.partitionKey || text === null || a.operation === 'PutItem') return [];
  return (
    withTree(a.file, text, (tree, language) => {
      // Up from the value (`':open': 'OPEN'`) to the request object holding a `Key` field.
      for (let n: Node | null = nodeAt(tree, a.partitionKey!.use); n; n = n.parent) {
        const key = keyField(n);
        if (key) return objectAttributes(key, language).filter((x) => !constant(x));
        if (/function|method_definition|class/.test(n.type)) break;
      }
      return [];
    }) ?? []
  );
}

/** A value that names no one item: a literal or a constant (`DEFAULT_TENANT`). */
const constant = (x: ItemAttribute) => /^[A-Z][A-Z0-9_]*$/.test(x.expression.split('.').pop() ?? '');

/** The value of a `Key` pair (`Key: {...}`, `Key={...}`, `"Key": {...}`) among a node's children. */
function keyField(n: Node): Node | null {
  if (!/^(object|dictionary|argument_list)$/.test(n.type)) return null;
  for (const c of n.namedChildren) {
    if (!c) continue;
    const name =
      c.type === 'pair'
        ? c.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '')
        : c.type === 'keyword_argument'
          ? c.childForFieldName('name')?.text
          : null;
    const value = c.childForFieldName('value');
    if (name === 'Key' && value && (value.type === 'object' || value.type === 'dictionary')) return value;
  }
  return null;
}
