/**
 * What feeds a function's parameters in its own file: the arguments of its calls, the
 * iterables it is mapped over (`executor.map(fn, xs)`), what a thread is started with,
 * and the default a call leaves it to.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { wordOccurrences } from '../../syntax/word-search';
import { indexOf, type Param } from './bindings';
import { classAttributes, enclosingClass } from './class-members';
import { findBinding, functionName, isMethod } from './scope';

/** The last name of a callee or argument: `f`, `self.f`, `executor.map` → `map`. */
export function lastName(n: Node | null): string | null {
  if (n?.type === 'identifier') return n.text;
  if (n?.type === 'attribute') return n.childForFieldName('attribute')?.text ?? null;
  return null;
}

/** Calls that name `name` as their callee or pass it as an argument, built once per tree. */
export function callsMentioning(tree: Tree, name: string): Node[] {
  const ix = indexOf(tree);
  ix.calls ??= new Map();
  let found = ix.calls.get(name);
  if (found) return found;
  found = [];
  // Look only where the name is written, rather than at every call of the file.
  ix.text ??= tree.rootNode.text;
  // The root's text starts at its first token (not at 0 after leading blank lines or spaces).
  const base = tree.rootNode.startIndex;
  // The name itself or an attribute (`obj.name`), never part of a longer name.
  for (const at of wordOccurrences(ix.text, name, { dollar: false, notAfterDot: false })) {
    let n: Node | null = tree.rootNode.descendantForIndex(base + at);
    if (n?.type !== 'identifier') continue;
    // The name itself, or `obj.name`, as the callee or as an argument (`executor.map(name, ...)`).
    if (n.parent?.type === 'attribute' && n.parent.childForFieldName('attribute')?.equals(n)) n = n.parent;
    const parent = n.parent;
    const call =
      parent?.type === 'call' && parent.childForFieldName('function')?.equals(n)
        ? parent
        : parent?.type === 'argument_list' && parent.parent?.type === 'call'
          ? parent.parent
          : parent?.type === 'keyword_argument' &&
              parent.parent?.type === 'argument_list' &&
              parent.parent.parent?.type === 'call'
            ? parent.parent.parent
            : null;
    if (call && found[found.length - 1]?.equals(call) !== true) found.push(call);
  }
  ix.calls.set(name, found);
  return found;
}

/** The positional argument at `pos` (none past a `*args`), else the keyword argument `name`. */
export function argumentAt(call: Node, pos: number, name: string | null): Node | null {
  const list = call.childForFieldName('arguments');
  if (list?.type !== 'argument_list') return null;
  let i = 0;
  for (const a of list.namedChildren) {
    if (!a || a.type === 'comment') continue;
    if (a.type === 'keyword_argument') {
      if (name !== null && a.childForFieldName('name')?.text === name) return a.childForFieldName('value');
      continue;
    }
    if (a.type === 'list_splat' || a.type === 'dictionary_splat') {
      if (a.type === 'list_splat') i = Number.NaN;
      continue;
    }
    if (i === pos) return a;
    i++;
  }
  return null;
}

/** Where a parameter's values come from: an argument, or the elements of an iterable. */
export interface ArgumentSource {
  node: Node;
  element: boolean;
}

/** `pool.map(fn, xs)` and `executor.map(fn, xs, ys)` pass each element of the iterables. */
const MAPPERS = /^(map|imap|imap_unordered|map_async|starmap_unordered)$/;
/** `executor.submit(fn, x)`, `loop.run_in_executor(None, fn, x)` pass the arguments after fn. */
const SUBMITTERS =
  /^(submit|run_in_executor|to_thread|call_soon|call_soon_threadsafe|apply_async|spawn|start_soon|run_sync)$/;

/** A call that passes the function on (`executor.map(fn, xs)`, `Thread(target=fn, args=(x,))`). */
function fedBy(call: Node, refersToFn: (a: Node | null) => boolean, k: number, out: ArgumentSource[]): void {
  const list = call.childForFieldName('arguments');
  if (list?.type !== 'argument_list' || k < 0) return;
  const positional = list.namedChildren.filter(
    (a): a is Node => !!a && a.type !== 'keyword_argument' && a.type !== 'comment',
  );
  const fnPos = positional.findIndex(refersToFn);
  const method = lastName(call.childForFieldName('function')) ?? '';
  if (fnPos >= 0 && MAPPERS.test(method) && positional[fnPos + 1 + k]) {
    out.push({ node: positional[fnPos + 1 + k], element: true });
  } else if (fnPos >= 0 && SUBMITTERS.test(method) && positional[fnPos + 1 + k]) {
    out.push({ node: positional[fnPos + 1 + k], element: false });
  } else if (refersToFn(argumentAt(call, -1, 'target'))) {
    const args = argumentAt(call, -1, 'args');
    const item =
      args && (args.type === 'tuple' || args.type === 'list')
        ? args.namedChildren.filter((c) => c?.type !== 'comment')[k]
        : null;
    if (item) out.push({ node: item, element: false });
  }
}

/** `__init__` of a class: `Repo("orders")` calls `Repo.__init__(self, "orders")`. */
function isConstructor(fn: Node): boolean {
  return fn.childForFieldName('name')?.text === '__init__' && isMethod(fn);
}

/** The name calls of `fn` are written with: its own, or its class's for `__init__`; null for a lambda. */
export function callerNameOf(fn: Node): string | null {
  if (fn.type === 'lambda') return null;
  return isConstructor(fn) ? (enclosingClass(fn)?.childForFieldName('name')?.text ?? null) : functionName(fn);
}

