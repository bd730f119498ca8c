import type { Node, Tree } from 'web-tree-sitter';
import { callsNaming, findBinding, isFunction, parametersOf, treeText } from './scope';

/**
 * The calls in a file that really call a given function, so that its parameters are
 * fed by them and by nothing else. A free function is called by its name; a class
 * method only through its class: `this.get(...)` inside the class (or a subclass),
 * `Repo.get(...)`, `new Repo().get(...)`, `repo.get(...)` with `repo` bound to
 * `new Repo(...)` or annotated `Repo`. Never by a free function of the same name
 * (`get(settings, "users")` from lodash) nor by another object's method
 * (`cache.get("CONFIG")`), which name the method but call something else.
 */

const CLASSES = new Set(['class_declaration', 'class', 'abstract_class_declaration']);

/** The class whose body `fn` is a method (or an arrow-function field) of. */
function ownerClass(fn: Node): Node | null {
  const member =
    fn.type === 'method_definition' ? fn : fn.parent?.type === 'public_field_definition' ? fn.parent : null;
  const body = member?.parent;
  return body?.type === 'class_body' && body.parent && CLASSES.has(body.parent.type) ? body.parent : null;
}

function nameOf(fn: Node): string | null {
  const own = fn.childForFieldName('name');
  if (own) return own.text;
  const holder = fn.parent;
  if (holder?.type === 'variable_declarator' || holder?.type === 'public_field_definition') {
    return holder.childForFieldName('name')?.text ?? null;
  }
  return null;
}

/** The class's name and those of the classes of its file that extend it, directly or not. */
function family(cls: Node): Set<string> {
  const names = new Set([cls.childForFieldName('name')?.text ?? '']);
  const classes = cls.tree.rootNode.descendantsOfType([...CLASSES]);
  for (let grew = true; grew;) {
    grew = false;
    for (const c of classes) {
      const name = c?.childForFieldName('name')?.text;
      const heritage = c?.namedChildren.find((x) => x?.type === 'class_heritage')?.text ?? '';
      const base = /\bextends\s+(?:[\w$]+\.)*([\w$]+)/.exec(heritage)?.[1];
      if (name && base && !names.has(name) && names.has(base)) {
        names.add(name);
        grew = true;
      }
    }
  }
  return names;
}

function enclosingClass(n: Node): Node | null {
  for (let p = n.parent; p; p = p.parent) if (CLASSES.has(p.type)) return p;
  return null;
}

/** Whether `x` (of `x.method(...)`) is one of `classes` or an instance of one. */
function isInstance(x: Node | null, classes: Set<string>, depth = 0): boolean {
  if (!x || depth > 4) return false;
  switch (x.type) {
    case 'this':
      return classes.has(enclosingClass(x)?.childForFieldName('name')?.text ?? '');
    case 'parenthesized_expression':
    case 'await_expression':
    case 'non_null_expression':
      return isInstance(x.namedChild(0), classes, depth + 1);
    case 'new_expression':
      return classes.has(x.childForFieldName('constructor')?.text.split('.').pop() ?? '');
    case 'identifier': {
      if (classes.has(x.text)) return true;
      const b = findBinding(x);
      if (b?.kind === 'value') return isInstance(b.node, classes, depth + 1);
      if (b?.kind !== 'param') return false;
      const type = parametersOf(b.fn)[b.index]?.childForFieldName('type')?.text ?? '';
      return classes.has(/([\w$]+)\s*$/.exec(type.replace(/\s*\|\s*(undefined|null)\s*$/, ''))?.[1] ?? '');
    }
    default:
      return false;
  }
}

/** Per tree: calls `x.name(...)` by the method name, found where the name is written. */
const memberCalls = new WeakMap<Tree, Map<string, Node[]>>();

function callsOfMember(tree: Tree, name: string): Node[] {
  let byName = memberCalls.get(tree);
  if (!byName) memberCalls.set(tree, (byName = new Map()));
  let found = byName.get(name);
  if (found) return found;
  found = [];
  const text = treeText(tree);
  const re = new RegExp(`(?<=\\.\\s*)${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
  const base = tree.rootNode.startIndex;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const prop = tree.rootNode.descendantForIndex(base + m.index);
    const member = prop?.parent;
    const call = member?.parent;
    if (
      member?.type === 'member_expression' &&
      call?.type === 'call_expression' &&
      call.childForFieldName('function')?.id === member.id
    ) {
      found.push(call);
    }
  }
  byName.set(name, found);
  return found;
}

/** Whether the plain call's callee names `fn` itself, not a shadowing or imported namesake. */
function callsItself(call: Node, fn: Node): boolean {
  const callee = call.childForFieldName('function');
  if (callee?.type !== 'identifier') return true; // `xs.map(fn)`: the name is an argument
  const b = findBinding(callee);
  if (!b) return true;
  if (b.kind === 'function') return b.node.id === fn.id;
  return b.kind === 'value' && b.node.id === fn.id;
}

/**
 * The calls that call `fn` in its file: plain calls (and `xs.map(fn)`) of a free
 * function, receiver calls of a method whose receiver is its class or an instance.
 */
export function callersOf(fn: Node): Node[] {
  if (!isFunction(fn)) return [];
  const name = nameOf(fn);
  if (!name) return [];
  const cls = ownerClass(fn);
  if (!cls) return callsNaming(fn.tree, name).filter((c) => callsItself(c, fn));
  const classes = family(cls);
  return callsOfMember(fn.tree, name).filter((c) =>
    isInstance(c.childForFieldName('function')?.childForFieldName('object') ?? null, classes),
  );
}
