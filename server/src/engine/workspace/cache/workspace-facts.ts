import type { TableDefinition } from '../../model/call-site';
import { languageForFile } from '../../syntax/parser';
import { definitionChanges, writesChanged } from '../cross-module';
import type { WorkspaceIndex } from '../index';
import { refreshWriters } from '../passes';
import type { Entry } from './entry';
import type { RunFacts } from './store';

/** Which of the workspace's facts are not those the cache's analyses were made with. */
export interface MovedFacts {
  wrappers: boolean;
  definitions: boolean;
}

/**
 * Whether the workspace's wrapper modules or table definitions are not those the cache's
 * analyses were made with: then what they reach is analysed again (`reconcileFacts`).
 */
export function factsMoved(then: RunFacts, index: WorkspaceIndex): boolean {
  return wrappersMoved(then, index) || definitionsMoved(then, index);
}

/** Each of the two facts, looked at once (each is a comparison of the whole workspace's). */
export function movedFacts(then: RunFacts, index: WorkspaceIndex): MovedFacts {
  return { wrappers: wrappersMoved(then, index), definitions: definitionsMoved(then, index) };
}

/**
 * After the passes over restored analyses: a change of the wrapper modules analyses again
 * every restored file that reads other modules or makes calls; a change of the table
 * definitions refreshes the writers it reaches.
 */
export function reconcileFacts(
  then: RunFacts,
  moved: MovedFacts,
  restored: Iterable<[file: string, entry: Entry]>,
  readText: (file: string) => string | null,
  index: WorkspaceIndex,
  files: readonly string[],
): void {
  const { pass } = index.crossFile;
  if (moved.wrappers) {
    for (const [file, entry] of restored) {
      const language = languageForFile(file);
      if (!language || (entry.deps.length === 0 && entry.analysis.accesses.length === 0)) continue;
      const text = readText(file);
      if (text !== null) pass.update(file, text, language);
    }
    index.completePasses(files);
  }
  // Files analysed again above may define tables otherwise: then the definitions are compared again.
  if (moved.wrappers ? definitionsMoved(then, index) : moved.definitions) {
    const changes = definitionChanges(JSON.parse(then.definitions) as TableDefinition[], pass.facts.tableDefinitions());
    refreshWriters(pass, (accesses) => writesChanged(accesses, changes));
  }
}

function wrappersMoved(then: RunFacts, index: WorkspaceIndex): boolean {
  return index.crossFile.pass.facts.wrapperFiles().join('\0') !== then.wrappers.join('\0');
}

function definitionsMoved(then: RunFacts, index: WorkspaceIndex): boolean {
  return JSON.stringify(index.crossFile.pass.facts.tableDefinitions()) !== then.definitions;
}
