/**
 * What both front-ends share when they read a file for the reachability pass: they list
 * what they see (named functions, entry points with their inline handler or the name
 * they call, every call, every loop) and `assemble` gives each call and loop to the
 * smallest function around it, so that `FileReach` is built the same way in every
 * language. Also the schedule arithmetic (`rate(30 minutes)` is 2 an hour).
 */
import type { Node } from 'web-tree-sitter';
import type {
  EntryKind,
  EntryPoint,
  FileReach,
  FunctionNode,
  ImportBinding,
  ReachPart,
  ReachReading,
  SeenCall,
  SeenClass,
  SeenEntry,
  SeenFunction,
  SeenBinding,
} from '../model/entry-point';
import { PLAIN_DATA } from '../model/entry-point';

export type { SeenCall, SeenEntry, SeenFunction } from '../model/entry-point';
import type { Span } from '../model/range';
import { sameSpan } from '../syntax/span';
import { MANY_FUNCTIONS, WHOLE_WORD, wordCounts, writtenMoreThan, type WordCounts } from './word-counts';

export const MODULE = '<module>';

export interface Seen {
  file: string;
  /** The file's text: a function named in it besides its definition is `named`. */
  text: string;
  functions: SeenFunction[];
  entries: SeenEntry[];
  calls: SeenCall[];
  loops: Span[];
  imports: ImportBinding[];
  classes: SeenClass[];
  /** Variables given a known kind of value: a method called on one runs that class's method. */
  bindings: SeenBinding[];
  declaresApp: boolean;
}

/**
 * An entry point that runs the whole file (a test file, a script), named by the file's
 * name: it reaches what the module's top-level code calls (and, for a test file, what
 * the runner calls: `calledByTestRunner`, added when the reach is assembled).
 */
export function wholeFileEntry(
  kind: EntryKind,
  file: string,
  at: Span,
  trigger: string,
): SeenEntry & { calls: Array<{ name: string; member: boolean }> } {
  const name = file.split(/[\\/]/).pop()!;
  return {
    entry: entryPoint(kind, name, file, null, at, trigger),
    span: null,
    calls: [{ name: MODULE, member: false }],
  };
}

/**
 * What a test runner calls in a test file: every function the file defines (pytest's
 * `test_*`, behave's and cucumber's steps, unittest's methods, a named function passed to `it`).
 */
function calledByTestRunner(seen: Seen): Array<{ name: string; member: boolean }> {
  return [...new Set(seen.functions.map((f) => f.name))].map((name) => ({ name, member: false }));
}

const EMPTY: Span = { startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 };

function size(s: Span): number {
  return (s.endLine - s.startLine) * 100_000 + (s.endColumn - s.startColumn);
}

/** The whole file read: every node of the types the reading reads, in document order. */
export function readWhole(root: Node, file: string, reading: ReachReading): FileReach {
  return assemblePieces(
    file,
    root.text,
    reading,
    nodesOfTypes(root, reading.types).map((n) => reading.read(n)),
  );
}

/** The file's reach from what reading each node gave (`parts`), in document order, as one reading of the whole file gives it. */
export function assemblePieces(
  file: string,
  text: string,
  reading: ReachReading,
  parts: readonly ReachPart[],
  words?: WordCounts,
): FileReach {
  const seen: Seen = {
    file,
    text,
    functions: [],
    entries: [...reading.entries],
    calls: [],
    loops: [],
    imports: [],
    classes: [],
    bindings: [],
    declaresApp: reading.declaresApp,
  };
  // Most parts hold one or two kinds of item: a push per empty list was a tenth of an open file's reading.
  for (const p of parts) {
    if (p.functions.length) seen.functions.push(...p.functions);
    if (p.entries.length) seen.entries.push(...p.entries);
    if (p.calls.length) seen.calls.push(...p.calls);
    if (p.loops.length) seen.loops.push(...p.loops);
    if (p.imports.length) seen.imports.push(...p.imports);
    if (p.classes.length) seen.classes.push(...p.classes);
    if (p.bindings.length) seen.bindings.push(...p.bindings);
  }
  return assemble(seen, words);
}

