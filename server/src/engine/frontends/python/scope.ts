import type { Node, Tree } from 'web-tree-sitter';
import { propertyFunction, soleReturn } from './classes';
import { recordResolution } from '../evaluation';
import { type EvalContext } from '../../model/eval-context';
import { wordOccurrences } from '../../syntax/word-search';
import { bindingsOf, COMPREHENSIONS, indexOf, pathTo, type Binding, type Entry, type Param } from './bindings';

export function isFunction(n: Node): boolean {
  return n.type === 'function_definition' || n.type === 'lambda';
}

/** The parameters of a `def` or `lambda`, with their positions. */
export function parametersOf(fn: Node): Param[] {
  const list = fn.childForFieldName('parameters');
  if (!list) return [];
  const out: Param[] = [];
  let positional = true;
  for (const param of list.namedChildren) {
    // `*args: int` is a typed parameter around the splat.
    const p =
      param?.type === 'typed_parameter' && param.namedChild(0)?.type !== 'identifier' ? param.namedChild(0) : param;
    if (!p) continue;
    if (p.type === 'keyword_separator' || p.type === 'list_splat_pattern' || p.type === 'dictionary_splat_pattern') {
      const inner = p.namedChild(0);
      if (inner?.type === 'identifier') out.push({ name: inner.text, index: -1, default: null });
      positional = false;
      continue;
    }
    const name = p.type === 'identifier' ? p : (p.childForFieldName('name') ?? p.namedChild(0));
    if (name?.type !== 'identifier') continue;
    out.push({
      name: name.text,
      index: positional ? out.filter((x) => x.index >= 0).length : -1,
      default: p.childForFieldName('value'),
    });
  }
  return out;
}

/** `def name` or `name = lambda ...`. */
export function functionName(fn: Node): string | null {
  if (fn.type === 'function_definition') return fn.childForFieldName('name')?.text ?? null;
  const p = fn.parent;
  return p?.type === 'assignment' && p.childForFieldName('left')?.type === 'identifier'
    ? p.childForFieldName('left')!.text
    : null;
}

/** A `def` directly in a class body whose first parameter is `self` or `cls`. */
export function isMethod(fn: Node): boolean {
  const owner = fn.parent?.type === 'decorated_definition' ? fn.parent.parent : fn.parent;
  return (
    owner?.type === 'block' &&
    owner.parent?.type === 'class_definition' &&
    /^(self|cls)$/.test(parametersOf(fn)[0]?.name ?? '')
  );
}

export function inside(outer: Node, inner: Node): boolean {
  return outer.startIndex <= inner.startIndex && inner.endIndex <= outer.endIndex;
}

/** The last binding before the use, else (for functions) the parameter, else the first after. */
function pick(entries: Entry[] | undefined, id: Node): { before: Binding | null; after: Binding | null } {
  let before: Binding | null = null;
  let after: Binding | null = null;
  for (const e of entries ?? []) {
    if (e.within && inside(e.within, id)) continue;
    if (e.pos <= id.startIndex) before = e.binding;
    else after ??= e.binding;
  }
  return { before, after };
}

export function comprehensionBinding(scope: Node, name: string): Binding | null {
  for (const clause of scope.namedChildren) {
    if (clause?.type !== 'for_in_clause') continue;
    const left = clause.childForFieldName('left');
    const iter = clause.childForFieldName('right');
    const path = left ? pathTo(left, name) : null;
    if (path && iter) return { kind: 'loop', iter, path };
  }
  return null;
}

/**
 * Finds the binding of an identifier by walking out through comprehensions,
 * lambdas, functions, class bodies (not seen from their methods) and the module.
 */
/** The binding `id` refers to, noted in `ctx` as a dependency of the evaluation. */
export function resolve(id: Node, ctx: EvalContext): Binding | null {
  const b = findBinding(id);
  recordResolution(
    ctx,
    id,
    b && 'node' in b ? b.node : b?.kind === 'param' ? b.fn : b?.kind === 'loop' ? b.iter : null,
  );
  return b;
}

function findBinding(id: Node): Binding | null {
  const name = id.text;
  let inFunction = false;
  for (let scope = id.parent; scope; scope = scope.parent) {
    if (COMPREHENSIONS.has(scope.type)) {
      const b = comprehensionBinding(scope, name);
      if (b) return b;
    } else if (isFunction(scope)) {
      const param = parametersOf(scope).find((p) => p.name === name) ?? null;
      const { before, after } =
        scope.type === 'lambda' ? { before: null, after: null } : pick(bindingsOf(scope).get(name), id);
      const b = before ?? (param ? { kind: 'param', fn: scope, param } : null) ?? after;
      if (b) return b as Binding;
      inFunction = true;
    } else if ((scope.type === 'class_definition' && !inFunction) || scope.type === 'module') {
      const { before, after } = pick(bindingsOf(scope).get(name), id);
      if (before ?? after) return before ?? after;
    }
  }
  return null;
}

function enclosingClass(n: Node): Node | null {
  for (let p = n.parent; p; p = p.parent) if (p.type === 'class_definition') return p;
  return null;
}

/** `self.x = ...` anywhere in the class and `x = ...` in its body, by attribute name. */
function classAttributes(cls: Node): Map<string, Node[]> {
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
