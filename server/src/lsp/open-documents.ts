import type { DidOpenTextDocumentParams } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Tree } from 'web-tree-sitter';
import {
  AnalyzedDocument,
  type AnalyzeOptions,
  type FileAnalysis,
  languageForFile,
  languageForId,
  type SourceLanguage,
  type TextEdit,
} from '../engine';
import { uriToPath } from './convert';
import { OpenTemplates } from './open-templates';
import type { ContentChange } from './params';

interface Open {
  /** The engine's key (`keyOf(uri)`). */
  key: string;
  text: TextDocument;
  language: SourceLanguage;
  options: AnalyzeOptions;
  /** Null until the grammars are loaded; then built from the text as it is by then. */
  analyzed: AnalyzedDocument | null;
}

/**
 * The documents open in the editor: their text (kept in sync incrementally) and
 * their syntax trees, edited in place on every change and analysed on demand.
 *
 * A document is registered the moment it opens, even while the grammars are still
 * loading: its text takes every change in order from the start, and its tree is
 * built from that text once they are loaded. (Waiting for the grammars before
 * registering it lost the edits sent meanwhile, and every later incremental edit
 * then landed on the wrong text.)
 */
export class OpenDocuments {
  private readonly docs = new Map<string, Open>();
  private parsersLoaded = false;
  /** Open infrastructure files that are not source code (templates, Terraform): text only. */
  readonly templates = new OpenTemplates();

  /** `parsersReady` is `initParsers()`: no tree is built before it settles. */
  constructor(parsersReady: Promise<void>) {
    void parsersReady.then(() => (this.parsersLoaded = true));
  }

  /** The engine's key for a document: its file path, or the URI when it has none. */
  static keyOf(uri: string): string {
    return uriToPath(uri) ?? uri;
  }

  /**
   * The language to analyse a document as: its language id, or, when that is empty or
   * one ShardLens does not know (a client without TypeScript support, a plain-text
   * buffer), its file extension.
   */
  static languageFor(uri: string, languageId: string): SourceLanguage | null {
    return languageForId(languageId) ?? languageForFile(OpenDocuments.keyOf(uri));
  }

  /** Registers the document; false when it is not a language ShardLens reads. */
  open(p: DidOpenTextDocumentParams, options: AnalyzeOptions): boolean {
    const { uri, languageId, version, text } = p.textDocument;
    const language = OpenDocuments.languageFor(uri, languageId);
    if (!language) return false;
    this.close(uri);
    const key = OpenDocuments.keyOf(uri);
    this.docs.set(uri, {
      key,
      text: TextDocument.create(uri, languageId, version, text),
      language,
      options,
      analyzed: null,
    });
    return true;
  }

  /**
   * Applies checked changes (`didChangeParams`: ranges already in order) to the text and
   * the tree; the analysis waits for `refresh`. Each edit's offsets are read from the
   * text before it, with `TextDocument.offsetAt`, which clamps positions past a line's
   * end or the last line (and never splits a CRLF) — the same offsets `TextDocument.update`
   * cuts the text at, so the tree's text and the document's cannot drift apart.
   */
  change(p: { uri: string; version: number; contentChanges: ContentChange[] }): boolean {
    const doc = this.docs.get(p.uri);
    if (!doc) return false;
    for (const change of p.contentChanges) {
      if ('range' in change) {
        const edit: TextEdit = {
          start: doc.text.offsetAt(change.range.start),
          end: doc.text.offsetAt(change.range.end),
          text: change.text,
        };
        doc.text = TextDocument.update(doc.text, [change], p.version);
        doc.analyzed?.applyEdits([edit], false);
      } else {
        doc.text = TextDocument.update(doc.text, [change], p.version);
        doc.analyzed?.setText(change.text, false);
      }
    }
    return true;
  }

  /** The document's analysis, brought up to date first; null until the grammars are loaded. */
  refresh(uri: string): FileAnalysis | null {
    const doc = this.docs.get(uri);
    if (!doc || !this.parsersLoaded) return null;
    doc.analyzed ??= new AnalyzedDocument(doc.key, doc.language, doc.text.getText(), doc.options);
    return doc.analyzed.refresh();
  }

  /**
   * The document's calls and accesses as they are now, without its reach and findings
   * (`AnalyzedDocument.extract`): the debounced analysis adds those before it publishes.
   * Null until the grammars are loaded.
   */
  accessesNow(uri: string): FileAnalysis | null {
    const doc = this.docs.get(uri);
    if (!doc || !this.parsersLoaded) return null;
    doc.analyzed ??= new AnalyzedDocument(doc.key, doc.language, doc.text.getText(), doc.options);
    return doc.analyzed.extract();
  }

  /** New analysis options for every document (a folder's contexts changed): each is analysed afresh. */
  setOptions(optionsOf: (key: string) => AnalyzeOptions): void {
    for (const d of this.docs.values()) {
      d.analyzed?.dispose();
      d.analyzed = null;
      d.options = optionsOf(d.key);
    }
  }

  close(uri: string): boolean {
    this.docs.get(uri)?.analyzed?.dispose();
    return this.docs.delete(uri);
  }

  get(uri: string): TextDocument | undefined {
    return this.docs.get(uri)?.text;
  }

  /** The text the document's syntax tree was last edited with (null before it is built): for tests. */
  treeTextOf(uri: string): string | null {
    return this.docs.get(uri)?.analyzed?.content ?? null;
  }

  languageOf(uri: string): SourceLanguage | null {
    return this.docs.get(uri)?.language ?? null;
  }

  /** The open buffer's text for an engine key (a template's too), so other files' imports see unsaved edits. */
  textOf(key: string): string | null {
    for (const d of this.docs.values()) if (d.key === key) return d.text.getText();
    return this.templates.textOf(key);
  }

  /** The open document's syntax tree of `text`, if that is its text and it is parsed (see `AnalyzedDocument.treeFor`). */
  treeOf(key: string, text: string): Tree | null {
    for (const d of this.docs.values()) if (d.key === key) return d.analyzed?.treeFor(text) ?? null;
    return null;
  }

  /** The open document's current analysis for an engine key, if it is open (and the grammars loaded). */
  analysisOf(key: string): FileAnalysis | null {
    for (const [uri, d] of this.docs) if (d.key === key) return this.refresh(uri);
    return null;
  }
}