/** A class as a front-end read it: its bases as written (empty names dropped), its typed fields when it has any. */
export function seenClass(name: string, bases: string[], span: Span, fields: Record<string, string>): SeenClass {
  return { name, bases: bases.filter(Boolean), span, ...(Object.keys(fields).length ? { fields } : {}) };
}

/** Where a method's receiver is written, as a front-end read it from the call. */
export interface MethodReceiver {
  /** `this.orders` / `self.store`: the field, whose declared type says which method runs. */
  field?: string;
  /** `repo`: the variable, whose declared class says which method runs. */
  variable?: string;
  /** Where the receiver starts in the file's text, for the name it starts from. */
  start?: number;
}

/**
 * A call of `method` on a receiver, recorded the same way in every language: with its
 * field, its variable and the name the receiver starts from (`root`: `axios.defaults` →
 * `axios`, `os.environ` → `os`), which `word` (the language's name pattern, sticky) reads
 * from the text: a walk down the receiver's nodes cost a tenth of reading a file for reach.
 */
export function memberCall(method: string, span: Span, on: MethodReceiver, text: string, word: RegExp): SeenCall {
  const root = on.variable ?? (on.start === undefined ? undefined : nameAt(text, on.start, word));
  return {
    name: method,
    member: true,
    span,
    ...(on.field ? { field: on.field } : {}),
    ...(on.variable ? { receiver: on.variable } : {}),
    ...(root ? { root } : {}),
  };
}

function nameAt(text: string, start: number, word: RegExp): string | undefined {
  word.lastIndex = start;
  return word.exec(text)?.[0];
}

/** An empty part, for a reader to fill. */
export function emptyPart(): ReachPart {
  return { functions: [], entries: [], calls: [], loops: [], imports: [], classes: [], bindings: [] };
}

/**
 * The file's functions with their calls and loops, and its entry points with their roots.
 * `words`, when the caller keeps them edit by edit, are the text's word counts (`countWords`).
 */
