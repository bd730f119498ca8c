/**
 * The classes and interfaces of the workspace, and which extend or implement which, for the
 * call graph: a service holds its repository by an abstract type (`UserRepository(ABC)`, an
 * interface `IUserRepository`) and the class that talks to DynamoDB implements it in another
 * module, often another package, that the service never imports. A call through the base
 * type reaches the implementations' methods of that name.
 *
 * A base is resolved as the file that extends it sees it: a class of its own, or a name it
 * imports (followed through package `__init__` files as the call graph follows them).
 */
import type { FileReach } from '../model/entry-point';

export interface TypeRef {
  file: string;
  name: string;
}

export interface ClassTypes {
  /** Whether `file` declares a class or interface `name`. */
  declares(file: string, name: string): boolean;
  /** The classes and interfaces `file` declares. */
  declared(file: string): readonly string[];
  /** Every class that extends or implements `file`'s `name`, directly or through others. */
  implementers(file: string, name: string): readonly TypeRef[];
  /** The classes or interfaces a type name written in `file` stands for (its own, an import). */
  resolve(file: string, name: string): TypeRef[];
  /** The classes `file`'s `name` extends, directly or through others: where a method it does not define comes from. */
  ancestors(file: string, name: string): readonly TypeRef[];
}

type ImportsOf = (file: string) => ReadonlyArray<{ local: string; name: string; file: string }>;

const key = (file: string, name: string) => `${file}\0${name}`;

/** Whether an imported name is the module file itself (`from app.repos import users` → `app/repos/users.py`). */
export function namesModule(name: string, file: string): boolean {
  const parts = file.split(/[\\/]/);
  const base = parts.pop()!.replace(/\.[^.]+$/, '');
  return (base === '__init__' ? parts.pop() : base) === name;
}

export function classTypes(reaches: ReadonlyMap<string, FileReach>, importsOf: ImportsOf): ClassTypes {
  let children: Map<string, TypeRef[]> | null = null;
  // Built on first use: most call graphs never ask (no file declares a class with bases).
  const childrenOf = () => {
    if (children) return children;
    children = new Map();
    for (const [file, r] of reaches)
      for (const c of r.classes ?? [])
        for (const base of c.bases)
          for (const parent of resolve(file, base)) {
            const k = key(parent.file, parent.name);
            children.set(k, [...(children.get(k) ?? []), { file, name: c.name }]);
          }
    return children;
  };
  const resolve = (file: string, base: string): TypeRef[] => {
    const out: TypeRef[] = [];
    if (declares(file, base)) out.push({ file, name: base });
    for (const imp of importsOf(file)) {
      if (imp.local === base) out.push({ file: imp.file, name: imp.name });
      // `import * as domain` … `extends domain.UserRepository`, `from app.ports import store` …
      // `class Impl(store.Store)`: the base is named by its own name in the module imported.
      else if ((imp.name === '*' || namesModule(imp.name, imp.file)) && declares(imp.file, base))
        out.push({ file: imp.file, name: base });
    }
    return out;
  };
  const declares = (file: string, name: string) => (reaches.get(file)?.classes ?? []).some((c) => c.name === name);
  const declared = (file: string) => (reaches.get(file)?.classes ?? []).map((c) => c.name);
  const known = new Map<string, TypeRef[]>();
  const implementers = (file: string, name: string): TypeRef[] => {
    const k = key(file, name);
    let found = known.get(k);
    if (!found) {
      found = reachable({ file, name }, (t) => childrenOf().get(key(t.file, t.name)) ?? []);
      known.set(k, found);
    }
    return found;
  };
  const parentsOf = (t: TypeRef): TypeRef[] => {
    const bases = (reaches.get(t.file)?.classes ?? []).find((c) => c.name === t.name)?.bases ?? [];
    return bases.flatMap((base) => resolve(t.file, base));
  };
  const ancestors = (file: string, name: string): TypeRef[] => reachable({ file, name }, parentsOf);
  return { declares, declared, implementers, resolve, ancestors };
}

/** Every type `next` leads to from `start`, directly or through others, nearest first, each once. */
function reachable(start: TypeRef, next: (t: TypeRef) => readonly TypeRef[]): TypeRef[] {
  const found: TypeRef[] = [];
  const seen = new Set([key(start.file, start.name)]);
  const queue = [start];
  for (let head = 0; head < queue.length; head++)
    for (const t of next(queue[head])) {
      const k = key(t.file, t.name);
      if (seen.has(k)) continue;
      seen.add(k);
      found.push(t);
      queue.push(t);
    }
  return found;
}
