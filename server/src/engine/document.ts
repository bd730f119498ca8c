import { Edit, type Point, type Tree } from 'web-tree-sitter';
import { analyzeTree, DEFAULT_BUDGET_MS, DEFAULT_MAX_BYTES, type AnalyzeOptions, type FileAnalysis } from './analyze';
import type { SourceLanguage } from './model';
import { parse, ParseTimeout } from './parser';
import { mayContainDynamoDbCalls, reasonToSkip } from './prescan';

/** A text edit by UTF-16 offsets into the text before the edit. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** The row/column (UTF-16 units, as web-tree-sitter counts them) of an offset. */
function pointAt(text: string, offset: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}

/**
 * An open document that keeps its syntax tree between edits: each edit is applied to
 * the tree (`tree.edit`) and the reparse reuses every unchanged subtree.
 */
export class AnalyzedDocument {
  private tree: Tree | null = null;
  private current: FileAnalysis;

  constructor(
    readonly file: string,
    readonly language: SourceLanguage,
    private text: string,
    private readonly options: AnalyzeOptions = {},
  ) {
    this.current = this.analyze();
  }

  get analysis(): FileAnalysis {
    return this.current;
  }

  get content(): string {
    return this.text;
  }

  /** Applies edits in order (each against the text left by the previous one). */
  applyEdits(edits: TextEdit[]): FileAnalysis {
    for (const e of edits) {
      const startPosition = pointAt(this.text, e.start);
      const oldEndPosition = pointAt(this.text, e.end);
      this.text = this.text.slice(0, e.start) + e.text + this.text.slice(e.end);
      const newEnd = e.start + e.text.length;
      this.tree?.edit(
        new Edit({
          startIndex: e.start,
          oldEndIndex: e.end,
          newEndIndex: newEnd,
          startPosition,
          oldEndPosition,
          newEndPosition: pointAt(this.text, newEnd),
        }),
      );
    }
    this.current = this.analyze();
    return this.current;
  }

  /** Replaces the whole text (a full-document sync); the next parse starts afresh. */
  setText(text: string): FileAnalysis {
    this.text = text;
    this.tree?.delete();
    this.tree = null;
    this.current = this.analyze();
    return this.current;
  }

  dispose(): void {
    this.tree?.delete();
    this.tree = null;
  }

  private analyze(): FileAnalysis {
    const none = (skipped: string | null): FileAnalysis => ({
      file: this.file,
      language: this.language,
      accesses: [],
      findings: [],
      skipped,
      syntaxErrors: false,
    });
    const skip = reasonToSkip(this.text, this.options.maxBytes ?? DEFAULT_MAX_BYTES);
    if (skip || !mayContainDynamoDbCalls(this.text)) {
      this.dispose();
      return none(skip);
    }
    try {
      const next = parse(this.language, this.text, this.options.budgetMs ?? DEFAULT_BUDGET_MS, this.tree ?? undefined);
      this.tree?.delete();
      this.tree = next;
    } catch (e) {
      this.dispose();
      return none(e instanceof ParseTimeout ? e.message : `parser failed: ${String(e)}`);
    }
    return analyzeTree(this.tree, this.file, this.language, this.text, this.options);
  }
}
