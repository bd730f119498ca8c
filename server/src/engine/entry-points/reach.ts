/**
 * Reachability, language-neutral: from each entry point's function through the
 * functions it calls (same file, imported modules, methods of imported classes) to the
 * function around each DynamoDB access. Plain data in (`FileReach` per file, the
 * accesses), plain data out (`AccessReach` per access).
 *
 * Calls are followed by name, over-approximating: a call `x.save()` reaches every
 * function named `save` in the file and in the modules it imports. More reach only
 * keeps a path hot; a path is lowered only when nothing hotter can reach it.
 */
import type { Access } from '../model';
import type { AccessReach, CallRef, EntryPoint, FileReach, FunctionNode } from '../model/entry-point';
import { classTypes, namesModule, type TypeRef } from './class-types';
import { spanWithin } from '../syntax/span';
import { MODULE } from '../frontends/file-reach';
import { isOneOffEntry, PLAIN_DATA } from '../model/entry-point';

/** A module a file imports, resolved: what it calls `local` is `name` of `file` (`as`: under that name through a barrel). */
interface Imported {
  local: string;
  name: string;
  file: string;
  as?: string;
}

/** The file an import names from `fromFile`, or null (a package). */
export type ImportFile = (fromFile: string, module: string) => string | null;

/** A function a call reaches, and whether the call is in a loop. */
interface Callee {
  to: NodeRef;
  inLoop: boolean;
}

export interface NodeRef {
  file: string;
  node: FunctionNode;
}

export interface ReachInput {
  reaches: ReadonlyMap<string, FileReach>;
  /** Entry points infrastructure code declares (a template's function and its triggers). */
  infra: readonly EntryPoint[];
  importFile: ImportFile;
}

/** Every entry point, and the nodes each reaches with whether the path ran through a loop. */
export interface ReachGraph {
  /** `file\0node` → entry index → `true` when every path to it runs through a loop, `false` if some does not. */
  reached: Map<string, Map<number, boolean>>;
  entries: EntryPoint[];
  /** The function each entry point starts at, by index. */
  roots: Array<{ file: string; root: string }>;
}

const id = (file: string, node: string) => `${file}\0${node}`;

/**
 * The calls of one version of the workspace's file reaches, followed by name: what each
 * function calls, and what each root reaches (kept per root, so entry points added or
 * changed by a template are followed alone while the code stays as it was).
 */
export interface CallGraph {
  named(file: string, name: string): NodeRef[];
  /** `file\0node` → `true` when every path to it from the root runs through a loop, `false` if some does not. */
  reachedFrom(file: string, root: string): ReadonlyMap<string, boolean>;
  /** The functions a function's calls reach, as a root's calls are followed. */
  callees(file: string, node: FunctionNode): NodeRef[];
}

/** How many package `__init__` files a name is followed through. */
const MAX_PASSED_ON = 4;

