import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Range } from 'vscode-languageserver';
import type { Span } from '../engine/model';

/** Files are keyed by absolute path in the engine and by URI on the wire. */
export function uriToPath(uri: string): string | null {
  return uri.startsWith('file:') ? path.normalize(fileURLToPath(uri)) : null;
}

export function pathToUri(file: string): string {
  return pathToFileURL(file).toString();
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
