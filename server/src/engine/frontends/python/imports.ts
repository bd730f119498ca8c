/**
 * A Python file's imports: by the local name each module's names are used under
 * (`from app.dao import ItemDao as Dao`, `import app.dao as dao`), and as written, for
 * code generated into the file.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { ImportInfo } from '../../model';
import type { ImportedName } from '../../model/frontend';
import { spanOf } from '../../syntax/span';

/** The names a file imports from other modules, by the local name it uses (`from app import dao` may name a module). */
export function importedNames(tree: Tree): Map<string, ImportedName> {
  const out = new Map<string, ImportedName>();
  for (const stmt of tree.rootNode.namedChildren) if (stmt) pythonImports(stmt, out);
  return out;
}

function pythonImports(stmt: Node, out: Map<string, ImportedName>): void {
  if (stmt.type === 'import_from_statement') {
    const module = stmt.childForFieldName('module_name')?.text;
    if (!module) return;
    for (const n of stmt.childrenForFieldName('name')) {
      if (!n) continue;
      const name = n.type === 'aliased_import' ? n.childForFieldName('name')?.text : n.text;
      const local = n.type === 'aliased_import' ? n.childForFieldName('alias')?.text : n.text;
      if (!name || !local) continue;
      // `from app import dao` may name a module as well as a name in app/__init__.py.
      out.set(local, { source: module, name });
    }
    return;
  }
  if (stmt.type === 'import_statement') {
    for (const n of stmt.namedChildren) {
      if (n?.type === 'aliased_import') {
        const name = n.childForFieldName('name')?.text;
        const alias = n.childForFieldName('alias')?.text;
        if (name && alias) out.set(alias, { source: name, name: '*' });
      } else if (n?.type === 'dotted_name' && !n.text.includes('.')) {
        out.set(n.text, { source: n.text, name: '*' });
      }
    }
  }
}

/** `import boto3`, `import random as r`, `from boto3.dynamodb.conditions import Key, Attr`. */
export function importOf(stmt: Node): ImportInfo | null {
  if (stmt.type === 'import_statement') {
    const first = stmt.namedChild(0);
    const module = first?.type === 'aliased_import' ? first.childForFieldName('name')?.text : first?.text;
    return module ? { module, names: [], span: spanOf(stmt) } : null;
  }
  if (stmt.type === 'import_from_statement') {
    const module = stmt.childForFieldName('module_name')?.text;
    if (!module) return null;
    const names = stmt
      .childrenForFieldName('name')
      .flatMap((n) =>
        !n ? [] : n.type === 'aliased_import' ? [n.childForFieldName('name')?.text ?? n.text] : [n.text],
      );
    return { module, names, span: spanOf(stmt) };
  }
  return null;
}