export function callGraph(input: Pick<ReachInput, 'reaches' | 'importFile'>): CallGraph {
  const { reaches, importFile } = input;
  const byName = new Map<string, Map<string, FunctionNode[]>>();
  for (const [file, r] of reaches) {
    const names = new Map<string, FunctionNode[]>();
    for (const f of r.functions) names.set(f.name, [...(names.get(f.name) ?? []), f]);
    byName.set(file, names);
  }
  const importedFiles = new Map<string, Imported[]>();
  const targetOf = (file: string, b: { module: string; name: string }) => {
    // `from . import views` names a module, not a function in one.
    const sub = /^\.+$/.test(b.module) ? `${b.module}${b.name}` : `${b.module}.${b.name}`;
    const python = file.endsWith('.py') && b.name !== '*';
    return (python ? importFile(file, sub) : null) ?? importFile(file, b.module);
  };
  const importsOf = (file: string) => {
    let known = importedFiles.get(file);
    if (!known) {
      known = [];
      for (const b of reaches.get(file)?.imports ?? []) {
        let target = targetOf(file, b);
        if (target) known.push({ local: b.local, name: b.name, file: target });
        if (target && !b.reexport) passedOn(target, b.local, b.name, 0, known);
        // A Python package's `__init__` passes on what it imports (`from .services.user_service
        // import UserService`): the module that defines the name is imported too.
        let name = b.name;
        for (let depth = 0; target?.endsWith('__init__.py') && depth < MAX_PASSED_ON; depth++) {
          const from: string = target;
          const next = reaches.get(from)?.imports.find((x) => x.local === name && x.name !== '*');
          target = next ? targetOf(from, next) : null;
          if (!next || !target) break;
          name = next.name;
          known.push({ local: b.local, name, file: target });
        }
      }
      importedFiles.set(file, known);
    }
    return known;
  };
  /**
   * What a barrel (`index.ts`: `export * from './feed'`, `export { countVisit as recordVisit }
   * from './stats'`) passes on to an importer asking for `name` (`*`: the whole module) as
   * `local`: the modules that define the names are imported too, through barrels of barrels.
   */
  const passedOn = (barrel: string, local: string, name: string, depth: number, into: Imported[]) => {
    if (depth >= MAX_PASSED_ON) return;
    for (const r of reaches.get(barrel)?.imports ?? []) {
      const file = r.reexport ? importFile(barrel, r.module) : null;
      if (!file || file === barrel) continue;
      if (r.local === '*') {
        // `export * from`: every name, under its own name.
        into.push({ local, name, file });
        passedOn(file, local, name, depth + 1, into);
      } else if (name === '*') {
        // The whole barrel imported (`import * as db`): `db.recordVisit()` is `countVisit` there.
        into.push(r.name === '*' ? { local, name: '*', file } : { local, name: r.name, file, as: r.local });
      } else if (r.local === name) {
        into.push({ local, name: r.name, file });
        if (r.name !== '*') passedOn(file, local, r.name, depth + 1, into);
      }
    }
  };
  const named = (file: string, name: string): NodeRef[] =>
    (byName.get(file)?.get(name) ?? []).map((node) => ({ file, node }));
  const types = classTypes(reaches, importsOf);
  /**
   * What a call through an imported binding reaches besides the functions of that name:
   * the methods of that name of the classes that extend or implement the types the module
   * declares (a service typed by an abstract `UserRepository` calls the DynamoDB class that
   * implements it in another package), and, for a call of a class itself (`Repo(...)`,
   * `new Repo()`), its constructor.
   */
  const throughTypes = (imp: { name: string; file: string } | null, file: string, c: CallRef): NodeRef[] => {
    const out: NodeRef[] = [];
    if (c.member) {
      // The file's own types, `import * as m`, `import x from`, `from pkg import module`: any
      // type of the module; else the type imported (none when a function is).
      const whole = !imp || imp.name === '*' || imp.name === 'default' || namesModule(imp.name, file);
      for (const t of whole ? types.declared(file) : types.declares(file, imp.name) ? [imp.name] : [])
        out.push(...methodsOf(types.implementers(file, t), c.name));
    } else {
      const cls = imp ? imp.name : c.name;
      if (types.declares(file, cls))
        for (const m of [...named(file, '__init__'), ...named(file, 'constructor')])
          if (m.node.owner === cls) out.push(m);
    }
    return out;
  };
  /**
   * What `from` calls. `caller`: the file of the function that called it from another file,
   * whose imports its calls through a receiver are also looked for in: a function given its
   * dependencies (`makeFeedHandler({ feed: new FeedRepository() })` returning a handler that
   * calls `feed.latest()`, typed by an interface of its own) calls methods of objects its
   * caller made, whose classes its caller imports.
   */
  const calleesNow = (from: NodeRef, caller: string | null): Callee[] => {
    const out: Callee[] = [];
    const callerImports = caller && caller !== from.file ? importsOf(caller) : [];
    const byMember: Array<{ name: string; inLoop: boolean }> = [];
    const providers = new Set<string>();
    for (const c of from.node.calls) {
      // `resp.get("Item")` on a DynamoDB response: a dict's method.
      if (c.type === PLAIN_DATA) continue;
      // A method called on a field of a declared type: that type's method and its overrides only.
      const typed = c.member && c.type ? ofType(from.file, c.type, c.name) : [];
      if (typed.length) {
        for (const to of typed) if (to.node !== from.node) out.push({ to, inLoop: c.inLoop });
        continue;
      }
      // `os.environ.get()`, `json.loads()`: a module outside the workspace runs none of its functions.
      if (c.via && from.file.endsWith('.py') && !importsOf(from.file).some((imp) => imp.local === c.via)) continue;
      const targets = [...named(from.file, c.name), ...throughTypes(null, from.file, c)];
      for (const imp of importsOf(from.file)) {
        if (!c.member && imp.local === c.name)
          targets.push(
            ...(imp.name === 'default' || imp.name === '*' ? exportedOf(imp.file) : named(imp.file, imp.name)),
            ...throughTypes(imp, imp.file, c),
          );
        // A method or a module's function called through a receiver: `repo.save()`, `votes.add()`
        // (under the name a barrel re-exports it by: `db.recordVisit()` is `countVisit`).
        const member = imp.as === undefined ? c.name : imp.as === c.name ? imp.name : null;
        if (c.member && member) targets.push(...named(imp.file, member), ...throughTypes(imp, imp.file, c));
      }
      if (c.member) for (const imp of callerImports) targets.push(...named(imp.file, c.name));
      if (c.member) byMember.push(c);
      for (const to of targets) {
        if (to.node === from.node) continue;
        out.push({ to, inLoop: c.inLoop });
        if (!c.member && to.file !== from.file) providers.add(to.file);
      }
    }
    // A receiver another module's function made or handed over (`dal = get_dal_handler(table)`
    // then `dal.create_order()`, a handler decorated by `@with_repository` calling
    // `repository.settings()`, `repository = init_users_repository()` at module level): its
    // class is imported where that function is, not here.
    if (byMember.length && from.node.name !== MODULE)
      for (const m of named(from.file, MODULE))
        for (const c of m.node.calls)
          if (!c.member)
            for (const imp of importsOf(from.file))
              if (imp.local === c.name && named(imp.file, imp.name).length) providers.add(imp.file);
    for (const file of providers)
      for (const imp of importsOf(file))
        for (const c of byMember)
          for (const to of named(imp.file, c.name)) if (to.node !== from.node) out.push({ to, inLoop: c.inLoop });
    return out;
  };
  /**
   * `calleesNow`, once per function and calling file: every entry point's walk asks again for
   * the functions it shares with the others (on a tree with a vendored Python layer, 44,000
   * asks for 12,600 answers). The caller counts only when it is another file.
   */
  const known = new Map<FunctionNode, Map<string, Callee[]>>();
  const callees = (from: NodeRef, caller: string | null): Callee[] => {
    const by = caller && caller !== from.file ? caller : '';
    let mine = known.get(from.node);
    if (!mine) known.set(from.node, (mine = new Map()));
    let out = mine.get(by);
    if (!out) mine.set(by, (out = calleesNow(from, by || null)));
    return out;
  };
  /**
   * The methods `name` of the type `type` as `file` names it: its own or one it inherits,
   * and the overrides of the classes extending or implementing it.
   */
  const ofType = (file: string, type: string, name: string): NodeRef[] => {
    const out: NodeRef[] = [];
    for (const t of types.resolve(file, type))
      out.push(...methodsOf([t, ...types.ancestors(t.file, t.name), ...types.implementers(t.file, t.name)], name));
    return out;
  };
  /** The methods `name` the classes `owners` define themselves. */
  const methodsOf = (owners: readonly TypeRef[], name: string): NodeRef[] =>
    owners.flatMap((o) => named(o.file, name).filter((m) => m.node.owner === o.name));
  const exportedOf = (file: string): NodeRef[] =>
    (reaches.get(file)?.functions ?? []).filter((f) => f.exported).map((node) => ({ file, node }));
  /**
   * The function an entry point starts at: `root` in `file`, or where `file` passes it on from
   * (an entry module written `export { handler } from '../services/handlers/worker'`, the CDK
   * function's `entry` kept beside the stack while the code lives in another package).
   */
  const rootNodes = (file: string, root: string, depth: number): NodeRef[] => {
    const own = named(file, root);
    if (own.length || depth >= MAX_PASSED_ON) return own;
    for (const r of reaches.get(file)?.imports ?? []) {
      if (!r.reexport || (r.local !== root && r.local !== '*')) continue;
      const target = importFile(file, r.module);
      const found = target && target !== file ? rootNodes(target, r.local === '*' ? root : r.name, depth + 1) : [];
      if (found.length) return found;
    }
    return own;
  };
  const fromRoot = new Map<string, Map<string, boolean>>();
  const reachedFrom = (file: string, root: string) => {
    const key = id(file, root);
    let seen = fromRoot.get(key);
    if (seen) return seen;
    // Breadth first with two states per node: reached outside any loop, or only inside one;
    // a node is followed again for each file it is called from (its receivers' classes may be imported there).
    const queue: Array<{ to: NodeRef; inLoop: boolean; caller: string | null }> = rootNodes(file, root, 0).map(
      (to) => ({
        to,
        inLoop: false,
        caller: null,
      }),
    );
    seen = new Map<string, boolean>();
    const followed = new Map<string, boolean>();
    // Read by index: `shift()` moves the whole queue each time, which on a tree with a vendored
    // Python layer (800 modules reached) was 15 of the 21 seconds its findings took.
    for (let head = 0; head < queue.length; head++) {
      const { to, inLoop, caller } = queue[head];
      const at = id(to.file, to.node.name);
      const via = `${at}\0${caller ?? ''}`;
      const before = followed.get(via);
      if (before === false || before === inLoop) continue;
      followed.set(via, inLoop);
      if (seen.get(at) !== false) seen.set(at, inLoop);
      for (const next of callees(to, caller))
        queue.push({ to: next.to, inLoop: inLoop || next.inLoop, caller: next.to.file === to.file ? caller : to.file });
    }
    fromRoot.set(key, seen);
    return seen;
  };
  return { named, reachedFrom, callees: (file, node) => callees({ file, node }, null).map((c) => c.to) };
}

