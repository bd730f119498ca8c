/**
 * The members of a file's classes: what `self.x` and `Cls.x` are assigned, and the
 * methods a class defines itself, indexed once per class.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { propertyFunction, soleReturn } from './classes';
import { type EvalContext } from '../../model/eval-context';
import { indexOf } from './bindings';
import { resolve } from './scope';

export function enclosingClass(n: Node): Node | null {
  for (let p = n.parent; p; p = p.parent) if (p.type === 'class_definition') return p;
  return null;
}

/** `self.x = ...` anywhere in the class and `x = ...` in its body, by attribute name. */
export function classAttributes(cls: Node): Map<string, Node[]> {
  const ix = indexOf(cls.tree);
  const cached = ix.classes.get(cls.id);
  if (cached) return cached;
  const table = new Map<string, Node[]>();
  const push = (k: string, v: Node) => (table.get(k) ?? table.set(k, []).get(k)!).push(v);
  for (const a of cls.descendantsOfType('assignment')) {
    const left = a?.childForFieldName('left');
    const right = a?.childForFieldName('right');
    if (!left || !right) continue;
    const m = /^(?:self|cls)\.([A-Za-z_]\w*)$/.exec(left.text);
    if (m) push(m[1], right);
    else if (left.type === 'identifier' && a!.parent?.parent?.parent?.equals(cls)) push(left.text, right);
  }
  for (const f of cls.descendantsOfType('function_definition')) {
    const name = f?.childForFieldName('name')?.text;
    if (f && name && enclosingClass(f)?.equals(cls)) push(`def ${name}`, f);
  }
  ix.classes.set(cls.id, table);
  return table;
}

/** The value assigned to `self.x` (or `Cls.x` for a class in this file); `None` placeholders lose. */
export function attributeValueNode(attr: Node, ctx: EvalContext): Node | null {
  const obj = attr.childForFieldName('object');
  const name = attr.childForFieldName('attribute')?.text ?? '';
  const cls = obj?.type === 'identifier' && /^(self|cls)$/.test(obj.text) ? enclosingClass(attr) : classOf(obj, ctx);
  const values = cls ? (classAttributes(cls).get(name) ?? []) : [];
  const assigned = values.find((v) => v.type !== 'none') ?? values[0] ?? null;
  if (assigned || !cls) return assigned;
  // `@property def today_iso(self): return ...`: what it returns.
  const fn = classAttributes(cls).get(`def ${name}`)?.[0];
  const decorated = fn?.parent?.type === 'decorated_definition' ? fn.parent : null;
  return decorated && propertyFunction(decorated) ? soleReturn(fn!) : null;
}

/** The class of this file `x` names (`Keys`), or makes an instance of (`DateUtil()`, `dt` after `dt = DateUtil()`). */
function classOf(x: Node | null, ctx: EvalContext, depth = 0): Node | null {
  if (x?.type === 'call') return classOf(x.childForFieldName('function'), ctx, depth);
  if (x?.type !== 'identifier' || depth > 2) return null;
  const b = resolve(x, ctx);
  if (b?.kind === 'class') return b.node;
  return b?.kind === 'value' && b.node.type === 'call' ? classOf(b.node, ctx, depth + 1) : null;
}

/** The method `self.name` refers to, when the class defines it. */
export function methodNode(attr: Node): Node | null {
  const obj = attr.childForFieldName('object');
  const cls = obj && /^(self|cls)$/.test(obj.text) ? enclosingClass(attr) : null;
  return cls ? (classAttributes(cls).get(`def ${attr.childForFieldName('attribute')?.text}`)?.[0] ?? null) : null;
}

/** The `def name` of every class of the file that defines one (its own, not inherited). */
export function methodsNamed(tree: Tree, name: string): Node[] {
  return tree.rootNode
    .descendantsOfType('class_definition')
    .flatMap((cls) => (cls ? (classAttributes(cls).get(`def ${name}`) ?? []).slice(0, 1) : []));
}
