import type { DidChangeTextDocumentParams, DidOpenTextDocumentParams } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { AnalyzeOptions, FileAnalysis } from '../engine/analyze';
import { AnalyzedDocument, type TextEdit } from '../engine/document';
import { languageForId } from '../engine/parser';
import { uriToPath } from './convert';

interface Open {
  text: TextDocument;
  analyzed: AnalyzedDocument;
}

/**
 * The documents open in the editor: their text (kept in sync incrementally) and
 * their syntax trees, edited in place on every change and analysed on demand.
 */
export class OpenDocuments {
  private readonly docs = new Map<string, Open>();

  /** The engine's key for a document: its file path, or the URI when it has none. */
  static keyOf(uri: string): string {
    return uriToPath(uri) ?? uri;
  }

  open(p: DidOpenTextDocumentParams, options: AnalyzeOptions): FileAnalysis | null {
    const language = languageForId(p.textDocument.languageId);
    if (!language) return null;
    const { uri, languageId, version, text } = p.textDocument;
    this.close(uri);
    const analyzed = new AnalyzedDocument(OpenDocuments.keyOf(uri), language, text, options);
    this.docs.set(uri, { text: TextDocument.create(uri, languageId, version, text), analyzed });
    return analyzed.analysis;
  }

  /** Applies the changes to the text and the tree; the analysis waits for `refresh`. */
  change(p: DidChangeTextDocumentParams): boolean {
    const doc = this.docs.get(p.textDocument.uri);
    if (!doc) return false;
    for (const change of p.contentChanges) {
      if ('range' in change) {
        const edit: TextEdit = {
          start: doc.text.offsetAt(change.range.start),
          end: doc.text.offsetAt(change.range.end),
          text: change.text,
        };
        doc.text = TextDocument.update(doc.text, [change], p.textDocument.version);
        doc.analyzed.applyEdits([edit], false);
      } else {
        doc.text = TextDocument.update(doc.text, [change], p.textDocument.version);
        doc.analyzed.setText(change.text);
      }
    }
    return true;
  }

  /** The document's analysis, brought up to date first. */
  refresh(uri: string): FileAnalysis | null {
    return this.docs.get(uri)?.analyzed.refresh() ?? null;
  }

  close(uri: string): boolean {
    const doc = this.docs.get(uri);
    doc?.analyzed.dispose();
    return this.docs.delete(uri);
  }

  get(uri: string): TextDocument | undefined {
    return this.docs.get(uri)?.text;
  }

  /** The open buffer's text for an engine key, so other files' imports see unsaved edits. */
  textOf(key: string): string | null {
    for (const d of this.docs.values()) if (d.analyzed.file === key) return d.text.getText();
    return null;
  }

  /** The open document's current analysis for an engine key, if it is open. */
  analysisOf(key: string): FileAnalysis | null {
    for (const d of this.docs.values()) if (d.analyzed.file === key) return d.analyzed.refresh();
    return null;
  }

  uris(): string[] {
    return [...this.docs.keys()];
  }
}
