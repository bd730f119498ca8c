import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Range } from 'vscode-languageserver';
import type { Span } from '../engine';

/**
 * Files are keyed by absolute path in the engine and by URI on the wire. Null for a URI
 * that names no local file: another scheme, or a `file:` URI that does not parse or
 * names another host (the document is then keyed by its URI, like an unsaved buffer).
 */
export function uriToPath(uri: string): string | null {
  if (!uri.startsWith('file:')) return null;
  try {
    return path.normalize(fileURLToPath(uri));
  } catch {
    return null;
  }
}

/**
 * Each path's URI, once: publishing a workspace asks for every file's several times, and
 * `pathToFileURL` (a URL object, percent-encoding) cost more than the rest of a warm
 * start's publish on bench/workspace. Cleared whole past a bound, as a path is cheap to redo.
 */
const uris = new Map<string, string>();
const MAX_URIS = 100_000;

export function pathToUri(file: string): string {
  let uri = uris.get(file);
  if (uri === undefined) {
    if (uris.size >= MAX_URIS) uris.clear();
    uris.set(file, (uri = pathToFileURL(file).toString()));
  }
  return uri;
}

/** The URI of an engine key: a file path, or (for an unsaved buffer) the URI it was keyed by. */
export function keyToUri(key: string): string {
  return path.isAbsolute(key) ? pathToUri(key) : key;
}

export function spanToRange(s: Span): Range {
  return { start: { line: s.startLine, character: s.startColumn }, end: { line: s.endLine, character: s.endColumn } };
}

export function contains(s: Span, line: number, character: number): boolean {
  const afterStart = line > s.startLine || (line === s.startLine && character >= s.startColumn);
  const beforeEnd = line < s.endLine || (line === s.endLine && character <= s.endColumn);
  return afterStart && beforeEnd;
}
