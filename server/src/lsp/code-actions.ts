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
import type { Finding, FixDescriptor, SourceLanguage } from '../engine/model';
import { docsUrl } from '../engine/rules';
import { toDiagnostic } from './diagnostics';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.shardlens`;

/**
 * Turns one of a finding's fix descriptors (plain data from the rules, e.g. "add a
 * shard suffix to this key") into a quick fix, or null when it cannot here. Writing
 * the edits is the features layer's job: it registers one builder per kind in
 * FIX_BUILDERS. Until it does, a descriptor yields no action — a menu entry that
 * does nothing would be worse than none — but every descriptor of every finding
 * in range already reaches the builder of its kind, with the diagnostic to attach.
 */
export type FixBuilder = (fix: FixDescriptor, doc: TextDocument, diagnostic: Diagnostic) => CodeAction | null;
export type FixBuilders = Partial<Record<FixDescriptor['kind'], FixBuilder>>;
export const FIX_BUILDERS: FixBuilders = {};

/** What the actions of one document are computed from: the server's own view of it. */
export interface ActionContext {
  doc: TextDocument;
  /** The language the document is analysed as (its id may be empty or unknown). */
  language: SourceLanguage;
  /** The document's current findings, cross-file ones included. */
  findings: Finding[];
  settings: ShardLensSettings;
  builders?: FixBuilders;
}

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
 * The quick fixes for every finding on the requested lines (ignore the line, open the
 * rule's docs, and whatever its fix descriptors build), and `source.fixAll.shardlens`.
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
    const builders = ctx.builders ?? FIX_BUILDERS;
    const multiline = params.range.start.line !== params.range.end.line;
    const ignored = new Set<string>();
    const documented = new Set<string>();
    for (const f of ctx.findings) {
      const own = toDiagnostic(f, ctx.settings);
      if (!own || !onLines(own, params.range)) continue;
      const d = params.context.diagnostics.find((s) => sameDiagnostic(s, own)) ?? own;
      const line = d.range.start.line;
      for (const fix of f.fixes) {
        const action = builders[fix.kind]?.(fix, ctx.doc, d);
        if (action) actions.push({ ...action, kind: CodeActionKind.QuickFix, diagnostics: [d] });
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
  if (only && wants(FIX_ALL_KIND)) {
    // No builder writes a fix safe enough to apply unasked yet, so this edits nothing;
    // the kind is offered so `editor.codeActionsOnSave` can name it. Ignoring a finding
    // hides a problem rather than fixing it, so it is never part of fix-all.
    actions.push({ title: 'Fix all safe ShardLens problems', kind: FIX_ALL_KIND, edit: { changes: {} } });
  }
  return actions;
}
