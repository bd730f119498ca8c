/**
 * The names a file imports from other modules, by the local name it uses:
 * `import { save as put } from "./db"`, `import * as db from "./db"`,
 * `const { save } = require("./db")`, `const db = require("./db")`,
 * `from app.dao import ItemDao as Dao`, `import app.dao as dao`.
 * `name` is `*` for a whole module and `default` for a default export.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { SourceLanguage } from '../model';

export interface ImportedName {
  source: string;
  name: string;
}

export function importedNames(tree: Tree, language: SourceLanguage): Map<string, ImportedName> {
  const out = new Map<string, ImportedName>();
  for (const stmt of tree.rootNode.namedChildren) {
    if (!stmt) continue;
    if (language === 'python') pythonImports(stmt, out);
    else jsImports(stmt, out);
  }
  return out;
}

const unquote = (s: string) => s.replace(/^['"`]|['"`]$/g, '');

function jsImports(stmt: Node, out: Map<string, ImportedName>): void {
  if (stmt.type === 'import_statement') {
    const source = stmt.childForFieldName('source');
    if (!source) return;
    const from = unquote(source.text);
    for (const n of stmt.descendantsOfType(['import_specifier', 'namespace_import', 'identifier'])) {
      if (!n) continue;
      if (n.type === 'import_specifier') {
        const name = n.childForFieldName('name')?.text;
        const local = n.childForFieldName('alias')?.text ?? name;
        if (name && local) out.set(local, { source: from, name });
      } else if (n.type === 'namespace_import') {
        const local = n.namedChildren.find((c) => c?.type === 'identifier')?.text;
        if (local) out.set(local, { source: from, name: '*' });
      } else if (n.parent?.type === 'import_clause') {
        out.set(n.text, { source: from, name: 'default' });
      }
    }
    return;
  }
  if (stmt.type !== 'lexical_declaration' && stmt.type !== 'variable_declaration') return;
  for (const d of stmt.namedChildren) {
    const value = d?.type === 'variable_declarator' ? d.childForFieldName('value') : null;
    const from = requiredModule(value ?? null);
    const name = d?.childForFieldName('name');
    if (from === null || !name) continue;
    if (name.type === 'identifier') out.set(name.text, { source: from, name: '*' });
    if (name.type !== 'object_pattern') continue;
    for (const c of name.namedChildren) {
      if (c?.type === 'shorthand_property_identifier_pattern') out.set(c.text, { source: from, name: c.text });
      if (c?.type === 'pair_pattern') {
        const key = c.childForFieldName('key')?.text;
        const local = c.childForFieldName('value');
        if (key && local?.type === 'identifier') out.set(local.text, { source: from, name: key });
      }
    }
  }
}

/** `require("./db")` (also `require("./db").default` is left alone): the module named, or null. */
function requiredModule(n: Node | null): string | null {
  if (n?.type !== 'call_expression' || n.childForFieldName('function')?.text !== 'require') return null;
  const arg = n.childForFieldName('arguments')?.namedChild(0);
  return arg?.type === 'string' ? unquote(arg.text) : null;
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
