/**
 * Module-level instances other files import and call methods on: `export const counters
 * = new CounterRepository()`, `module.exports = new PresenceStore()`, Python
 * `event_store = EventStore(table)` in a `deps.py`. Each is noted by its name with the
 * class as the module writes it (defined there or imported there).
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { SourceLanguage } from '../model';

export function moduleInstances(tree: Tree, language: SourceLanguage): Map<string, string> {
  const out = new Map<string, string>();
  for (let stmt of tree.rootNode.namedChildren) {
    if (!stmt) continue;
    if (language === 'python') {
      const a = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
      const left = a?.type === 'assignment' ? a.childForFieldName('left') : null;
      const cls = constructed(a?.childForFieldName('right') ?? null, language);
      if (left?.type === 'identifier' && cls) out.set(left.text, cls);
      continue;
    }
    if (stmt.type === 'export_statement') {
      // `export default new Store()`.
      const value = stmt.childForFieldName('value');
      const cls = constructed(value, language);
      if (cls) out.set('default', cls);
      stmt = stmt.childForFieldName('declaration') ?? stmt;
    }
    if (stmt.type === 'lexical_declaration' || stmt.type === 'variable_declaration') {
      for (const d of stmt.namedChildren) {
        const name = d?.type === 'variable_declarator' ? d.childForFieldName('name') : null;
        const cls = constructed(d?.childForFieldName('value') ?? null, language);
        if (name?.type === 'identifier' && cls) out.set(name.text, cls);
      }
    }
    const e = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
    if (e?.type === 'assignment_expression') {
      const left = e.childForFieldName('left')?.text ?? '';
      const cls = constructed(e.childForFieldName('right'), language);
      const m = /^(?:module\.)?exports(?:\.(\w+))?$/.exec(left);
      if (m && cls) out.set(m[1] ?? 'default', cls);
    }
  }
  return out;
}

/** `new Store(...)` / Python `Store(...)` (a capitalised callee): the class name. */
function constructed(n: Node | null, language: SourceLanguage): string | null {
  if (language === 'python') {
    const fn = n?.type === 'call' ? n.childForFieldName('function') : null;
    return fn?.type === 'identifier' && /^[A-Z]/.test(fn.text) ? fn.text : null;
  }
  const ctor = n?.type === 'new_expression' ? n.childForFieldName('constructor') : null;
  return ctor?.type === 'identifier' ? ctor.text : null;
}