export function assemble(seen: Seen, words?: WordCounts): FileReach {
  const definitions = new Map<string, number>();
  for (const f of seen.functions) definitions.set(f.name, (definitions.get(f.name) ?? 0) + 1);
  const named = new Map<string, boolean>();
  const counts = words ?? (seen.functions.length > MANY_FUNCTIONS ? wordCounts(seen.text, definitions) : null);
  const isNamed = (name: string) => {
    let known = named.get(name);
    if (known === undefined) {
      const times = definitions.get(name)!;
      // A name of one word not among the counted words is not written at all.
      const count = words && WHOLE_WORD.test(name) ? (words.get(name) ?? 0) : counts?.get(name);
      known = count !== undefined ? count > times : writtenMoreThan(seen.text, name, times);
      named.set(name, known);
    }
    return known;
  };
  // Built field by field (a rest pattern and spreads per function were a tenth of assembling a reach).
  const nodes: FunctionNode[] = seen.functions.map((f) => {
    const node: FunctionNode = { name: f.name, span: f.span, exported: f.exported, calls: [], loops: [] };
    // Written more often than it is defined: called, passed, listed or exported by name somewhere in the file.
    if (f.decorated || isNamed(f.name)) node.named = true;
    const owner = ownerOf(f.span, seen.classes);
    if (owner) node.owner = owner;
    return node;
  });
  const entries: FileReach['entries'] = [];
  seen.entries.forEach((e, i) => {
    // A handler that is itself a named function (a decorated view, an exported GET) starts there.
    const same = e.span && nodes.find((n) => sameSpan(n.span, e.span!));
    if (same) {
      entries.push({ entry: e.entry, root: same.name });
      return;
    }
    const root = e.span ? `<${e.entry.name}>` : `<entry ${i}: ${e.entry.name}>`;
    // The runner of a test file calls the file's functions too, not only its top-level code.
    const calls = e.entry.kind === 'test' && !e.span ? [...(e.calls ?? []), ...calledByTestRunner(seen)] : e.calls;
    const node: FunctionNode = {
      name: root,
      span: e.span ?? EMPTY,
      calls: (calls ?? []).map((c) => ({ ...c, inLoop: false })),
      loops: [],
      exported: false,
    };
    nodes.push(node);
    entries.push({ entry: e.entry, root });
  });
  const module: FunctionNode = { name: MODULE, span: EMPTY, calls: [], loops: [], exported: false };
  // Each call, loop and binding goes to the innermost function around it: one sweep in document
  // order with the functions open at each point (a search of every function per call took 90 ms
  // on a 100 KB file of 185 functions and 877 calls).
  type Item = { span: Span; fn?: FunctionNode; loop?: Span; call?: SeenCall; binding?: SeenBinding };
  const items: Item[] = [
    ...nodes.filter((n) => size(n.span) > 0).map((fn) => ({ span: fn.span, fn })),
    ...seen.loops.map((loop) => ({ span: loop, loop })),
    ...seen.calls.map((call) => ({ span: call.span, call })),
    ...bindingsRead(seen.bindings, seen.calls).map((binding) => ({ span: binding.span, binding })),
  ];
  // By start; an outer span before what it holds (the later end first), a function before a loop or call at its start.
  items.sort(
    (a, b) =>
      a.span.startLine - b.span.startLine ||
      a.span.startColumn - b.span.startColumn ||
      b.span.endLine - a.span.endLine ||
      b.span.endColumn - a.span.endColumn ||
      (a.fn ? 0 : 1) - (b.fn ? 0 : 1),
  );
  const open: FunctionNode[] = [];
  const variables = new Variables(module);
  const calls: Array<{ owner: FunctionNode; call: SeenCall; inLoop: boolean }> = [];
  for (const item of items) {
    while (open.length && !within(item.span, open[open.length - 1].span)) open.pop();
    const owner = open[open.length - 1] ?? module;
    if (item.fn) {
      variables.nest(item.fn, owner);
      open.push(item.fn);
    } else if (item.loop) owner.loops.push(item.loop);
    else if (item.binding) variables.bind(owner, item.binding);
    else if (item.call) calls.push({ owner, call: item.call, inLoop: owner.loops.some((l) => within(item.span, l)) });
  }
  const edges = new Map<FunctionNode, Set<string>>();
  const fieldsOf = new Map(seen.classes.map((c) => [c.name, c.fields ?? {}]));
  const imported = new Set(seen.imports.filter((b) => !b.reexport).map((b) => b.local));
  for (const { owner, call: c, inLoop } of calls) {
    // `this.orders.open()` in a method of a class declaring `orders: OrdersService`; `repo.get()`
    // on a variable declared with a class.
    const fields = owner.owner ? fieldsOf.get(owner.owner) : undefined;
    const type =
      c.field && fields && Object.hasOwn(fields, c.field)
        ? fields[c.field]
        : c.receiver
          ? (variables.typeOf(owner, c.receiver) ?? undefined)
          : undefined;
    const via = !type && c.root && imported.has(c.root) ? c.root : undefined;
    // One edge per name and kind: the graph follows names, so a second `push` or `get` says nothing new.
    const key = `${c.member ? '.' : ''}${c.name}${inLoop ? '*' : ''}${type ? `:${type}` : ''}${via ? `@${via}` : ''}`;
    let seenCalls = edges.get(owner);
    if (!seenCalls) edges.set(owner, (seenCalls = new Set()));
    if (!seenCalls.has(key)) {
      seenCalls.add(key);
      owner.calls.push({ name: c.name, member: c.member, inLoop, ...(type ? { type } : {}), ...(via ? { via } : {}) });
    }
  }
  return {
    file: seen.file,
    functions: [module, ...nodes],
    imports: seen.imports,
    entries,
    declaresApp: seen.declaresApp,
    classes: seen.classes.map(({ name, bases }) => ({ name, bases })),
  };
}

