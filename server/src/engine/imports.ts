import type { Node, Tree } from 'web-tree-sitter';
import type { ImportInfo, SourceLanguage } from './model';
import { spanOf } from './span';

/**
 * A file's imports, for code generated into it: which modules it already loads
 * and under which names, so a fix adds a name to an existing import rather than a
 * second import of the same module.
 */
export function importsOf(tree: Tree, language: SourceLanguage): FileImports {
  const imports: ImportInfo[] = [];
  let end = -1;
  for (const stmt of tree.rootNode.namedChildren) {
    if (!stmt) continue;
    const found = language === 'python' ? pythonImport(stmt) : jsImport(stmt);
    if (found) {
      imports.push(found);
      end = stmt.endIndex;
    }
  }
  return { imports, end };
}

/** A file's imports and the offset where the last one ends (an edit after it changes none). */
export interface FileImports {
  imports: ImportInfo[];
  end: number;
}

function unquote(s: string): string {
  return s.replace(/^['"`]|['"`]$/g, '');
}

/** `import { A, B as C } from "m"`, `import D from "m"`, `import * as N from "m"`, `const { A } = require("m")`. */
function jsImport(stmt: Node): ImportInfo | null {
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

/** `import boto3`, `import random as r`, `from boto3.dynamodb.conditions import Key, Attr`. */
function pythonImport(stmt: Node): ImportInfo | null {
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
