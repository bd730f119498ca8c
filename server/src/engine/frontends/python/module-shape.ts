/**
 * What a Python module offers its importers: module-level constants and classes,
 * module-level instances, and the file an import names.
 */
import * as path from 'node:path';
import type { Node, Tree } from 'web-tree-sitter';
import type { DestructuredName, ModuleFinder } from '../../model/frontend';
import { RECORDED_CONSTRUCTORS } from '../../model/libraries';

/** Module-level assignments (`X = ...`) and classes (their body's constants are read like an object's: `Keys.PK`). */
export function topLevelDeclarations(tree: Tree): Map<string, Node> {
  const out = new Map<string, Node>();
  for (const stmt of tree.rootNode.namedChildren) {
    if (!stmt) continue;
    const a = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
    const left = a?.type === 'assignment' ? a.childForFieldName('left') : null;
    const right = a?.childForFieldName('right');
    if (left?.type === 'identifier' && right) out.set(left.text, right);
    // A class: its body's constants are read like an object's (`Keys.PK`).
    const cls = stmt.type === 'decorated_definition' ? stmt.childForFieldName('definition') : stmt;
    const name = cls?.type === 'class_definition' ? cls.childForFieldName('name') : null;
    if (name) out.set(name.text, cls!);
    // `from pynamodb.attributes import UnicodeAttribute` in a project's base module: passed on to
    // the models that import the class from there (`from app.models.base import UnicodeAttribute`).
    if (stmt.type === 'import_from_statement') for (const [local, item] of recordedImports(stmt)) out.set(local, item);
  }
  return out;
}

/** `orders, users = create_tables()` at the module's top level: each name and its position. */
export function destructuredDeclarations(tree: Tree): DestructuredName[] {
  const out: DestructuredName[] = [];
  for (const stmt of tree.rootNode.namedChildren) {
    const a = stmt?.type === 'expression_statement' ? stmt.namedChild(0) : null;
    const left = a?.type === 'assignment' ? a.childForFieldName('left') : null;
    const value = a?.childForFieldName('right');
    if (!value || (left?.type !== 'pattern_list' && left?.type !== 'tuple_pattern')) continue;
    left.namedChildren.forEach((c, i) => {
      if (c?.type === 'identifier') out.push({ name: c.text, value, key: i });
    });
  }
  return out;
}

/** The recorded classes an import names (`model/libraries.ts`), by local name, each with its name in the import. */
function recordedImports(stmt: Node): Array<[string, Node]> {
  const recorded = RECORDED_CONSTRUCTORS[stmt.childForFieldName('module_name')?.text ?? ''];
  if (!recorded) return [];
  return stmt.childrenForFieldName('name').flatMap((item): Array<[string, Node]> => {
    const original = item?.type === 'aliased_import' ? item.childForFieldName('name') : item;
    const local = item?.type === 'aliased_import' ? item.childForFieldName('alias') : item;
    return original && local && recorded.includes(original.text) ? [[local.text, item!]] : [];
  });
}

/** Module-level instances other files import: `event_store = EventStore(table)` in a `deps.py`. */
export function moduleInstances(tree: Tree): Map<string, string> {
  const out = new Map<string, string>();
  for (const stmt of tree.rootNode.namedChildren) {
    if (!stmt) continue;
    const a = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
    const left = a?.type === 'assignment' ? a.childForFieldName('left') : null;
    const cls = constructed(a?.childForFieldName('right') ?? null);
    if (left?.type === 'identifier' && cls) out.set(left.text, cls);
  }
  return out;
}

/** `Store(...)` (a capitalised callee): the class name. */
function constructed(n: Node | null): string | null {
  const fn = n?.type === 'call' ? n.childForFieldName('function') : null;
  return fn?.type === 'identifier' && /^[A-Z]/.test(fn.text) ? fn.text : null;
}

/** The file `from config import X` or `from .pkg.config import X` names, searched up to the root. */
export function resolveModule(fromFile: string, source: string, finder: ModuleFinder): string | null {
  const exists = (f: string) => finder.exists(f);
  const dots = source.match(/^\.*/)![0].length;
  const rel = source.slice(dots).split('.').filter(Boolean).join(path.sep);
  const candidates = (dir: string) => [path.join(dir, `${rel}.py`), path.join(dir, rel, '__init__.py')];
  if (dots > 0) {
    let dir = path.dirname(fromFile);
    for (let i = 1; i < dots; i++) dir = path.dirname(dir);
    return candidates(dir).find(exists) ?? null;
  }
  const stop = path.resolve(finder.root);
  // A search from a folder finds what it finds whichever file started it: each folder's answer is kept.
  const visited: string[] = [];
  let found: string | null = null;
  for (let dir = path.dirname(path.resolve(fromFile)); ; dir = path.dirname(dir)) {
    const key = `${dir}\0${rel}`;
    const known = finder.searched?.get(key);
    if (known !== undefined) {
      found = known;
      break;
    }
    visited.push(key);
    const hit = candidates(dir).find(exists);
    if (hit) {
      found = hit;
      break;
    }
    if (dir === stop || path.dirname(dir) === dir || !dir.startsWith(stop)) break;
  }
  for (const key of visited) finder.searched?.set(key, found);
  return found;
}
