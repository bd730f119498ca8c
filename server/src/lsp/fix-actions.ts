import * as fs from 'node:fs';
import {
  CodeActionKind,
  type CodeAction,
  type CreateFile,
  type Diagnostic,
  type TextDocumentEdit,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import {
  Commands,
  type AskFixArgs,
  type FixAnswers as WireAnswers,
  type FixQuestion as WireQuestion,
  type FixTarget,
} from '../../../protocol/src/commands';
import type { Access, Finding, Span } from '../engine';
import type { FixAction, FixAnswers, FixContext, FixQuestion } from '../features/fixes/fix-model';
import { fixContextOf, type ContextOptions } from '../features/fixes/context';
import { allFixes } from '../features/fixes/index';
import type { WorkspaceIndex } from '../engine';
import { writerReaderFixes } from '../features/fixes/reader-fixes';
import { keyToUri, spanToRange, uriToPath } from './convert';

/**
 * The features layer's fixes (plain `FixAction`s: titles and text changes per file) as
 * LSP code actions with a `WorkspaceEdit`, and back from a command's arguments to the
 * one fix they name. Nothing here writes code: `features/fixes` does.
 */

/**
 * One fix context per index and shard settings, for as long as the workspace's
 * generation stays: the fixes of every finding of a key then share what they work out
 * about the key (where each access writes it, the texts and trees of its files), where
 * a context per request worked it all out again for each finding.
 */
export class FixContexts {
  private generation = -1;
  private readonly contexts = new Map<WorkspaceIndex, Map<string, FixContext>>();

  constructor(private readonly openText: (file: string) => string | null) {}

  get(generation: number, index: WorkspaceIndex, shards: ContextOptions['shards']): FixContext {
    if (generation !== this.generation) {
      this.contexts.clear();
      this.generation = generation;
    }
    let byShards = this.contexts.get(index);
    if (!byShards) this.contexts.set(index, (byShards = new Map()));
    const key = JSON.stringify(shards ?? null);
    let ctx = byShards.get(key);
    if (!ctx) byShards.set(key, (ctx = fixContextOf(index, { openText: this.openText, shards, stable: true })));
    return ctx;
  }
}

/** The cache key of a finding's (or a writer's) default fixes. */
export const fixKey = (file: string, what: string, span: Span, shards: object) =>
  JSON.stringify([file, what, span.startLine, span.startColumn, span.endLine, span.endColumn, shards]);

/** What the client can take: `documentChanges` with `create` resource operations, the asking command. */
export interface ClientEdits {
  createFiles: boolean;
  askFix: boolean;
}

/** Whether a file exists for the edit: an open buffer or a file on disk (`textOf` reads both). */
const exists = (file: string, ctx: FixContext) => ctx.textOf(file) !== null;

/**
 * The fix's changes as one `WorkspaceEdit`: `changes` per file when every file exists,
 * else `documentChanges` with a `CreateFile` before the edits of a new file (a reader
 * written into a file the user picked). Null when a file must be created and the client
 * cannot create files.
 */
export function workspaceEdit(fix: FixAction, ctx: FixContext, client: ClientEdits): WorkspaceEdit | null {
  const byFile = new Map<string, TextEdit[]>();
  for (const c of fix.changes) {
    const edits = byFile.get(c.file) ?? [];
    edits.push({ range: spanToRange(c.span), newText: c.newText });
    byFile.set(c.file, edits);
  }
  const missing = [...byFile.keys()].filter((f) => !exists(f, ctx));
  if (missing.length === 0) {
    const changes: Record<string, TextEdit[]> = {};
    for (const [file, edits] of byFile) changes[keyToUri(file)] = edits;
    return { changes };
  }
  if (!client.createFiles) return null;
  const documentChanges: Array<CreateFile | TextDocumentEdit> = [];
  for (const [file, edits] of byFile) {
    const uri = keyToUri(file);
    if (missing.includes(file)) documentChanges.push({ kind: 'create', uri, options: { ignoreIfExists: true } });
    documentChanges.push({ textDocument: { uri, version: null }, edits });
  }
  return { documentChanges };
}

function wireQuestion(q: FixQuestion): WireQuestion {
  return q.kind === 'reader-file' ? { kind: 'reader-file', suggested: keyToUri(q.suggested) } : q;
}

/** The code actions of one fix: its default form, and its asking form when it asks and the client can. */
export function fixCodeActions(
  fix: FixAction,
  target: Omit<FixTarget, 'fixId'>,
  diagnostic: Diagnostic | null,
  ctx: FixContext,
  client: ClientEdits,
): CodeAction[] {
  const out: CodeAction[] = [];
  const diagnostics = diagnostic ? [diagnostic] : undefined;
  const edit = fix.changes.length > 0 ? workspaceEdit(fix, ctx, client) : null;
  // A fix with no change is advice in its title (a counter used for ids needs a UUID):
  // shown, but with nothing to run it is not preferred.
  if (edit || fix.changes.length === 0) {
    out.push({
      title: fix.title,
      kind: CodeActionKind.QuickFix,
      ...(diagnostics ? { diagnostics } : {}),
      ...(fix.preferred && edit ? { isPreferred: true } : {}),
      edit: edit ?? { changes: {} },
    });
  }
  if (fix.asks.length > 0 && client.askFix) {
    const args: AskFixArgs = { ...target, fixId: fix.id, title: fix.title, questions: fix.asks.map(wireQuestion) };
    out.push({
      title: `${fix.title}…`,
      kind: CodeActionKind.QuickFix,
      ...(diagnostics ? { diagnostics } : {}),
      command: { title: `${fix.title}…`, command: Commands.askFix, arguments: [args] },
    });
  }
  return out;
}

const sameSpan = (a: Span, b: Span) =>
  a.startLine === b.startLine &&
  a.startColumn === b.startColumn &&
  a.endLine === b.endLine &&
  a.endColumn === b.endColumn;

/** The sharded writers of a file whose key is on the requested lines: they offer their reader. */
export function writersOnLines(accesses: Access[], startLine: number, endLine: number): Access[] {
  return accesses.filter((a) => {
    if (a.kind !== 'write' || !a.partitionKey) return false;
    const s = a.partitionKey.span;
    return s.startLine <= endLine && s.endLine >= startLine;
  });
}

/** Checks a command's answers; a string says what is wrong with them. */
export function answersOf(raw: WireAnswers | undefined): FixAnswers | string {
  const out: FixAnswers = {};
  if (raw === undefined || raw === null) return out;
  if (typeof raw !== 'object') return 'answers must be an object';
  if (raw.shardCount !== undefined) {
    const n = raw.shardCount;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 1000)
      return 'the shard count must be a whole number from 1 to 1000';
    out.shardCount = n;
  }
  if (raw.hashAttribute !== undefined) {
    if (typeof raw.hashAttribute !== 'string' || raw.hashAttribute === '') return 'hashAttribute must be a name';
    out.hashAttribute = raw.hashAttribute;
  }
  if (raw.readerFile !== undefined) {
    const file = typeof raw.readerFile === 'string' ? uriToPath(raw.readerFile) : null;
    if (!file) return 'readerFile must be a file URI';
    // A folder cannot take the reader.
    if (fs.existsSync(file) && !fs.statSync(file).isFile()) return `${file} is not a file`;
    out.readerFile = file;
  }
  return out;
}

/**
 * The fix a command names, computed with the answers: the finding of `rule` at `range`
 * (or the sharded writer there, without a rule), then its fix of `fixId`. A string says
 * why there is none (the code changed since the light bulb was shown).
 */
export function fixFor(
  target: FixTarget,
  findings: Finding[],
  accesses: Access[],
  ctx: FixContext,
  answers: FixAnswers,
): FixAction | string {
  const at: Span = {
    startLine: target.range.start.line,
    startColumn: target.range.start.character,
    endLine: target.range.end.line,
    endColumn: target.range.end.character,
  };
  let fixes: FixAction[];
  if (target.rule) {
    const finding = findings.find((f) => f.rule === target.rule && sameSpan(f.span, at));
    if (!finding) return `no ${target.rule} finding is at that range any more`;
    fixes = allFixes(finding, ctx, answers);
  } else {
    const writer = accesses.find((a) => a.kind === 'write' && a.partitionKey && sameSpan(a.partitionKey.span, at));
    if (!writer) return 'no sharded writer is at that range any more';
    fixes = writerReaderFixes(writer, ctx, answers);
  }
  return fixes.find((f) => f.id === target.fixId) ?? `the fix ${target.fixId} is not offered there any more`;
}
