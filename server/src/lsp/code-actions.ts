import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic,
  type Range,
  type TextEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Commands } from '../../../protocol/src/commands';
import type { ShardLensSettings } from '../../../protocol/src/settings';
import { type Access, docsUrl, type Finding, type SourceLanguage, type Span } from '../engine';
import type { FixAction, FixContext } from '../features/fixes/fix-model';
import { toDiagnostic } from './diagnostics';
import { spanToRange } from './convert';
import { fixCodeActions, workspaceEdit, writersOnLines, type ClientEdits } from './fix-actions';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.shardlens`;

/** What the actions of one document are computed from: the server's own view of it. */
export interface ActionContext {
  doc: TextDocument;
  /** The language the document is analysed as (its id may be empty or unknown). */
  language: SourceLanguage;
  /** The document's current findings, cross-file ones included. */
  findings: Finding[];
  settings: ShardLensSettings;
  /** The document's accesses (its sharded writers offer their reader without a finding). */
  accesses?: Access[];
  /** The fixes of the features layer, with what they read of the workspace; none without it. */
  fixes?: {
    ctx: FixContext;
    client: ClientEdits;
    ofFinding: (f: Finding, ctx: FixContext) => FixAction[];
    ofWriter: (writer: Access, ctx: FixContext) => FixAction[];
  };
}

/**
 * Whether fix-all is advertised. It applies only fixes marked `safe`, and none is (every
 * fix changes where data lives or how it is read: docs/fixes.md), so it is not; the code
 * path below stays for a fix that is ever marked safe.
 */
export const FIX_ALL_ADVERTISED = false;

/** `// shardlens-ignore SL001` (or `#` in Python) on its own line above, indented like it. */
function ignoreEdit(ctx: ActionContext, line: number, rule: string): TextEdit {
  const text = ctx.doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  const indent = /^[ \t]*/.exec(text)![0];
  const comment = ctx.language === 'python' ? '#' : '//';
  return {
    range: { start: { line, character: 0 }, end: { line, character: 0 } },
    newText: `${indent}${comment} shardlens-ignore ${rule}\n`,
  };
}

/**
 * Whether a finding applies to the requested range. By lines, not characters: the
 * ignore fix works on a line, and editors ask with the cursor position, which is
 * often on the finding's line but outside its narrow range (the key expression).
 */
function onLines(d: Diagnostic, r: Range): boolean {
  return d.range.start.line <= r.end.line && d.range.end.line >= r.start.line;
}

const sameDiagnostic = (a: Diagnostic, b: Diagnostic) =>
  a.code === b.code &&
  a.message === b.message &&
  a.range.start.line === b.range.start.line &&
  a.range.start.character === b.range.start.character &&
  a.range.end.line === b.range.end.line &&
  a.range.end.character === b.range.end.character;

/**
 * The quick fixes for every finding on the requested lines (the features layer's fixes,
 * ignore the line, open the rule's docs), the reader of a sharded writer there, and —
 * were any fix safe — `source.fixAll.shardlens`.
 * They come from the server's findings, not from `context.diagnostics`: a client may
 * send only some of them (Neovim sends those starting on the cursor's line). When the
 * client did send the matching diagnostic, that one is attached, so the editor links
 * the fix to the squiggle it shows.
 */
