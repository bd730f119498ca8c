/**
 * The values an analysis finds by name across the workspace, not through an import: the
 * TypeDORM connection a project makes under a name (connections.ts) and the model a NestJS
 * feature module registers under a token (nest-models.ts). Each answer is kept until any
 * file changes, and noted with the file that asked (workspace-lookups.ts), so that a cached
 * or already made analysis can be checked against what the workspace answers now.
 */
import * as path from 'node:path';
import type { SourceLanguage } from '../model';
import type { Value } from '../model/value';
import { workspaceConnections, type WorkspaceConnection } from './connections';
import type { FolderListings } from './folder-listings';
import { MODULE_FILE, registeredModel } from './nest-models';
import { frontEndFor } from '../frontends/registry';
import { languageForFile, parsersLoaded } from '../syntax/parser';
import type { ReadText } from './source';
import { LookupLog, answerOf, sameAnswer, type LookupKind, type WorkspaceLookup } from './workspace-lookups';

/** What the lookups need of the workspace's modules (ModuleConstants answers them). */
export interface NamedLookupHost {
  root: string;
  folders: FolderListings;
  read: ReadText;
  /** `name` as `module` imports it from `source`. */
  resolve(module: string, language: SourceLanguage, source: string, name: string): Value | null;
  /** What the function `name` that `module` imports from `source` returns. */
  returns(module: string, language: SourceLanguage, source: string, name: string): Value | null;
}

/**
 * Whether a change of `file` (its text now, null when it went) may change what a lookup
 * answers: it may make a connection, or is a Nest module file, or went. Any other edit leaves
 * every answer as it was (the modules an answer was read from are the asker's dependencies
 * and re-analyse it when they change), so the language server asks nothing again on a keystroke.
 */
export function mayChangeLookups(file: string, text: string | null): boolean {
  if (text === null || MODULE_FILE.test(file)) return true;
  const language = languageForFile(file);
  return !!language && !!frontEndFor(language).connections?.mayHold(text);
}

export class NamedLookups {
  /** Folder and token → the model injected there, until any file changes. */
  private readonly injected = new Map<string, { model: Value; modules: string[] } | null>();
  /** Project folder → the connections its files make by name, read once until any file changes. */
  private readonly connectionLists = new Map<string, WorkspaceConnection[]>();
  readonly log = new LookupLog();

  constructor(private readonly host: NamedLookupHost) {}

  /** The model registered under `token` near `fromFile`, and the modules it was read from; noted for `fromFile`. */
  model(fromFile: string, token: string): { model: Value; modules: string[] } | null {
    const found = this.modelNow(fromFile, token);
    this.log.note('model', fromFile, token, found?.model ?? null);
    return found;
  }

  /**
   * The connection made under `name` when exactly one module of `fromFile`'s project (the
   * nearest package.json above it) makes it, and every module making one there (a change
   * of any may change it); noted for `fromFile`.
   */
  connection(fromFile: string, name: string): { value: Value | null; modules: string[] } {
    const list = this.connectionsOf(fromFile);
    const value = onlyNamed(list, name);
    this.log.note('connection', fromFile, name, value);
    return { value, modules: list.map((c) => c.module) };
  }

  /** Whether a recorded lookup gives the same answer now (nothing noted). */
  holds([kind, fromFile, name, answer]: WorkspaceLookup): boolean {
    // Asking parses the modules that make a connection or register a model: without the grammars it cannot be told.
    if (!parsersLoaded()) return false;
    return sameAnswer(answer, answerOf(this.answerNow(kind, fromFile, name)));
  }

  /** Any file appeared, changed or went: every answer is looked up again when next asked. */
  clear(): void {
    this.injected.clear();
    this.connectionLists.clear();
  }

  private answerNow(kind: LookupKind, fromFile: string, name: string): Value | null {
    if (kind === 'model') return this.modelNow(fromFile, name)?.model ?? null;
    return onlyNamed(this.connectionsOf(fromFile), name);
  }

  private modelNow(fromFile: string, token: string): { model: Value; modules: string[] } | null {
    const key = `${path.dirname(fromFile)}\0${token}`;
    let found = this.injected.get(key);
    if (found === undefined) {
      const { root, folders, read, resolve, returns } = this.host;
      found = registeredModel(fromFile, token, {
        root,
        filesIn: (dir) => {
          const l = folders.listing(dir);
          return l === 'unlisted' ? [] : [...l].filter(([, e]) => e === 'file').map(([n]) => n);
        },
        read,
        resolve,
        returns,
      });
      this.injected.set(key, found);
    }
    return found;
  }

  private connectionsOf(fromFile: string): WorkspaceConnection[] {
    const project = this.projectOf(fromFile);
    let list = this.connectionLists.get(project);
    if (!list) this.connectionLists.set(project, (list = this.connectionsIn(project)));
    return list;
  }

  /** The folder of the nearest package.json above a file (one process's code), else the root. */
  private projectOf(file: string): string {
    const root = path.resolve(this.host.root);
    for (let dir = path.dirname(path.resolve(file)); dir.startsWith(root); dir = path.dirname(dir)) {
      const l = this.host.folders.listing(dir);
      if (l !== 'unlisted' && l.get('package.json') === 'file') return dir;
      if (dir === root || path.dirname(dir) === dir) break;
    }
    return root;
  }

  private connectionsIn(project: string): WorkspaceConnection[] {
    const { folders, read, resolve } = this.host;
    return workspaceConnections({
      root: project,
      entries: (dir) => {
        const l = folders.listing(dir);
        if (l === 'unlisted') return [];
        return [...l].flatMap(([n, e]): Array<[string, 'file' | 'dir']> =>
          e === 'file' || e === 'dir' ? [[n, e]] : [],
        );
      },
      read,
      resolve,
    });
  }
}

/** The connection made under `name` when exactly one module makes one so named, else null. */
function onlyNamed(list: readonly WorkspaceConnection[], name: string): Value | null {
  const found = list.filter((c) => c.name === name);
  return found.length === 1 ? found[0].value : null;
}
