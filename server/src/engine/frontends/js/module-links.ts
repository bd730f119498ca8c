/**
 * The modules a JavaScript/TypeScript file links to, for the reachability pass: its
 * `import`s, a barrel's re-exports, and `require` calls held in a variable. Each becomes an
 * import of the file's reach part (`local` name, `module`, imported `name`).
 */
import type { Node } from 'web-tree-sitter';
import type { ReachPart } from '../../model/entry-point';
import { walk } from '../../syntax/span';

export function readImport(n: Node, seen: ReachPart): void {
  const source = n.childForFieldName('source')?.text.slice(1, -1);
  if (!source) return;
  for (const c of walk(n)) {
    if (c.type === 'import_specifier') {
      const name = c.childForFieldName('name')?.text ?? '';
      const alias = c.childForFieldName('alias')?.text ?? name;
      seen.imports.push({ local: alias, module: source, name });
    } else if (c.type === 'namespace_import') {
      const local = c.namedChildren[0]?.text;
      if (local) seen.imports.push({ local, module: source, name: '*' });
    } else if (c.type === 'import_clause' && c.namedChildren[0]?.type === 'identifier') {
      seen.imports.push({ local: c.namedChildren[0].text, module: source, name: 'default' });
    }
  }
}

/**
 * A barrel's re-exports: `export * from './feed'` (every name), `export * as feed from
 * './feed'`, `export { countVisit as recordVisit } from './stats'`. An export without a
 * source declares nothing here.
 */
export function readReexport(n: Node, seen: ReachPart): void {
  const module = n.childForFieldName('source')?.text.slice(1, -1);
  if (!module) return;
  const clause = n.namedChildren.find((c) => c.type === 'export_clause' || c.type === 'namespace_export');
  if (!clause) seen.imports.push({ local: '*', module, name: '*', reexport: true });
  else if (clause.type === 'namespace_export') {
    const local = clause.namedChildren[0]?.text;
    if (local) seen.imports.push({ local, module, name: '*', reexport: true });
  } else
    for (const s of clause.namedChildren) {
      const name = s.childForFieldName('name')?.text;
      if (s.type === 'export_specifier' && name)
        seen.imports.push({ local: s.childForFieldName('alias')?.text ?? name, module, name, reexport: true });
    }
}

/** `const { save } = require("./db")`, `const db = require("./db")`. */
export function readRequire(call: Node, seen: ReachPart): void {
  const source = call.childForFieldName('arguments')?.namedChildren[0];
  const holder = call.parent?.type === 'variable_declarator' ? call.parent.childForFieldName('name') : null;
  if (!source || !/^['"`]/.test(source.text) || !holder) return;
  const module = source.text.slice(1, -1);
  if (holder.type === 'identifier') {
    seen.imports.push({ local: holder.text, module, name: '*' });
    return;
  }
  for (const p of holder.namedChildren) {
    if (p.type === 'shorthand_property_identifier_pattern') seen.imports.push({ local: p.text, module, name: p.text });
    else if (p.type === 'pair_pattern') {
      const name = p.childForFieldName('key')?.text;
      const local = p.childForFieldName('value')?.text;
      if (name && local) seen.imports.push({ local, module, name });
    }
  }
}
