import { TextDocument } from 'vscode-languageserver-textdocument';
import { isInfrastructureCandidate, languageForFile } from '../engine';
import { uriToPath } from './convert';
import type { ContentChange } from './params';

/**
 * Infrastructure files open in the editor that are not source code: SAM/CloudFormation
 * templates, `serverless.yml`, Terraform. Only their text is kept, in sync edit by edit;
 * the workspace index reads it instead of the disk (`textOf`), and the language server
 * reads the file again after each (debounced) change. A `serverless.ts` or a CDK stack
 * file is a source file, kept by `OpenDocuments`.
 */
export class OpenTemplates {
  private readonly docs = new Map<string, { key: string; text: TextDocument }>();

  /** Whether a document is one: a local file named as infrastructure (the index decides by content). */
  static accepts(uri: string): string | null {
    const key = uriToPath(uri);
    return key && isInfrastructureCandidate(key) && !languageForFile(key) ? key : null;
  }

  open(p: { textDocument: { uri: string; languageId: string; version: number; text: string } }): boolean {
    const { uri, languageId, version, text } = p.textDocument;
    const key = OpenTemplates.accepts(uri);
    if (!key) return false;
    this.docs.set(uri, { key, text: TextDocument.create(uri, languageId, version, text) });
    return true;
  }

  /** Applies checked changes (`didChangeParams`); false for a document not kept here. */
  change(p: { uri: string; version: number; contentChanges: ContentChange[] }): boolean {
    const doc = this.docs.get(p.uri);
    if (!doc) return false;
    doc.text = TextDocument.update(doc.text, p.contentChanges, p.version);
    return true;
  }

  close(uri: string): boolean {
    return this.docs.delete(uri);
  }

  has(uri: string): boolean {
    return this.docs.has(uri);
  }

  /** The open buffer's text for an engine key, null when it is not open. */
  textOf(key: string): string | null {
    for (const d of this.docs.values()) if (d.key === key) return d.text.getText();
    return null;
  }
}
