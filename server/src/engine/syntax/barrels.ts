/**
 * A barrel: a module that passes on what other modules export (`export { User } from
 * "./user"`, or `const { User } = require("./user")` and `module.exports = { User }`).
 * Its importers reach a model or a wrapper through it.
 */
import type { Tree } from 'web-tree-sitter';

/**
 * `const { User, Order: Orders } = require("./models")` at a module's top level: each
 * local name, the module and the name it has there. Only JavaScript trees have them.
 */
export function requiredNames(tree: Tree): Array<[local: string, source: string, name: string]> {
  const out: Array<[string, string, string]> = [];
  for (const stmt of tree.rootNode.namedChildren) {
    if (stmt?.type !== 'lexical_declaration' && stmt?.type !== 'variable_declaration') continue;
    for (const d of stmt.namedChildren) {
      const pattern = d?.type === 'variable_declarator' ? d.childForFieldName('name') : null;
      const value = d?.childForFieldName('value');
      if (pattern?.type !== 'object_pattern' || value?.type !== 'call_expression') continue;
      if (value.childForFieldName('function')?.text !== 'require') continue;
      const arg = value.childForFieldName('arguments')?.namedChild(0);
      if (arg?.type !== 'string') continue;
      const source = arg.text.slice(1, -1);
      for (const p of pattern.namedChildren) {
        if (p?.type === 'shorthand_property_identifier_pattern') out.push([p.text, source, p.text]);
        const key = p?.type === 'pair_pattern' ? p.childForFieldName('key') : null;
        const local = p?.type === 'pair_pattern' ? p.childForFieldName('value') : null;
        if (key && local?.type === 'identifier') out.push([local.text, source, key.text]);
      }
    }
  }
  return out;
}

/**
 * Whether a module passes on names it imports: a re-export (`reexports`, the front-end's
 * reading), or a name bound by a destructured `require` in a CommonJS module that exports.
 */
export function passesOnImports(tree: Tree, text: string, reexports: number): boolean {
  return reexports > 0 || (/\b(?:module\.)?exports\b/.test(text) && requiredNames(tree).length > 0);
}
