/**
 * Checks of what a client sends, before a handler reads it. The protocol library
 * passes params through untyped: a client that sends `params: null`, a string for a
 * line or a range with its ends swapped must get a clear answer (InvalidParams for a
 * request, a logged refusal for a notification), never a TypeError from deep inside
 * a handler, and never a text that drifts from the client's.
 */
import type { CodeActionParams, HoverParams, Position, Range } from 'vscode-languageserver';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A position's coordinates as numbers. Not a NaN (it would turn every offset into NaN
 * and the text into nonsense); fractions are cut to integers, as the protocol's
 * uinteger says, so the text and the syntax tree cut at the same place. Negative and
 * too large ones are kept: the document clamps them (`TextDocument.offsetAt`).
 */
function position(v: unknown): Position | null {
  if (!isObject(v)) return null;
  const { line, character } = v;
  if (typeof line !== 'number' || typeof character !== 'number') return null;
  if (Number.isNaN(line) || Number.isNaN(character)) return null;
  return { line: Math.trunc(line), character: Math.trunc(character) };
}

/**
 * A range with its ends in document order, exactly as `vscode-languageserver-textdocument`
 * orders them (its `getWellformedRange`): by line, then by character. The server's text
 * and its syntax tree must both take an edit over the same, ordered span.
 */
export function wellFormedRange(v: unknown): Range | null {
  if (!isObject(v)) return null;
  const start = position(v.start);
  const end = position(v.end);
  if (!start || !end) return null;
  const reversed = start.line > end.line || (start.line === end.line && start.character > end.character);
  return reversed ? { start: end, end: start } : { start, end };
}

/** `{ textDocument: { uri } }`'s URI, or null. */
export function documentUri(p: unknown): string | null {
  if (!isObject(p) || !isObject(p.textDocument)) return null;
  return typeof p.textDocument.uri === 'string' ? p.textDocument.uri : null;
}

/** A checked `textDocument/hover` request, or why it is not one. */
export function hoverParams(p: unknown): HoverParams | string {
  const uri = documentUri(p);
  if (!uri) return 'textDocument/hover needs params { textDocument: { uri }, position }';
  const at = position((p as Obj).position);
  if (!at) return 'textDocument/hover needs a position { line, character } of numbers';
  return { textDocument: { uri }, position: at };
}

/**
 * A checked `textDocument/codeAction` request, or why it is not one. `context.diagnostics`
 * is read only to attach the client's own copy of a diagnostic, so a missing list is
 * taken as empty and entries without a range are left out.
 */
export function codeActionParams(p: unknown): CodeActionParams | string {
  const uri = documentUri(p);
  if (!uri) return 'textDocument/codeAction needs params { textDocument: { uri }, range, context }';
  const range = wellFormedRange((p as Obj).range);
  if (!range) return 'textDocument/codeAction needs a range { start, end } of positions { line, character }';
  const context = (p as Obj).context;
  if (!isObject(context)) return 'textDocument/codeAction needs a context { diagnostics, only? } object';
  const only = context.only;
  if (only !== undefined && !(Array.isArray(only) && only.every((k) => typeof k === 'string'))) {
    return 'textDocument/codeAction context.only must be a list of code action kinds';
  }
  const listed = Array.isArray(context.diagnostics) ? context.diagnostics : [];
  const diagnostics = listed.filter((d) => isObject(d) && wellFormedRange(d.range) !== null);
  return {
    textDocument: { uri },
    range,
    context: { ...(context as CodeActionParams['context']), diagnostics, only: only as string[] | undefined },
  };
}

/** One checked content change: a range edit (its range ordered) or the whole text. */
export type ContentChange = { range: Range; text: string } | { text: string };

/** A checked `textDocument/didChange` notification, or why it is refused (nothing of it is applied then). */
export function didChangeParams(
  p: unknown,
): { uri: string; version: number; contentChanges: ContentChange[] } | string {
  const uri = documentUri(p);
  if (!uri) return 'textDocument/didChange needs { textDocument: { uri, version }, contentChanges }';
  const version = (p as { textDocument: Obj }).textDocument.version;
  const changes = (p as Obj).contentChanges;
  if (!Array.isArray(changes)) return `textDocument/didChange for ${uri} has no contentChanges list`;
  const out: ContentChange[] = [];
  for (const c of changes) {
    if (!isObject(c) || typeof c.text !== 'string') return `textDocument/didChange for ${uri}: a change has no text`;
    if (c.range === undefined) {
      out.push({ text: c.text });
      continue;
    }
    const range = wellFormedRange(c.range);
    if (!range) return `textDocument/didChange for ${uri}: a change's range is not { start, end } of numbers`;
    out.push({ range, text: c.text });
  }
  return { uri, version: typeof version === 'number' ? version : 0, contentChanges: out };
}
