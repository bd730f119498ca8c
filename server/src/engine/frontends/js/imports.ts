/**
 * A JavaScript/TypeScript file's imports: by the local name each module's names are
 * used under (`import { save as put } from "./db"`, `import * as db from "./db"`,
 * `const { save } = require("./db")`, `const db = require("./db")`), and as written, for
 * code generated into the file.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { ImportInfo } from '../../model';
import type { ImportedName } from '../../model/frontend';
import { spanOf } from '../../syntax/span';

const unquote = (s: string) => s.replace(/^['"`]|['"`]$/g, '');

/** The names a file imports from other modules, by the local name it uses. */
export function importedNames(tree: Tree): Map<string, ImportedName> {
  const out = new Map<string, ImportedName>();
  for (const stmt of tree.rootNode.namedChildren) if (stmt) jsImports(stmt, out);
  return out;
}

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

/** `import { A, B as C } from "m"`, `import D from "m"`, `import * as N from "m"`, `const { A } = require("m")`. */
export function importOf(stmt: Node): ImportInfo | null {
  if (stmt.type === 'import_statement') {
    const source = stmt.childForFieldName('source');
    if (!source) return null;
    const names: string[] = [];
    for (const spec of stmt.descendantsOfType(['import_specifier', 'identifier', 'namespace_import'])) {
      if (!spec) continue;
      if (spec.type === 'import_specifier') names.push(spec.childForFieldName('name')?.text ?? spec.text);
      else if (spec.type === 'namespace_import') names.push(spec.text);
      else if (spec.parent?.type === 'import_clause') names.push(`default as ${spec.text}`);
    }
    return { module: unquote(source.text), names, span: spanOf(stmt) };
  }
  if (stmt.type === 'lexical_declaration' || stmt.type === 'variable_declaration') {
    const declarator = stmt.namedChildren.find((c) => c?.type === 'variable_declarator');
    const value = declarator?.childForFieldName('value');
    if (value?.type !== 'call_expression' || value.childForFieldName('function')?.text !== 'require') return null;
    const arg = value.childForFieldName('arguments')?.namedChild(0);
    if (arg?.type !== 'string') return null;
    const name = declarator!.childForFieldName('name');
    const names =
      name?.type === 'object_pattern'
        ? name.namedChildren.flatMap((c) =>
            !c
              ? []
              : c.type === 'shorthand_property_identifier_pattern'
                ? [c.text]
                : c.type === 'pair_pattern'
                  ? [c.childForFieldName('key')?.text ?? c.text]
                  : [],
          )
        : name
          ? [`default as ${name.text}`]
          : [];
    return { module: unquote(arg.text), names, span: spanOf(stmt) };
  }
  return null;
}