/**
 * The bindings of the names a method is called on, and of the names those are read from
 * (`item = resp["Item"]; item.get(...)`): the others change no call's type, and sorting
 * every parameter and assignment of a file into the sweep cost a tenth of its reading.
 */
function bindingsRead(bindings: readonly SeenBinding[], calls: readonly SeenCall[]): SeenBinding[] {
  const names = new Set<string>();
  for (const c of calls) if (c.receiver) names.add(c.receiver);
  if (!names.size) return [];
  for (let grew = true; grew;) {
    grew = false;
    for (const b of bindings)
      if (b.readFrom && names.has(b.name) && !names.has(b.readFrom)) {
        names.add(b.readFrom);
        grew = true;
      }
  }
  return bindings.filter((b) => names.has(b.name));
}

/**
 * The variables each function binds, by name: the type they are given, or null when they are
 * given different kinds of value (or one not known), so which method runs is not known. A
 * function sees the variables of the functions it is nested in and of the module, unless it
 * binds the name itself.
 */
class Variables {
  private readonly byFunction = new Map<FunctionNode, Map<string, string | null>>();
  private readonly parents = new Map<FunctionNode, FunctionNode>();

  constructor(private readonly module: FunctionNode) {}

  nest(fn: FunctionNode, parent: FunctionNode): void {
    this.parents.set(fn, parent);
  }

  bind(fn: FunctionNode, b: SeenBinding): void {
    // `item = resp["Item"]`: data when `resp` holds data, else not known.
    const type = b.type ?? (b.readFrom && this.typeOf(fn, b.readFrom) === PLAIN_DATA ? PLAIN_DATA : null);
    let own = this.byFunction.get(fn);
    if (!own) this.byFunction.set(fn, (own = new Map()));
    const before = own.get(b.name);
    own.set(b.name, before === undefined || before === type ? type : null);
  }

  /** The type `name` has in `fn`: from the innermost function binding it; null when not known. */
  typeOf(fn: FunctionNode, name: string): string | null {
    for (
      let f: FunctionNode | undefined = fn;
      f;
      f = f === this.module ? undefined : (this.parents.get(f) ?? this.module)
    ) {
      const t = this.byFunction.get(f)?.get(name);
      if (t !== undefined) return t;
    }
    return null;
  }
}

/** The innermost class around a function: the class whose method (or a function nested in one) it is. */
function ownerOf(span: Span, classes: readonly SeenClass[]): string | undefined {
  let best: SeenClass | undefined;
  for (const c of classes) if (within(span, c.span) && (!best || within(c.span, best.span))) best = c;
  return best?.name;
}

/** Whether `inner` lies inside `outer` (or is it); `spanWithin` without a closure per call, for the sweep above. */
function within(inner: Span, outer: Span): boolean {
  if (
    inner.startLine < outer.startLine ||
    (inner.startLine === outer.startLine && inner.startColumn < outer.startColumn)
  )
    return false;
  return inner.endLine < outer.endLine || (inner.endLine === outer.endLine && inner.endColumn <= outer.endColumn);
}

export function entryPoint(
  kind: EntryKind,
  name: string,
  file: string,
  functionName: string | null,
  at: Span,
  trigger: string,
  ratePerHour: number | null = null,
): EntryPoint {
  return {
    kind,
    name,
    file,
    functionName,
    line: at.startLine,
    trigger,
    ratePerHour,
    source: { file, span: at },
  };
}

/** HTTP methods a route call or decorator may name. */
export const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'all']);

/**
 * The nodes of the given types, in document order. Found by tree-sitter itself in one
 * call: a walk with a cursor from here crosses into wasm at every node of the file, and
 * took a fifth of the analysis thread's time on a 5,000-file workspace.
 */
export function nodesOfTypes(root: Node, types: ReadonlySet<string>): Node[] {
  return root.descendantsOfType([...types]);
}