export function codeActions(ctx: ActionContext, params: CodeActionParams): CodeAction[] {
  const only = params.context.only;
  const wants = (kind: string) => !only || only.some((k) => kind === k || kind.startsWith(`${k}.`));
  const actions: CodeAction[] = [];
  if (wants(CodeActionKind.QuickFix) && ctx.settings.enable) {
    const fixes = ctx.fixes;
    const multiline = params.range.start.line !== params.range.end.line;
    const ignored = new Set<string>();
    const documented = new Set<string>();
    for (const f of ctx.findings) {
      const own = toDiagnostic(f, ctx.settings);
      if (!own || !onLines(own, params.range)) continue;
      const d = params.context.diagnostics.find((s) => sameDiagnostic(s, own)) ?? own;
      const line = d.range.start.line;
      if (fixes) {
        const target = { uri: ctx.doc.uri, range: own.range, rule: f.rule };
        for (const fix of fixes.ofFinding(f, fixes.ctx))
          actions.push(...fixCodeActions(fix, target, d, fixes.ctx, fixes.client));
      }
      // Two findings of one rule on one line share one ignore comment.
      if (!ignored.has(`${f.rule}:${line}`)) {
        ignored.add(`${f.rule}:${line}`);
        actions.push({
          title: multiline ? `Ignore ${f.rule} on line ${line + 1}` : `Ignore ${f.rule} on this line`,
          kind: CodeActionKind.QuickFix,
          diagnostics: [d],
          edit: { changes: { [ctx.doc.uri]: [ignoreEdit(ctx, line, f.rule)] } },
        });
      }
      if (!documented.has(f.rule)) {
        documented.add(f.rule);
        actions.push({
          title: `Open documentation for ${f.rule}`,
          kind: CodeActionKind.QuickFix,
          diagnostics: [d],
          command: {
            title: `Open documentation for ${f.rule}`,
            command: Commands.openRuleDocs,
            arguments: [docsUrl(f.rule)],
          },
        });
      }
    }
  }
  if (wants(CodeActionKind.QuickFix) && ctx.settings.enable && ctx.fixes) {
    actions.push(...writerActions(ctx, params.range));
  }
  if (FIX_ALL_ADVERTISED && only && wants(FIX_ALL_KIND) && ctx.fixes) {
    const all = fixAll(ctx);
    if (all) actions.push(all);
  }
  return actions;
}

/** "Generate the scatter-gather reader" on a sharded writer on the requested lines, which has no finding. */
function writerActions(ctx: ActionContext, range: Range): CodeAction[] {
  const fixes = ctx.fixes!;
  const out: CodeAction[] = [];
  for (const w of writersOnLines(ctx.accesses ?? [], range.start.line, range.end.line)) {
    const target = { uri: ctx.doc.uri, range: spanToRange(w.partitionKey!.span) };
    for (const fix of fixes.ofWriter(w, fixes.ctx))
      out.push(...fixCodeActions(fix, target, null, fixes.ctx, fixes.client));
  }
  return out;
}

/**
 * Every `safe` fix of the document's findings in one edit. Ignoring a finding hides a
 * problem rather than fixing it, so it is never part of fix-all; fixes whose changes
 * overlap another's are left out (the first wins).
 */
function fixAll(ctx: ActionContext): CodeAction | null {
  const fixes = ctx.fixes!;
  const chosen: FixAction[] = [];
  for (const f of ctx.findings) {
    if (!toDiagnostic(f, ctx.settings)) continue;
    for (const fix of fixes.ofFinding(f, fixes.ctx)) {
      const overlaps = chosen.some((c) =>
        c.changes.some((x) => fix.changes.some((y) => x.file === y.file && touches(x.span, y.span))),
      );
      if (fix.safe && fix.changes.length > 0 && !overlaps) chosen.push(fix);
    }
  }
  if (chosen.length === 0) return null;
  const merged: FixAction = {
    title: 'Fix all safe ShardLens problems',
    id: 'fix-all',
    safe: true,
    asks: [],
    changes: chosen.flatMap((c) => c.changes),
  };
  const edit = workspaceEdit(merged, fixes.ctx, fixes.client);
  return edit ? { title: merged.title, kind: FIX_ALL_KIND, edit } : null;
}

function touches(a: Span, b: Span): boolean {
  const before = (x: Span, y: Span) =>
    x.endLine < y.startLine || (x.endLine === y.startLine && x.endColumn <= y.startColumn);
  return !before(a, b) && !before(b, a);
}