/**
 * The expressions that feed a parameter in this file: arguments at the function's
 * call sites, iterables it is mapped over, and last its default value, when a call
 * here leaves it out. A parameter is a parameter first: with no call in this file
 * its default is not its value (callers in other modules put theirs in, and the
 * default counts at each of them that leaves it out: `wrappers/callers.ts`). A `None`
 * default is no value: it says the parameter is optional, not that the key is `"None"`.
 */
export function argumentSources(fn: Node, param: Param): ArgumentSource[] {
  const out: ArgumentSource[] = [];
  let omitted = false;
  if (fn.type === 'lambda') {
    const call = fn.parent?.type === 'argument_list' ? fn.parent.parent : null;
    if (call) fedBy(call, (a) => !!a && a.equals(fn), param.index, out);
  } else {
    const constructs = isConstructor(fn);
    const name = callerNameOf(fn);
    const offset = isMethod(fn) ? 1 : 0;
    const owner = constructs ? null : ownerClass(fn);
    const family = owner ? classFamily(owner) : null;
    // `x.name(...)` calls this function only when `x` is its class or an instance of it
    // (`self.table.get_item(...).get("Item")` does not call a method named `get`).
    const refersToFn = (a: Node | null) =>
      lastName(a) === name &&
      (a?.type === 'identifier' ||
        (a?.type === 'attribute' && (constructs || (!!family && isInstance(a.childForFieldName('object'), family)))));
    for (const call of name ? callsMentioning(fn.tree, name) : []) {
      const callee = call.childForFieldName('function');
      if (refersToFn(callee)) {
        const pos = param.index < 0 ? -1 : param.index - (callee?.type === 'attribute' || constructs ? offset : 0);
        const arg = argumentAt(call, pos, param.name);
        if (arg) out.push({ node: arg, element: false });
        else omitted ||= !hasSplat(call);
      } else {
        fedBy(call, refersToFn, param.index < 0 ? -1 : param.index - offset, out);
      }
    }
  }
  if (param.default && param.default.type !== 'none' && omitted) {
    out.push({ node: param.default, element: false });
  }
  return out;
}

/** `f(*args)`, `f(**kwargs)`: which argument lands where is not known. */
function hasSplat(call: Node): boolean {
  const list = call.childForFieldName('arguments');
  return !!list?.namedChildren.some((a) => a?.type === 'list_splat' || a?.type === 'dictionary_splat');
}

/** The class a `def` is written in (directly in its body), if any. */
function ownerClass(fn: Node): Node | null {
  const owner = fn.parent?.type === 'decorated_definition' ? fn.parent.parent : fn.parent;
  return owner?.type === 'block' && owner.parent?.type === 'class_definition' ? owner.parent : null;
}

/** A class's name and the names of the classes of its file that extend it, directly or not. */
function classFamily(cls: Node): Set<string> {
  const names = new Set([cls.childForFieldName('name')?.text ?? '']);
  const classes = cls.tree.rootNode.descendantsOfType('class_definition');
  for (let grew = true; grew;) {
    grew = false;
    for (const c of classes) {
      const name = c?.childForFieldName('name')?.text;
      if (!c || !name || names.has(name)) continue;
      const bases = c.childForFieldName('superclasses')?.namedChildren ?? [];
      if (bases.some((b) => names.has(lastName(b) ?? ''))) {
        names.add(name);
        grew = true;
      }
    }
  }
  return names;
}

/**
 * Whether `x` (of `x.method(...)`) is one of `classes` or an instance of one: `self`
 * or `cls` inside them, the class itself, `Albums()`, a name bound to `Albums()`, a
 * parameter annotated `Albums`, or `self.repo` assigned `Albums()`.
 */
function isInstance(x: Node | null, classes: Set<string>, depth = 0): boolean {
  if (!x || depth > 4) return false;
  switch (x.type) {
    case 'parenthesized_expression':
      return isInstance(x.namedChild(0), classes, depth + 1);
    case 'call':
      return classes.has(lastName(x.childForFieldName('function')) ?? '');
    case 'identifier': {
      if (/^(self|cls)$/.test(x.text)) return classes.has(enclosingClass(x)?.childForFieldName('name')?.text ?? '');
      if (classes.has(x.text)) return true;
      const b = findBinding(x);
      if (b?.kind === 'value' || b?.kind === 'with') return isInstance(b.node, classes, depth + 1);
      return b?.kind === 'param' && classes.has(annotation(b.fn, b.param.name));
    }
    case 'attribute': {
      const obj = x.childForFieldName('object');
      const cls = obj && /^(self|cls)$/.test(obj.text) ? enclosingClass(x) : null;
      const assigned = cls ? (classAttributes(cls).get(x.childForFieldName('attribute')?.text ?? '') ?? []) : [];
      return assigned.some((v) => isInstance(v, classes, depth + 1));
    }
    default:
      return false;
  }
}

/** The class name a parameter is annotated with (`repo: Albums`, `repo: "Albums"`, `Optional[Albums]`). */
function annotation(fn: Node, name: string): string {
  for (const p of fn.childForFieldName('parameters')?.namedChildren ?? []) {
    if (p?.type !== 'typed_parameter' && p?.type !== 'typed_default_parameter') continue;
    const id = p.childForFieldName('name') ?? p.namedChild(0);
    if (id?.text !== name) continue;
    const type = p.childForFieldName('type')?.text ?? '';
    return /([A-Za-z_]\w*)["'\]]*\s*$/.exec(type.replace(/\s*\|\s*None$/, ''))?.[1] ?? '';
  }
  return '';
}