/** The graph from every entry point; `calls` is reused when only the entry points templates declare changed. */
export function reachGraph(input: ReachInput, calls: CallGraph = callGraph(input)): ReachGraph {
  const { reaches } = input;
  const entries: EntryPoint[] = [];
  const roots: Array<{ file: string; root: string }> = [];
  // Infrastructure names the handler: it replaces what the handler's signature alone said.
  const infraHandled = new Set(input.infra.map((e) => id(e.file, e.functionName ?? MODULE)));
  for (const e of input.infra) {
    entries.push(e);
    roots.push({ file: e.file, root: e.functionName ?? MODULE });
  }
  // So does a handler the named one wraps in its own file (`lambda_handler =
  // logger.inject_lambda_context(process_batch)`) or in a module its file imports
  // (`exports.handle = middyfy({ handler })` with `handler` from `./handler`): its signature
  // says Lambda, the template says which trigger; both kept, one route counted as two entry points.
  const imported = new Map<string, Set<string>>();
  const importsOf = (file: string) => {
    let files = imported.get(file);
    if (!files) {
      files = new Set();
      for (const b of reaches.get(file)?.imports ?? []) {
        const target = input.importFile(file, b.module);
        if (target) files.add(target);
      }
      imported.set(file, files);
    }
    return files;
  };
  const wrappedByInfra = (file: string, fn: string) =>
    input.infra.some(
      (e) =>
        (e.file === file || importsOf(e.file).has(file)) &&
        calls.reachedFrom(e.file, e.functionName ?? MODULE).has(id(file, fn)),
    );
  for (const [file, r] of reaches)
    for (const { entry, root } of r.entries) {
      const fn = entry.functionName ?? MODULE;
      const guessed = entry.kind === 'unknown' || entry.fromSignature;
      if (guessed && (infraHandled.has(id(file, fn)) || wrappedByInfra(file, fn))) continue;
      entries.push(entry);
      roots.push({ file, root });
    }

  const reached = new Map<string, Map<number, boolean>>();
  roots.forEach(({ file, root }, i) => {
    for (const [key, inLoop] of calls.reachedFrom(file, root)) {
      let m = reached.get(key);
      if (!m) reached.set(key, (m = new Map()));
      m.set(i, inLoop);
    }
  });
  return { reached, entries, roots };
}

