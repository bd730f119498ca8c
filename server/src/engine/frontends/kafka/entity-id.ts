/**
 * The entity id of the object a record's key is read from, when the code around the call
 * reads one: `order.status` is the key and `order.id` (or `order.orderId`) is read in the
 * same function. The quick fix offers to key by it; nothing is guessed from a type.
 */
import type { Node } from 'web-tree-sitter';
import type { FrontEnd } from '../../model/frontend';
import { classifyName } from '../names';

/** `a.b` in JavaScript and Python, and the field that names `b`. */
const MEMBERS: Record<string, string> = { member_expression: 'property', attribute: 'attribute' };

export function entityIdBeside(key: Node, fe: FrontEnd): string | null {
  const nameField = MEMBERS[key.type];
  const object = key.childForFieldName('object');
  if (!nameField || !object) return null;
  const scope = outermostFunction(key, fe) ?? key.tree.rootNode;
  const found: string[] = [];
  const visit = (n: Node) => {
    const field = MEMBERS[n.type];
    const name = field ? n.childForFieldName(field)?.text : undefined;
    if (name && n.childForFieldName('object')?.text === object.text && classifyName(name)?.kind === 'entity-id')
      found.push(n.text);
    for (const c of n.namedChildren) if (c) visit(c);
  };
  visit(scope);
  // `order.id` before `order.customerId`: the object's own id, where the code reads it.
  const own = found.find((t) => /\.(id|_id|uuid)$/i.test(t));
  return own ?? found[0] ?? null;
}

/** The function the key is read in, counting an arrow or lambda inside it as part of it. */
function outermostFunction(n: Node, fe: FrontEnd): Node | null {
  let out: Node | null = null;
  for (let p = n.parent; p; p = p.parent) if (fe.syntax.functions.includes(p.type)) out = p;
  return out;
}
