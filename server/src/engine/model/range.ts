/** Positions and places in files: the model's smallest types, which every other model module names. */

/** Zero-based positions, as tree-sitter and LSP count them. */
export interface Span {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

/** A place in a file. */
export interface SourceRange {
  file: string;
  span: Span;
}
