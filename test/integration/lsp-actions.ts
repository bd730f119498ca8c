// Code actions taken over LSP as an editor takes them: a document opened, its
// diagnostics awaited, the actions asked for at a diagnostic's range with no
// `context.diagnostics` (as some clients send), and a WorkspaceEdit written to disk.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CodeAction, Diagnostic, Hover, TextEdit } from 'vscode-languageserver';
import { applyChanges } from '../../server/src/features/fixes/apply';
import type { FixAction, FixContext } from '../../server/src/features/fixes/fix-model';
import { cleanup, copyFixture } from '../fixes/helpers-write';
import { startServer, until, type Session } from './lsp-client';

const LANGUAGES: Record<string, string> = { '.py': 'python', '.ts': 'typescript', '.js': 'javascript' };

/** Opens a file from disk and waits for its first non-empty diagnostics. */
export async function openDocument(session: Session, file: string): Promise<Diagnostic[]> {
  const uri = pathToFileURL(file).toString();
  const languageId = LANGUAGES[path.extname(file)] ?? 'plaintext';
  await session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId, version: 1, text: fs.readFileSync(file, 'utf8') },
  });
  return until(`the diagnostics of ${path.basename(file)}`, () =>
    session.diagnostics.get(uri)?.length ? session.diagnostics.get(uri) : undefined,
  );
}

export const codeActionsAt = (session: Session, file: string, range: Diagnostic['range']) =>
  session.conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri: pathToFileURL(file).toString() },
    range,
    context: { diagnostics: [] },
  }) as Promise<CodeAction[]>;

/** LSP text edits as the fixes' own changes of `file`. */
export const asChanges = (file: string, edits: TextEdit[]) =>
  edits.map((e) => ({
    file,
    span: {
      startLine: e.range.start.line,
      startColumn: e.range.start.character,
      endLine: e.range.end.line,
      endColumn: e.range.end.character,
    },
    newText: e.newText,
  }));

/** Writes a WorkspaceEdit's changes to disk, each file's edits against its text before any; the files' names. */
export function writeWorkspaceEdit(changes: Record<string, TextEdit[]>): string[] {
  for (const [uri, edits] of Object.entries(changes)) {
    const file = fileURLToPath(uri);
    fs.writeFileSync(file, applyChanges(fs.readFileSync(file, 'utf8'), asChanges(file, edits)));
  }
  return Object.keys(changes).map((u) => path.basename(fileURLToPath(u)));
}

/** Waits until the server has indexed the workspace and found something in it. */
export const indexed = (session: Session) =>
  until('indexing to finish', () => session.statuses.some((x) => !x.indexing && x.warnings + x.errors > 0));

/** A language server over a fresh copy of a fixture, filled in before the tests run. */
export interface ServedFixture {
  session: Session;
  /** The copy: the server's workspace, written to by the edits the tests apply. */
  dir: string;
}

/**
 * A language server over a fresh copy of fixture `name` from `under`, started before the
 * tests of the file or `describe` this is called in, stopped and its copy removed after
 * them. `prepare` runs on the copy before the server starts; with `waitForIndex` the tests
 * start once the workspace index is complete (for what files no editor opened say).
 */
export function serveFixture(
  name: string,
  under: string,
  { waitForIndex = false, prepare }: { waitForIndex?: boolean; prepare?: (dir: string) => Promise<void> } = {},
): ServedFixture {
  const served = { dir: '' } as ServedFixture;
  before(async () => {
    served.dir = copyFixture(name, under);
    await prepare?.(served.dir);
    served.session = startServer(served.dir);
    await served.session.initialize();
    if (waitForIndex) await indexed(served.session);
  });
  after(() => {
    served.session?.stop();
    cleanup(served.dir);
  });
  return served;
}

/** Each file of a fix as the provider's changes leave it: what the code action's edit must write. */
export const textsAfter = (ctx: FixContext, action: FixAction) =>
  new Map(
    [...new Set(action.changes.map((c) => c.file))].map((file) => [
      file,
      applyChanges(
        ctx.textOf(file)!,
        action.changes.filter((c) => c.file === file),
      ),
    ]),
  );

/** The hover's markdown at `position` of `file`, unescaped. */
export async function hoverText(session: Session, file: string, position: Diagnostic['range']['start']) {
  const hover = (await session.conn.sendRequest('textDocument/hover', {
    textDocument: { uri: pathToFileURL(file).toString() },
    position,
  })) as Hover;
  return (hover.contents as { value: string }).value.replace(/\\(.)/g, '$1');
}
