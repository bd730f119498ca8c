import type { Tree } from 'web-tree-sitter';
import type { ImportInfo } from '../model';
import type { FrontEnd } from '../model/frontend';

/**
 * A file's imports, for code generated into it: which modules it already loads
 * and under which names, so a fix adds a name to an existing import rather than a
 * second import of the same module.
 */
export function importsOf(tree: Tree, fe: Pick<FrontEnd, 'importOf'>): FileImports {
  const imports: ImportInfo[] = [];
  let end = -1;
  for (const stmt of tree.rootNode.namedChildren) {
    if (!stmt) continue;
    const found = fe.importOf(stmt);
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
