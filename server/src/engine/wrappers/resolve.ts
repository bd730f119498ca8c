/**
 * Finding a summarised function by the name a caller uses: a module's function
 * (`save`), a class's method (`Post.inPartition`), or a method a class inherits from
 * a base class, in its own module or in the one the base is imported from.
 */
import type { SourceLanguage } from '../model';
import type { FunctionSummary, ModuleSummary } from './summary';

/** The summary of module `source` as `fromFile` imports it, or null. */
export type ModulesFrom = (fromFile: string, language: SourceLanguage, source: string) => ModuleSummary | null;

/** `save` or `Class.method` in a module (a method looked up through the class's bases in that module). */
export function functionOf(m: ModuleSummary | null, name: string): FunctionSummary | null {
  if (!m) return null;
  const dot = name.indexOf('.');
  if (dot < 0) return m.functions.get(name) ?? null;
  return methodOf(m, name.slice(0, dot), name.slice(dot + 1), null, 0);
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
