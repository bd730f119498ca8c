/**
 * The connections a library keeps by name for the whole process, as the workspace makes them:
 * TypeDORM's `createConnection({ name, table, entities })` written in a bootstrap module, or in a
 * class's method (`Database.connect()`), while services and handlers take the manager by name
 * anywhere else (`getEntityManager()`, the `'default'` connection). The workspace's files are
 * listed once (dependencies, build output and hidden folders left out) and only those whose text
 * may make one (`ConnectionReader.mayHold`) are parsed and read.
 */
import * as path from 'node:path';
import type { Tree } from 'web-tree-sitter';
import type { ImportLookup } from '../model/eval-context';
import type { SourceLanguage } from '../model';
import type { Value } from '../model/value';
import { placeOrigins } from '../frontends/evaluation';
import { frontEndFor } from '../frontends/registry';
import { languageForFile, parse } from '../syntax/parser';

/** Folders no connection of the application is made in. */
const SKIPPED = /^(?:\.|node_modules$|dist$|build$|out$|cdk\.out$|coverage$)/;
/** At most this many files are looked at: a bigger workspace is read no further. */
const MAX_FILES = 20000;

export interface ConnectionHost {
  root: string;
  /** A folder's entries: files and folders by name. */
  entries(dir: string): Array<[string, 'file' | 'dir']>;
  read(file: string): string | null;
  resolve(module: string, language: SourceLanguage, source: string, name: string): Value | null;
}

export interface WorkspaceConnection {
  name: string;
  value: Value;
  module: string;
}

export function workspaceConnections(host: ConnectionHost): WorkspaceConnection[] {
  const out: WorkspaceConnection[] = [];
  let seen = 0;
  const stack = [host.root];
  while (stack.length && seen < MAX_FILES) {
    const dir = stack.pop()!;
    for (const [name, kind] of host.entries(dir)) {
      if (kind === 'dir') {
        if (!SKIPPED.test(name)) stack.push(path.join(dir, name));
        continue;
      }
      if (++seen > MAX_FILES) break;
      out.push(...connectionsOf(path.join(dir, name), host));
    }
  }
  return out;
}

function connectionsOf(module: string, host: ConnectionHost): WorkspaceConnection[] {
  const language = languageForFile(module);
  const reader = language ? frontEndFor(language).connections : undefined;
  if (!language || !reader) return [];
  const text = host.read(module);
  if (!text || !reader.mayHold(text)) return [];
  let tree: Tree;
  try {
    tree = parse(language, text, 1000);
  } catch {
    return [];
  }
  try {
    const imports: ImportLookup = (source, name) => host.resolve(module, language, source, name);
    const found = reader.read({ file: module, text, tree, language, lookups: { imports } }, frontEndFor(language));
    return found.map((c) => ({ name: c.name, value: placeOrigins(c.value, module), module }));
  } finally {
    tree.delete();
  }
}
