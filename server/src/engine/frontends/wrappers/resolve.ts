/**
 * Finding a summarised function by the name a caller uses: a module's function
 * (`save`), a class's method (`Post.inPartition`), an object literal's (`Keys.season`), or a method a class inherits from
 * a base class, in its own module or in the one the base is imported from.
 */
import type { FunctionSummary, ModuleSummary, ModulesFrom } from '../../model/summary';

/** `save` or `Class.method` in a module (a method looked up through the class's bases in that module). */
export function functionOf(m: ModuleSummary | null, name: string): FunctionSummary | null {
  if (!m) return null;
  const dot = name.indexOf('.');
  if (dot < 0) return m.functions.get(name) ?? null;
  const method = methodOf(m, name.slice(0, dot), name.slice(dot + 1), null, 0);
  if (method) return method;
  // `Keys.season` of `export const Keys = { season: (s) => ... }`.
  const held = m.functions.get(name.slice(dot + 1));
  return held?.holder === name.slice(0, dot) ? held : null;
}

const MAX_BASES = 6;

/**
 * Method `method` of class `cls` in module `m`, else of its bases: a base defined in
 * the same module, or imported (followed when `modules` is given).
 */
export function methodOf(
  m: ModuleSummary,
  cls: string,
  method: string,
  modules: ModulesFrom | null,
  depth: number,
): FunctionSummary | null {
  const c = m.classes.get(cls);
  if (!c || depth > MAX_BASES) return null;
  const own = c.methods.get(method);
  if (own) return own;
  for (const base of c.bases) {
    const found = baseMethod(m, base, method, modules, depth + 1);
    if (found) return found;
  }
  return null;
}

/** A method of the class a module knows as `base` (`BaseRepo`, `models.Base`). */
export function baseMethod(
  m: ModuleSummary,
  base: string,
  method: string,
  modules: ModulesFrom | null,
  depth: number,
): FunctionSummary | null {
  if (m.classes.has(base)) return methodOf(m, base, method, modules, depth);
  const [head, ...rest] = base.split('.');
  const imported = m.imports.get(head);
  if (!imported || !modules) return null;
  const other = modules(m.file, m.language, imported.source);
  if (!other) return null;
  const name = imported.name === '*' ? rest.join('.') : rest.length === 0 ? imported.name : null;
  return name ? methodOf(other, name === 'default' ? (other.defaultExport ?? '') : name, method, modules, depth) : null;
}

const MAX_REEXPORTS = 4;

/**
 * Where a module's export `name` is defined: in the module itself, or down its
 * re-exports (`export * from "./impl"` in a barrel `index.ts`). A function or a class.
 */
export function definitionOf(
  m: ModuleSummary,
  name: string,
  modules: ModulesFrom | null,
  depth = 0,
): { module: ModuleSummary; name: string } | null {
  const own = name === 'default' ? (m.defaultExport ?? '') : name;
  if (m.functions.has(own) || m.classes.has(own)) return { module: m, name: own };
  // An interface (`IDatabaseClient`) that one class of the module implements stands for that class.
  const implementing = [...m.classes.values()].filter((c) => c.implements?.includes(own));
  if (implementing.length === 1) return { module: m, name: implementing[0].name };
  if (!modules || depth >= MAX_REEXPORTS) return null;
  for (const r of m.reexports) {
    const target = r.names === '*' ? own : r.names.get(own);
    const other = target ? modules(m.file, m.language, r.source) : null;
    const found = other && target ? definitionOf(other, target, modules, depth + 1) : null;
    if (found) return found;
  }
  return null;
}

/**
 * The class of an instance a module exports as `name` (`export const counters = new
 * CounterRepository()`): defined in that module or imported into it.
 */
export function instanceClassOf(
  m: ModuleSummary,
  name: string,
  modules: ModulesFrom | null,
  depth = 0,
): { module: ModuleSummary; name: string } | null {
  const cls = m.instances.get(name);
  if (cls) return classNamedIn(m, cls, modules);
  // Re-exported by a barrel (`export { notificationsTable } from "./tables"`).
  if (!modules || depth >= MAX_REEXPORTS) return null;
  for (const r of m.reexports) {
    const target = r.names === '*' ? name : r.names.get(name);
    const other = target ? modules(m.file, m.language, r.source) : null;
    const found = other && target ? instanceClassOf(other, target, modules, depth + 1) : null;
    if (found) return found;
  }
  return null;
}

/** The class module `m` writes as `cls`: its own, or the one it imports under that name. */
export function classNamedIn(
  m: ModuleSummary,
  cls: string,
  modules: ModulesFrom | null,
): { module: ModuleSummary; name: string } | null {
  if (m.classes.has(cls)) return { module: m, name: cls };
  const imported = m.imports.get(cls);
  const other = imported && modules ? modules(m.file, m.language, imported.source) : null;
  if (!other || !imported) return null;
  const d = definitionOf(other, imported.name === '*' ? cls : imported.name, modules);
  return d && d.module.classes.has(d.name) ? d : null;
}