/** The innermost function of the file around an access (its file's top-level code when none). */
export function functionAround(r: FileReach, a: Access): FunctionNode {
  const known = around.get(a);
  if (known?.reach === r) return known.fn;
  let best: FunctionNode | null = null;
  for (const f of r.functions) {
    if (f.name === MODULE || !spanWithin(a.span, f.span)) continue;
    if (!best || spanWithin(f.span, best.span)) best = f;
  }
  const fn = best ?? r.functions.find((f) => f.name === MODULE)!;
  around.set(a, { reach: r, fn });
  return fn;
}

/**
 * The function around each access, for the file reach it was found in: it does not change
 * when the graph does, and a template edit asks again for every access of the workspace
 * (a search of every function per access was a tenth of such an update on bench/workspace).
 */
const around = new WeakMap<Access, { reach: FileReach; fn: FunctionNode }>();

/**
 * How one access is reached. `known`: whether its project's entry points are all known
 * (see docs/entry-points.md); `referenced`: whether anything names its function outside
 * its definition (another file's text, a call in its own file).
 */
export function reachOf(
  graph: ReachGraph,
  r: FileReach | undefined,
  a: Access,
  known: boolean,
  referenced: (fn: FunctionNode) => boolean,
): AccessReach | null {
  if (!r) return null;
  const fn = functionAround(r, a);
  const hits = graph.reached.get(id(a.file, fn.name));
  if (!hits || hits.size === 0) {
    if (known && fn.name !== MODULE && !fn.name.startsWith('<') && !referenced(fn))
      return { entryPoints: [], unreached: true };
    return null;
  }
  const entryPoints = [...hits.keys()].map((i) => graph.entries[i]);
  const inOwnLoop = fn.loops.some((l) => spanWithin(a.span, l));
  // Tests and scripts that call a consumer say nothing of how often it runs.
  const running = [...hits].filter(([i]) => !isOneOffEntry(graph.entries[i].kind));
  const batch =
    running.length > 0 &&
    running.every(
      ([i, inLoop]) => (graph.entries[i].kind === 'queue' || graph.entries[i].kind === 'stream') && !inLoop,
    );
  return { entryPoints, ...(batch && !inOwnLoop ? { oncePerBatch: true as const } : {}) };
}
