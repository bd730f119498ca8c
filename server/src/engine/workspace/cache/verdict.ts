import { contextsHold } from '../../file-roles';
import type { ModuleConstants } from '../modules';
import type { Entry } from './entry';

/**
 * What becomes of a file's stored entry: it stands as it is ('restore'); it stands but for
 * modules it read that changed since, its recorded reads to be asked again ('verify'); or
 * the file must be analysed ('miss').
 */
export type Verdict = 'restore' | 'verify' | 'miss';

/** What the verdict looks at beside the entry: the workspace as it is now. */
export interface VerdictInputs {
  /** A file's current text's hash (null: not readable). */
  hashOf(file: string): string | null;
  /** Whether the path-alias configs hold what they held when the cache was written. */
  aliasesHold(): boolean;
  modules: Pick<ModuleConstants, 'importedFile' | 'lookupHolds'>;
}

/** The verdict on the entry stored for `file`, whose text hashes to `hash` now. */
export function entryVerdict(file: string, hash: string, entry: Entry | undefined, now: VerdictInputs): Verdict {
  const own =
    !!entry &&
    entry.hash === hash &&
    // The roles and projects the rules judged it with: a package.json added since moves a root.
    contextsHold(entry.analysis.contexts, (f) => f === file || entry.deps.some(([dep]) => dep === f)) &&
    // An alias edited, a tsconfig added nearer, a package renamed or its exports changed:
    // its imports may resolve to other modules.
    (!resolvesAliases(entry.analysis.language) || now.aliasesHold()) &&
    // A file added or removed since: each import it followed must still name the same file.
    (entry.resolutions ?? []).every(
      ([language, from, source, target]) => now.modules.importedFile(from, language, source) === target,
    ) &&
    // A connection or a Nest model made, changed or gone in a file it never read: asked again.
    (entry.lookups ?? []).every((l) => now.modules.lookupHolds(l));
  if (!own) return 'miss';
  if (entry.deps.every(([dep, h]) => dep !== file && now.hashOf(dep) === h)) return 'restore';
  return entry.analysis.reads && entry.deps.every(([dep]) => dep !== file) ? 'verify' : 'miss';
}

/** Whether a language's imports go through tsconfig/jsconfig path aliases (path-aliases.ts). */
export function resolvesAliases(language: string | null | undefined): boolean {
  return language === 'typescript' || language === 'tsx' || language === 'javascript';
}
